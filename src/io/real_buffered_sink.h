// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstdint>
#include <memory>

#include "tern/buffer.h"
#include "tern/buffered_sink.h"

namespace tern::internal {

// The BufferedSink that tern::buffer(Sink) returns (Okio's RealBufferedSink): writes collect in
// its buffer and go to the underlying sink as complete segments, or all at once on emit(),
// flush() and close(). Owns the sink if given `owned`; either way `sink` must outlive it.
// Destroying it drops unflushed bytes (flushing could throw). Not thread-safe.
class RealBufferedSink final : public BufferedSink {
 public:
  // `owned` is null or owns `sink`.
  RealBufferedSink(std::unique_ptr<Sink> owned, Sink& sink);

  using BufferedSink::write;
  void write(Buffer& source, int64_t byteCount) override;
  void flush() override;
  Timeout& timeout() override;
  void close() override;
  Buffer& buffer() override { return buffer_; }
  BufferedSink& emitCompleteSegments() override;
  BufferedSink& emit() override;

 private:
  void checkNotClosed() const;

  std::unique_ptr<Sink> owned_;
  Sink& sink_;
  Buffer buffer_;
  bool closed_ = false;
};

}  // namespace tern::internal
