// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#include "io/real_buffered_sink.h"

#include <exception>
#include <stdexcept>

namespace tern {

namespace internal {

RealBufferedSink::RealBufferedSink(std::unique_ptr<Sink> owned, Sink& sink)
    : owned_(std::move(owned)), sink_(sink) {}

void RealBufferedSink::write(Buffer& source, int64_t byteCount) {
  checkNotClosed();
  buffer_.write(source, byteCount);
  emitCompleteSegments();
}

void RealBufferedSink::flush() {
  checkNotClosed();
  if (buffer_.size() > 0) {
    sink_.write(buffer_, buffer_.size());
  }
  sink_.flush();
}

Timeout& RealBufferedSink::timeout() { return sink_.timeout(); }

void RealBufferedSink::close() {
  if (closed_) {
    return;
  }
  // Emit what is buffered, then close the sink even if that failed; report the first failure.
  std::exception_ptr failure;
  try {
    if (buffer_.size() > 0) {
      sink_.write(buffer_, buffer_.size());
    }
  } catch (...) {
    failure = std::current_exception();
  }
  try {
    sink_.close();
  } catch (...) {
    if (!failure) {
      failure = std::current_exception();
    }
  }
  closed_ = true;
  buffer_.clear();
  if (failure) {
    std::rethrow_exception(failure);
  }
}

BufferedSink& RealBufferedSink::emitCompleteSegments() {
  checkNotClosed();
  int64_t complete = buffer_.completeSegmentByteCount();
  if (complete > 0) {
    sink_.write(buffer_, complete);
  }
  return *this;
}

BufferedSink& RealBufferedSink::emit() {
  checkNotClosed();
  if (buffer_.size() > 0) {
    sink_.write(buffer_, buffer_.size());
  }
  return *this;
}

void RealBufferedSink::checkNotClosed() const {
  if (closed_) {
    throw std::logic_error("BufferedSink is closed");
  }
}

}  // namespace internal

std::unique_ptr<BufferedSink> buffer(std::unique_ptr<Sink> sink) {
  if (sink == nullptr) {
    throw std::invalid_argument("buffer(): sink is null");
  }
  Sink& borrowed = *sink;
  return std::make_unique<internal::RealBufferedSink>(std::move(sink), borrowed);
}

std::unique_ptr<BufferedSink> buffer(Sink& sink) {
  return std::make_unique<internal::RealBufferedSink>(nullptr, sink);
}

}  // namespace tern
