// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#include "web_socket_server.h"

#include <chrono>
#include <condition_variable>
#include <memory>
#include <mutex>
#include <string>
#include <utility>

#include "io/borrowed_streams.h"
#include "tern/buffer.h"
#include "tern/exceptions.h"
#include "tern/request.h"
#include "tern/response.h"
#include "tern/upgraded_socket.h"
#include "tern/web_socket.h"
#include "ws/real_web_socket.h"
#include "ws/web_socket_extensions.h"
#include "ws/web_socket_protocol.h"

namespace tern::mockwebserver::internal {
namespace {

using tern::internal::RealWebSocket;
using tern::internal::WebSocketExtensions;

// An HTTP/1.1 connection's streams after its 101, as an UpgradedSocket. Closing a stream closes
// nothing: the connection closes the socket once the WebSocket is done.
class ConnectionUpgradedSocket final : public UpgradedSocket {
 public:
  ConnectionUpgradedSocket(ConnectionSocket& socket, BufferedSource& source, BufferedSink& sink)
      : socket_(socket),
        source_(source, "MockWebServer WebSocket"),
        sink_(sink, "MockWebServer WebSocket") {}

  Source& source() override { return source_; }
  Sink& sink() override { return sink_; }
  void cancel() override {
    // Wakes a read blocked on the socket (it reads the end of the stream) and ends the output.
    socket_.shutdownInput();
    socket_.shutdownOutput();
  }

 private:
  ConnectionSocket& socket_;
  tern::internal::BorrowedSource source_;
  tern::internal::FlushingSink sink_;
};

// Wraps the UpgradedSocket a WebSocket runs over so that it can be detached from what it refers
// to (a connection, an HTTP/2 stream). The WebSocket may still use it from another thread after
// runWebSocket() returned (a cancel() from a test, a late failure closing the sink), when the
// connection is gone: detach() first waits for every use in progress, and from then on each use
// is refused (reads and writes fail as closed, cancel() does nothing).
class DetachableSocket final : public UpgradedSocket {
 public:
  explicit DetachableSocket(std::unique_ptr<UpgradedSocket> socket)
      : socket_(std::move(socket)), source_(*this), sink_(*this) {}

  Source& source() override { return source_; }
  Sink& sink() override { return sink_; }
  void cancel() override {
    Use use(*this);
    if (use.attached()) socket_->cancel();
  }

  // Waits for the uses in progress (a blocked read or write is woken by cancel()) and refuses
  // every later one.
  void detach() {
    cancel();
    std::unique_lock lock(mutex_);
    detached_ = true;
    idle_.wait(lock, [this] { return users_ == 0; });
  }

 private:
  // One use of the socket, while it is attached; throws IOException once detached (cancel()
  // checks attached() instead).
  class Use {
   public:
    explicit Use(DetachableSocket& owner) : owner_(owner) {
      std::lock_guard lock(owner_.mutex_);
      attached_ = !owner_.detached_;
      if (attached_) ++owner_.users_;
    }
    ~Use() {
      if (!attached_) return;
      std::lock_guard lock(owner_.mutex_);
      if (--owner_.users_ == 0) owner_.idle_.notify_all();
    }
    Use(const Use&) = delete;
    Use& operator=(const Use&) = delete;
    bool attached() const { return attached_; }
    void require() const {
      if (!attached_) throw IOException("MockWebServer: the WebSocket's connection is closed");
    }

   private:
    DetachableSocket& owner_;
    bool attached_ = false;
  };

  // timeout() is not guarded: the engine sets the read timeout once, before it reads.
  class GuardedSource final : public Source {
   public:
    explicit GuardedSource(DetachableSocket& owner) : owner_(owner) {}
    int64_t read(Buffer& sink, int64_t byteCount) override {
      Use use(owner_);
      use.require();
      return owner_.socket_->source().read(sink, byteCount);
    }
    Timeout& timeout() override { return owner_.socket_->source().timeout(); }
    void close() override {
      Use use(owner_);
      if (use.attached()) owner_.socket_->source().close();  // Detached: nothing left to close.
    }

   private:
    DetachableSocket& owner_;
  };

  class GuardedSink final : public Sink {
   public:
    explicit GuardedSink(DetachableSocket& owner) : owner_(owner) {}
    void write(Buffer& source, int64_t byteCount) override {
      Use use(owner_);
      use.require();
      owner_.socket_->sink().write(source, byteCount);
    }
    void flush() override {
      Use use(owner_);
      use.require();
      owner_.socket_->sink().flush();
    }
    Timeout& timeout() override { return owner_.socket_->sink().timeout(); }
    void close() override {
      Use use(owner_);
      use.require();
      owner_.socket_->sink().close();
    }

   private:
    DetachableSocket& owner_;
  };

  const std::unique_ptr<UpgradedSocket> socket_;
  std::mutex mutex_;
  std::condition_variable idle_;
  int users_ = 0;          // Guarded by mutex_.
  bool detached_ = false;  // Guarded by mutex_.
  GuardedSource source_;
  GuardedSink sink_;
};

}  // namespace

void serveWebSocket(ConnectionSocket& socket, BufferedSource& source, BufferedSink& sink,
                    const RecordedRequest& request, const MockResponse& response) {
  // The 101 (RFC 6455 §4.2.2), with the headers the response did not set itself.
  Headers::Builder headers = response.headers().newBuilder();
  if (!response.headers().get("Connection")) headers.add("Connection", "Upgrade");
  if (!response.headers().get("Upgrade")) headers.add("Upgrade", "websocket");
  std::optional<std::string> key = request.headers().get("Sec-WebSocket-Key");
  if (!response.headers().get("Sec-WebSocket-Accept") && key) {
    headers.add("Sec-WebSocket-Accept", tern::internal::ws::acceptHeader(*key));
  }
  Headers written = headers.build();
  sink.writeUtf8(response.status()).writeUtf8("\r\n");
  for (const auto& [name, value] : written) {
    sink.writeUtf8(name).writeUtf8(": ").writeUtf8(value).writeUtf8("\r\n");
  }
  sink.writeUtf8("\r\n");
  sink.flush();

  runWebSocket(std::make_unique<ConnectionUpgradedSocket>(socket, source, sink),
               webSocketHandshake(request, Protocol::HTTP_1_1, 101, "Switching Protocols", written),
               response);
}

Response webSocketHandshake(const RecordedRequest& request, Protocol protocol, int code,
                            std::string message, const Headers& headers) {
  Request::Builder handshake;
  handshake.url(request.url());
  for (const auto& [name, value] : request.headers()) {
    if (!name.starts_with(':')) handshake.addHeader(name, value);  // HTTP/2's pseudo-headers.
  }
  return Response::Builder()
      .request(handshake.build())
      .protocol(protocol)
      .code(code)
      .message(std::move(message))
      .headers(headers)
      .build();
}

void runWebSocket(std::unique_ptr<UpgradedSocket> socket, const Response& opened,
                  const MockResponse& response) {
  RealWebSocket::Options options;
  options.isClient = false;
  auto webSocket =
      std::make_shared<RealWebSocket>(opened.request(), response.webSocketListener(), options);
  auto detachable = std::make_shared<DetachableSocket>(std::move(socket));
  webSocket->initReaderAndWriter("MockWebServer", detachable,
                                 WebSocketExtensions::parse(opened.headers()));
  webSocket->deliverOpen(opened);
  webSocket->loopReader();  // Returns once the socket closed or failed.
  detachable->detach();     // The caller frees what the socket refers to next.
}

}  // namespace tern::mockwebserver::internal
