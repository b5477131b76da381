// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#include "support/io_fakes.h"

#include <algorithm>

#include "tern/exceptions.h"

namespace tern::testing {

int64_t TrickleSource::read(Buffer& sink, int64_t byteCount) {
  int64_t result = data_.read(sink, std::min(byteCount, maxBytesPerRead_));
  ++readCount_;
  return result;
}

int64_t EndlessSource::read(Buffer& sink, int64_t byteCount) {
  std::string chunk(static_cast<size_t>(std::min<int64_t>(byteCount, 4096)), fill_);
  sink.writeUtf8(chunk);
  bytesProduced_ += static_cast<int64_t>(chunk.size());
  return static_cast<int64_t>(chunk.size());
}

void RecordingSink::record(std::string call) {
  log_.push_back(std::move(call));
  if (failure_) {
    std::string message = std::move(*failure_);
    failure_.reset();
    throw IOException(message);
  }
}

void RecordingSink::write(Buffer& source, int64_t byteCount) {
  record("write(" + std::to_string(byteCount) + ")");
  data_.write(source, byteCount);
}

void RecordingSink::flush() { record("flush()"); }

void RecordingSink::close() { record("close()"); }

void OneBytePerSegmentSink::write(Buffer& source, int64_t byteCount) {
  for (int64_t i = 0; i < byteCount; ++i) {
    std::byte b = source.readByte();
    // Asking for a whole segment's capacity forces a fresh segment for every byte.
    target_.writableSegment(Buffer::kSegmentSize)[0] = b;
    target_.commitWrite(1);
  }
}

}  // namespace tern::testing
