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

// The connection's streams as an UpgradedSocket. Closing a stream closes nothing: the connection
// closes the socket once the WebSocket is done. The WebSocket may still use this object from
// another thread after that (a cancel() from a test, a late failure closing the sink), when the
// connection is gone: detach() first waits for every use in progress, and from then on each
// use is refused (reads and writes fail as closed, cancel() does nothing), so nothing touches the
// connection after serveWebSocket() returns.
class ServerUpgradedSocket final : public UpgradedSocket {
 public:
  ServerUpgradedSocket(ConnectionSocket& socket, BufferedSource& source, BufferedSink& sink)
      : socket_(socket), source_(*this, source), sink_(*this, sink) {}

  Source& source() override { return source_; }
  Sink& sink() override { return sink_; }
  void cancel() override {
    Use use(*this);
    if (!use.attached()) return;
    // Wakes a read blocked on the socket (it reads the end of the stream) and ends the output.
    socket_.shutdownInput();
    socket_.shutdownOutput();
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
  // One use of the connection, while it is attached; throws IOException once detached (cancel()
  // checks attached() instead).
  class Use {
   public:
    explicit Use(ServerUpgradedSocket& owner) : owner_(owner) {
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
    ServerUpgradedSocket& owner_;
    bool attached_ = false;
  };

  class GuardedSource final : public Source {
   public:
    GuardedSource(ServerUpgradedSocket& owner, BufferedSource& source)
        : owner_(owner), source_(source, "MockWebServer WebSocket") {}
    int64_t read(Buffer& sink, int64_t byteCount) override {
      Use use(owner_);
      use.require();
      return source_.read(sink, byteCount);
    }
    Timeout& timeout() override { return source_.timeout(); }
    void close() override { source_.close(); }

   private:
    ServerUpgradedSocket& owner_;
    tern::internal::BorrowedSource source_;
  };

  class GuardedSink final : public Sink {
   public:
    GuardedSink(ServerUpgradedSocket& owner, BufferedSink& sink)
        : owner_(owner), sink_(sink, "MockWebServer WebSocket") {}
    void write(Buffer& source, int64_t byteCount) override {
      Use use(owner_);
      use.require();
      sink_.write(source, byteCount);
    }
    void flush() override {
      Use use(owner_);
      use.require();
      sink_.flush();
    }
    Timeout& timeout() override { return sink_.timeout(); }
    void close() override {
      Use use(owner_);
      use.require();
      sink_.close();
    }

   private:
    ServerUpgradedSocket& owner_;
    tern::internal::FlushingSink sink_;
  };

  ConnectionSocket& socket_;
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

  Request::Builder handshake;
  handshake.url(request.url());
  for (const auto& [name, value] : request.headers()) handshake.addHeader(name, value);
  Response opened = Response::Builder()
                        .request(handshake.build())
                        .protocol(Protocol::HTTP_1_1)
                        .code(101)
                        .message("Switching Protocols")
                        .headers(written)
                        .build();

  RealWebSocket::Options options;
  options.isClient = false;
  auto webSocket =
      std::make_shared<RealWebSocket>(opened.request(), response.webSocketListener(), options);
  auto upgraded = std::make_shared<ServerUpgradedSocket>(socket, source, sink);
  webSocket->initReaderAndWriter("MockWebServer", upgraded, WebSocketExtensions::parse(written));
  webSocket->deliverOpen(opened);
  webSocket->loopReader();  // Returns once the socket closed or failed.
  upgraded->detach();       // The connection is closed next: nothing may use it after this.
}

}  // namespace tern::mockwebserver::internal
