// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>

#include "tern/buffer.h"
#include "tern/buffered_sink.h"
#include "tern/buffered_source.h"
#include "tern/sink.h"
#include "tern/source.h"

namespace tern::internal {

// A Source that reads from a BufferedSource it does not own (bytes it already buffered first).
// close() only ends this view: the stream underneath stays open for its owner. For a connection
// handed to another protocol after a 101 (the client's codec, MockWebServer's WebSocket server).
// Not thread-safe, as any Source. Reading after close() throws std::logic_error naming `what`.
class BorrowedSource final : public Source {
 public:
  BorrowedSource(BufferedSource& source, std::string what)
      : source_(source), what_(std::move(what)) {}
  int64_t read(Buffer& sink, int64_t byteCount) override {
    if (closed_) throw std::logic_error(what_ + ": source closed");
    return source_.read(sink, byteCount);
  }
  Timeout& timeout() override { return source_.timeout(); }
  void close() override { closed_ = true; }

 private:
  BufferedSource& source_;
  std::string what_;
  bool closed_ = false;
};

// A Sink that writes to a BufferedSink it does not own and flushes after each write, so a
// protocol's frame goes out whole without the caller flushing. close() flushes and ends this
// view only. Writing after close() throws std::logic_error naming `what`.
class FlushingSink final : public Sink {
 public:
  FlushingSink(BufferedSink& sink, std::string what) : sink_(sink), what_(std::move(what)) {}
  void write(Buffer& source, int64_t byteCount) override {
    checkOpen();
    sink_.write(source, byteCount);
    sink_.flush();
  }
  void flush() override {
    checkOpen();
    sink_.flush();
  }
  Timeout& timeout() override { return sink_.timeout(); }
  void close() override {
    if (closed_) return;
    closed_ = true;
    sink_.flush();
  }

 private:
  void checkOpen() const {
    if (closed_) throw std::logic_error(what_ + ": sink closed");
  }

  BufferedSink& sink_;
  std::string what_;
  bool closed_ = false;
};

}  // namespace tern::internal
