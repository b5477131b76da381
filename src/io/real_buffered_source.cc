// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#include "io/real_buffered_source.h"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace tern {

namespace internal {

namespace {
constexpr auto kSegmentSize = static_cast<int64_t>(Buffer::kSegmentSize);
}  // namespace

RealBufferedSource::RealBufferedSource(std::unique_ptr<Source> owned, Source& source)
    : owned_(std::move(owned)), source_(source) {}

int64_t RealBufferedSource::read(Buffer& sink, int64_t byteCount) {
  if (byteCount < 0) {
    throw std::invalid_argument("BufferedSource::read: byteCount < 0: " +
                                std::to_string(byteCount));
  }
  checkNotClosed();
  if (byteCount == 0) {
    return 0;
  }
  // A large read asks the source for as much (a socket then fills several segments at once);
  // a small one still reads a whole segment ahead.
  if (buffer_.size() == 0 && source_.read(buffer_, std::max(byteCount, kSegmentSize)) == -1) {
    return -1;
  }
  int64_t n = std::min(byteCount, buffer_.size());
  sink.write(buffer_, n);
  return n;
}

bool RealBufferedSource::request(int64_t byteCount) {
  if (byteCount < 0) {
    throw std::invalid_argument("BufferedSource::request: byteCount < 0: " +
                                std::to_string(byteCount));
  }
  checkNotClosed();
  while (buffer_.size() < byteCount) {
    if (source_.read(buffer_, kSegmentSize) == -1) {
      return false;
    }
  }
  return true;
}

Timeout& RealBufferedSource::timeout() { return source_.timeout(); }

void RealBufferedSource::close() {
  if (closed_) {
    return;
  }
  closed_ = true;
  buffer_.clear();
  source_.close();
}

void RealBufferedSource::checkNotClosed() const {
  if (closed_) {
    throw std::logic_error("BufferedSource is closed");
  }
}

}  // namespace internal

std::unique_ptr<BufferedSource> buffer(std::unique_ptr<Source> source) {
  if (source == nullptr) {
    throw std::invalid_argument("buffer(): source is null");
  }
  Source& borrowed = *source;
  return std::make_unique<internal::RealBufferedSource>(std::move(source), borrowed);
}

std::unique_ptr<BufferedSource> buffer(Source& source) {
  return std::make_unique<internal::RealBufferedSource>(nullptr, source);
}

}  // namespace tern
