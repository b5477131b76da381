// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
// Feeds arbitrary bytes as everything a server sends on an HTTP/2 connection (RFC 9113) to tern's
// client: Http2Connection with its reader thread, nghttp2's framing, HPACK and flow control, and
// Http2ExchangeCodec reading each stream's response headers, body and trailers. The client opens
// its streams (and writes any request bodies) first; then the input is let through, a few bytes
// per socket read, and ends with the end of the stream. Every call must end: with a response or
// an IOException, never a crash, a hang (libFuzzer's -timeout), a leak (LeakSanitizer) or another
// exception type.
//
// The first byte picks the options: bits 0-1 the number of streams (1-4), bit 2 POST bodies,
// bit 3 a valid SETTINGS frame put before the input (so mutations need not keep the server
// preface intact), bits 4-6 the socket read size (1 to 16384 bytes), bit 7 a cancel of the last
// stream once its headers came.
#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "concurrent/task_runner.h"
#include "http/exchange_codec.h"
#include "http2/http2_connection.h"
#include "http2/http2_exchange_codec.h"
#include "tern/buffer.h"
#include "tern/exceptions.h"
#include "tern/request.h"
#include "tern/request_body.h"
#include "tern/response.h"
#include "tern/timeout.h"

namespace {

using namespace tern;
using namespace std::chrono_literals;

void check(bool condition) {
  if (!condition) std::abort();
}

// The client's preface (RFC 9113 §3.4): every connection must begin with it.
constexpr std::string_view kClientPreface = "PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n";

// A socket in memory: reads serve the server's bytes, at most `maxRead` at a time, once
// release() let them through (until then they wait, as a server that has not answered yet);
// then the end of the stream. Writes are counted and dropped, except the first bytes, kept to
// check the preface. breakSocket() makes every later read and write throw, as Socket::cancel().
class FuzzSocket final : public Source, public Sink {
 public:
  FuzzSocket(Buffer input, int64_t maxRead) : input_(std::move(input)), maxRead_(maxRead) {}

  void release() {
    std::lock_guard lock(mutex_);
    released_ = true;
    changed_.notify_all();
  }

  void breakSocket() {
    std::lock_guard lock(mutex_);
    broken_ = true;
    changed_.notify_all();
  }

  std::string writtenPrefix() {
    std::lock_guard lock(mutex_);
    return prefix_;
  }

  int64_t read(Buffer& sink, int64_t byteCount) override {
    std::unique_lock lock(mutex_);
    changed_.wait(lock, [this] { return released_ || broken_; });
    if (broken_) throw IOException("socket closed");
    if (input_.size() == 0) return -1;
    return input_.read(sink, std::min(byteCount, maxRead_));
  }

  void write(Buffer& source, int64_t byteCount) override {
    std::lock_guard lock(mutex_);
    if (broken_) throw IOException("socket closed");
    Buffer written;
    source.read(written, byteCount);
    if (prefix_.size() < kClientPreface.size()) {
      prefix_ += written.readUtf8(
          std::min<int64_t>(written.size(), static_cast<int64_t>(kClientPreface.size())));
    }
    written.clear();
  }

  void flush() override {}
  Timeout& timeout() override { return timeout_; }
  void close() override {}

 private:
  std::mutex mutex_;
  std::condition_variable changed_;
  Buffer input_;
  const int64_t maxRead_;
  bool released_ = false;
  bool broken_ = false;
  std::string prefix_;
  Timeout timeout_;
};

class NullListener final : public internal::Http2Connection::Listener {
 public:
  void onSettings(int maxConcurrentStreams) override { check(maxConcurrentStreams >= 0); }
  void onShutdown() override {}
};

class NullCarrier final : public internal::ExchangeCodec::Carrier {
 public:
  void noNewExchanges() override {}
  void cancel() override {}
};

// Reads the response of the exchange on `codec` to its end (or its failure); cancels the stream
// once the headers came if `cancel`.
void readResponse(internal::Http2ExchangeCodec& codec, const Request& request, int64_t readSize,
                  bool cancel) {
  try {
    std::optional<Response::Builder> builder = codec.readResponseHeaders(false);
    check(builder.has_value());
    Response response = builder->request(request).build();
    // Interim responses come before the final one; a server that sends only those ends with
    // the connection.
    while (internal::isInformational(response.code())) {
      builder = codec.readResponseHeaders(false);
      check(builder.has_value());
      response = builder->request(request).build();
    }
    if (cancel) codec.cancel();
    std::unique_ptr<Source> body = codec.openResponseBodySource(response);
    Buffer sink;
    for (int64_t n; (n = body->read(sink, readSize)) != -1;) {
      check(n >= 0 && n <= readSize);
      sink.clear();
    }
    check(codec.isResponseComplete());
    codec.trailers();  // Must not throw once the body is done.
    body->close();
  } catch (const IOException&) {
    // Expected for most inputs: a reset, a protocol error, the end of the connection.
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0 || size > 256 * 1024) return 0;
  const uint8_t options = data[0];
  const int streamCount = 1 + (options & 3);
  const bool post = (options & 4) != 0;
  const bool settingsFirst = (options & 8) != 0;
  const int64_t readSize = int64_t{1} << (2 * ((options >> 4) & 7));  // 1 .. 16384 bytes.
  const bool cancelLast = (options & 0x80) != 0;

  Buffer input;
  if (settingsFirst) {
    // An empty SETTINGS frame on stream 0: the server's connection preface (RFC 9113 §3.4).
    const uint8_t settings[] = {0, 0, 0, 4, 0, 0, 0, 0, 0};
    input.write(settings, sizeof(settings));
  }
  input.write(data + 1, size - 1);
  FuzzSocket socket(std::move(input), readSize);
  NullListener listener;
  NullCarrier carrier;

  Request::Builder builder;
  builder.url("https://example.com/").header("Host", "example.com");
  if (post) builder.post(RequestBody::create("hello"));
  const Request request = builder.build();
  {
    internal::Http2Connection connection(
        socket, socket, [&socket] { socket.breakSocket(); }, listener,
        *internal::TaskRunner::instance(), "example.com:443", 0ms);
    std::vector<std::unique_ptr<internal::Http2ExchangeCodec>> codecs;
    try {
      connection.start();
      for (int i = 0; i < streamCount; ++i) {
        auto codec = std::make_unique<internal::Http2ExchangeCodec>(carrier, connection,
                                                                    Protocol::HTTP_2, 0ms, 0ms);
        codec->writeRequestHeaders(request);
        if (post) {
          std::unique_ptr<Sink> body = codec->createRequestBody(request, 5);
          Buffer hello;
          hello.writeUtf8("hello");
          body->write(hello, hello.size());
          body->close();
        }
        codec->finishRequest();
        codecs.push_back(std::move(codec));
      }
    } catch (const IOException&) {
      std::abort();  // Nothing the server sent has been read yet: opening streams cannot fail.
    }
    check(socket.writtenPrefix() == kClientPreface);

    socket.release();
    for (size_t i = 0; i < codecs.size(); ++i) {
      readResponse(*codecs[i], request, readSize, cancelLast && i + 1 == codecs.size());
    }
    codecs.clear();  // Resets whatever streams are still open.
    connection.close();
    check(!connection.isHealthy());
  }
  return 0;
}
