// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#include "web_socket_server.h"

#include <chrono>
#include <memory>
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
// closes the socket once the WebSocket is done.
class ServerUpgradedSocket final : public UpgradedSocket {
 public:
  ServerUpgradedSocket(ConnectionSocket& socket, BufferedSource& source, BufferedSink& sink)
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
  webSocket->loopReader();
  // Reading is over; let the close handshake (or the failure) finish before the connection
  // closes the socket.
  webSocket->awaitTermination(options.closeTimeout);
}

}  // namespace tern::mockwebserver::internal
