// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "tern/buffer.h"
#include "tern/sink.h"
#include "tern/source.h"

namespace tern::testing {

// A Source over a Buffer that returns at most `maxBytesPerRead` bytes per read: a slow peer, so
// parsers meet values split across reads. The buffer must outlive it.
class TrickleSource final : public Source {
 public:
  explicit TrickleSource(Buffer& data, int64_t maxBytesPerRead = 1)
      : data_(data), maxBytesPerRead_(maxBytesPerRead) {}

  int64_t read(Buffer& sink, int64_t byteCount) override;
  Timeout& timeout() override { return timeout_; }
  void close() override { ++closeCount_; }

  // How many reads returned data or -1.
  int readCount() const { return readCount_; }
  int closeCount() const { return closeCount_; }

 private:
  Buffer& data_;
  int64_t maxBytesPerRead_;
  Timeout timeout_;
  int readCount_ = 0;
  int closeCount_ = 0;
};

// A Source that never ends: every read returns up to `byteCount` copies of `fill`. For proving
// that a reader stops by itself (limits) rather than at the end of the stream. Counts the bytes
// it produced.
class EndlessSource final : public Source {
 public:
  explicit EndlessSource(char fill) : fill_(fill) {}

  int64_t read(Buffer& sink, int64_t byteCount) override;
  Timeout& timeout() override { return timeout_; }
  void close() override {}

  int64_t bytesProduced() const { return bytesProduced_; }

 private:
  char fill_;
  Timeout timeout_;
  int64_t bytesProduced_ = 0;
};

// A Sink that keeps what is written in `data()` and logs each call as "write(n)", "flush()" or
// "close()", as Okio's MockSink. failNext() makes the next call throw IOException (after
// logging it).
class RecordingSink final : public Sink {
 public:
  void write(Buffer& source, int64_t byteCount) override;
  void flush() override;
  Timeout& timeout() override { return timeout_; }
  void close() override;

  Buffer& data() { return data_; }
  const std::vector<std::string>& log() const { return log_; }
  void failNext(std::string message) { failure_ = std::move(message); }

 private:
  void record(std::string call);

  Buffer data_;
  std::vector<std::string> log_;
  std::optional<std::string> failure_;
  Timeout timeout_;
};

// A Sink that appends each byte written to `target` in a segment of its own: the most
// fragmented buffer possible, to catch code that assumes values lie within one segment.
class OneBytePerSegmentSink final : public Sink {
 public:
  explicit OneBytePerSegmentSink(Buffer& target) : target_(target) {}

  void write(Buffer& source, int64_t byteCount) override;
  void flush() override {}
  Timeout& timeout() override { return Timeout::none(); }
  void close() override {}

 private:
  Buffer& target_;
};

}  // namespace tern::testing
