// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
//
// WebSockets over HTTP/2 (RFC 8441): tern's client opens a socket as an extended CONNECT stream
// on a pooled HTTP/2 connection whose server announced SETTINGS_ENABLE_CONNECT_PROTOCOL, against
// MockWebServer's HTTP/2 side, over TLS (h2 by ALPN) and cleartext (h2c with prior knowledge).
// Every handshake call's events are checked; where no such connection is pooled, the handshake
// is HTTP/1.1's.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "support/recording_event_listener.h"
#include "support/tls_certificates.h"
#include "support/web_socket_recorder.h"
#include "tern/client.h"
#include "tern/mockwebserver/mock_response.h"
#include "tern/mockwebserver/mock_web_server.h"
#include "tern/web_socket.h"

namespace tern {
namespace {

using namespace std::chrono_literals;
using mockwebserver::MockResponse;
using mockwebserver::MockWebServer;
using mockwebserver::RecordedRequest;
using testing::WebSocketRecorder;

// Echoes every message.
class Echo : public WebSocketListener {
 public:
  void onMessage(WebSocket& socket, const std::string& text) override { socket.send(text); }
  void onMessage(WebSocket& socket, const std::vector<std::byte>& bytes) override {
    socket.send(bytes);
  }
};

std::vector<std::byte> pattern(size_t size, unsigned seed) {
  std::vector<std::byte> result(size);
  for (size_t i = 0; i < size; ++i) result[i] = static_cast<std::byte>((i * 31 + seed) >> 3);
  return result;
}

// true: TLS with ALPN (HTTP/2 or HTTP/1.1); false: h2c with prior knowledge.
class WebSocketHttp2Test : public ::testing::TestWithParam<bool> {
 protected:
  void SetUp() override {
    builder_.connectTimeout(5s).readTimeout(5s).writeTimeout(5s).eventListenerFactory(events_);
    if (tls()) {
      server_.useHttps(certificates_.server());
      builder_.handshakeCertificates(certificates_.clientTrust());
    } else {
      server_.setProtocols({Protocol::H2_PRIOR_KNOWLEDGE});
      builder_.protocols({Protocol::H2_PRIOR_KNOWLEDGE});
    }
    client_ = builder_.build();
  }

  void TearDown() override {
    server_.close();
    for (const auto& listener : events_->listeners()) {
      for (auto deadline = std::chrono::steady_clock::now() + 10s;
           !listener->ended() && std::chrono::steady_clock::now() < deadline;) {
        std::this_thread::sleep_for(5ms);
      }
      EXPECT_TRUE(listener->ended()) << "a call did not end: " << listener->callUrl();
    }
  }

  bool tls() const { return GetParam(); }
  Protocol http2() const { return tls() ? Protocol::HTTP_2 : Protocol::H2_PRIOR_KNOWLEDGE; }

  std::string wsUrl(std::string_view path = "/") {
    std::string url = server_.url(path).toString();
    return (tls() ? "wss" : "ws") + url.substr(url.find(':'));
  }

  // An ordinary GET, which leaves its HTTP/2 connection in the pool. Returns its request.
  RecordedRequest get(std::string_view path) {
    server_.enqueue(MockResponse::Builder().body("plain").build());
    Response response =
        client_.newCall(Request::Builder().url(server_.url(path)).build())->execute();
    EXPECT_EQ(response.body()->string(), "plain");
    EXPECT_EQ(response.protocol(), http2());
    return server_.takeRequest();
  }

  std::shared_ptr<WebSocket> open(std::shared_ptr<WebSocketRecorder> listener,
                                  std::string_view path = "/ws") {
    return client_.newWebSocket(Request::Builder().url(wsUrl(path)).build(), std::move(listener));
  }

  // Opens a socket whose server side reports to serverListener_, both ends open.
  std::shared_ptr<WebSocket> openBothEnds() {
    server_.enqueue(MockResponse::Builder().webSocketUpgrade(serverListener_).build());
    auto socket = open(clientListener_);
    EXPECT_EQ(clientListener_->assertOpen(), http2());
    serverListener_->assertOpen();
    return socket;
  }

  void closeGracefully(WebSocket& client) {
    EXPECT_TRUE(client.close(1000, "bye"));
    serverListener_->assertClosing(1000, "bye");
    clientListener_->assertClosing(1000, "");
    serverListener_->assertClosed(1000, "bye");
    clientListener_->assertClosed(1000, "");
  }

  // The events of the calls made so far, the last one's.
  std::vector<std::string> lastCallEvents() {
    auto& call = *events_->listeners().back();
    for (auto deadline = std::chrono::steady_clock::now() + 10s;
         !call.ended() && std::chrono::steady_clock::now() < deadline;) {
      std::this_thread::sleep_for(5ms);
    }
    return call.eventNames();
  }

  testing::TestCertificates certificates_;
  MockWebServer server_;
  Client::Builder builder_;
  std::shared_ptr<testing::RecordingEventListener::Factory> events_ =
      std::make_shared<testing::RecordingEventListener::Factory>();
  Client client_;
  std::shared_ptr<WebSocketRecorder> clientListener_ =
      std::make_shared<WebSocketRecorder>("client");
  std::shared_ptr<WebSocketRecorder> serverListener_ =
      std::make_shared<WebSocketRecorder>("server");
};

TEST_P(WebSocketHttp2Test, OpensAsAnExtendedConnectStreamOnThePooledConnection) {
  RecordedRequest first = get("/first");
  auto socket = openBothEnds();

  RecordedRequest handshake = server_.takeRequest();
  EXPECT_EQ(handshake.method(), "CONNECT");
  EXPECT_EQ(handshake.path(), "/ws");
  EXPECT_EQ(handshake.headers().get(":protocol"), "websocket");
  EXPECT_EQ(handshake.headers().get("sec-websocket-version"), "13");
  EXPECT_EQ(handshake.headers().get("sec-websocket-extensions"), "permessage-deflate");
  // RFC 8441 §5: no key (the stream proves the handshake), no HTTP/1.1 connection headers.
  EXPECT_FALSE(handshake.headers().get("sec-websocket-key"));
  EXPECT_FALSE(handshake.headers().get("upgrade"));
  EXPECT_FALSE(handshake.headers().get("connection"));
  EXPECT_EQ(handshake.connectionIndex(), first.connectionIndex());

  EXPECT_TRUE(socket->send("Hello over HTTP/2"));
  serverListener_->assertTextMessage("Hello over HTTP/2");
  EXPECT_TRUE(serverListener_->webSocket()->send("and back"));
  clientListener_->assertTextMessage("and back");

  // The connection carries requests while the socket is open.
  EXPECT_EQ(get("/meanwhile").connectionIndex(), first.connectionIndex());
  closeGracefully(*socket);
  EXPECT_EQ(get("/after").connectionIndex(), first.connectionIndex());
  EXPECT_EQ(client_.connectionPool()->connectionCount(), 1);

  // The handshake call reused the connection, and gave it back when the socket closed.
  std::vector<std::string> events = events_->listeners().at(1)->eventNames();
  EXPECT_EQ(std::count(events.begin(), events.end(), "connectStart"), 0)
      << ::testing::PrintToString(events);
  for (const char* name :
       {"connectionAcquired", "requestHeadersEnd", "responseHeadersEnd", "responseBodyStart",
        "responseBodyEnd", "connectionReleased", "callEnd"}) {
    EXPECT_EQ(std::count(events.begin(), events.end(), name), 1)
        << name << " in " << ::testing::PrintToString(events);
  }
}

TEST_P(WebSocketHttp2Test, ManySocketsAndLargeMessagesShareTheConnection) {
  get("/first");
  std::vector<std::shared_ptr<WebSocketRecorder>> listeners;
  std::vector<std::shared_ptr<WebSocket>> sockets;
  for (int i = 0; i < 3; ++i) {
    server_.enqueue(MockResponse::Builder().webSocketUpgrade(std::make_shared<Echo>()).build());
    listeners.push_back(std::make_shared<WebSocketRecorder>("client " + std::to_string(i)));
    sockets.push_back(open(listeners.back()));
    EXPECT_EQ(listeners.back()->assertOpen(), http2());
  }
  // 3 × 5 MiB each way on each socket, 45 MiB in all: beyond every flow-control window (16 MiB),
  // so the streams and the connection must be given more as they go, all at once. (Each
  // socket's queue stays under its 16 MiB limit.)
  std::vector<std::thread> senders;
  for (int i = 0; i < 3; ++i) {
    senders.emplace_back([&, i] {
      for (unsigned m = 0; m < 3; ++m) EXPECT_TRUE(sockets[i]->send(pattern(5 << 20, m + 10 * i)));
    });
  }
  for (std::thread& sender : senders) sender.join();
  for (int i = 0; i < 3; ++i) {
    for (unsigned m = 0; m < 3; ++m)
      listeners[i]->assertBinaryMessage(pattern(5 << 20, m + 10 * i));
  }
  for (int i = 0; i < 3; ++i) {
    EXPECT_TRUE(sockets[i]->close(1000, ""));
    listeners[i]->assertClosing(1000, "");
    listeners[i]->assertClosed(1000, "");
  }
  EXPECT_EQ(client_.connectionPool()->connectionCount(), 1);
}

TEST_P(WebSocketHttp2Test, CompressionIsNegotiatedAsOverHttp1) {
  get("/first");
  server_.enqueue(MockResponse::Builder()
                      .addHeader("Sec-WebSocket-Extensions", "permessage-deflate")
                      .webSocketUpgrade(std::make_shared<Echo>())
                      .build());
  auto socket = open(clientListener_);
  EXPECT_EQ(clientListener_->assertOpen(), http2());
  std::string text(100000, 'z');
  EXPECT_TRUE(socket->send(text));
  clientListener_->assertTextMessage(text);
  EXPECT_TRUE(socket->close(1000, ""));
  clientListener_->assertClosing(1000, "");
  clientListener_->assertClosed(1000, "");
}

TEST_P(WebSocketHttp2Test, ARefusalIsAnyStatusButSuccess) {
  get("/first");
  server_.enqueue(MockResponse::Builder().code(404).body("no sockets here").build());
  auto socket = open(clientListener_);
  clientListener_->assertFailure(404, "Expected HTTP 200 response but was '404'");
  EXPECT_FALSE(socket->send("after the failure"));
  // Only the stream was refused.
  get("/after");
  EXPECT_EQ(client_.connectionPool()->connectionCount(), 1);
}

TEST_P(WebSocketHttp2Test, CancelResetsOnlyTheSocketsStream) {
  int connection = get("/first").connectionIndex();
  auto socket = openBothEnds();
  socket->cancel();
  clientListener_->assertFailure("anceled");
  serverListener_->assertFailure("");
  EXPECT_EQ(get("/after").connectionIndex(), connection);
  EXPECT_TRUE(lastCallEvents().back() == "callEnd");
}

TEST_P(WebSocketHttp2Test, ServerDroppingTheSocketLeavesTheConnection) {
  int connection = get("/first").connectionIndex();
  auto socket = openBothEnds();
  EXPECT_TRUE(socket->send("hello"));
  serverListener_->assertTextMessage("hello");
  serverListener_->webSocket()->cancel();  // RST_STREAM for this stream only.
  clientListener_->assertFailure("");
  clientListener_->assertExhausted();
  EXPECT_EQ(get("/after").connectionIndex(), connection);
}

TEST_P(WebSocketHttp2Test, ServerInitiatedClose) {
  get("/first");
  auto socket = openBothEnds();
  EXPECT_TRUE(serverListener_->webSocket()->close(4000, "server leaves"));
  clientListener_->assertClosing(4000, "server leaves");
  serverListener_->assertClosing(4000, "");  // tern answered for the client's listener.
  clientListener_->assertClosed(4000, "server leaves");
  serverListener_->assertClosed(4000, "");
  EXPECT_FALSE(socket->send("too late"));
  get("/after");
  EXPECT_EQ(client_.connectionPool()->connectionCount(), 1);
}

TEST_P(WebSocketHttp2Test, WithoutAPooledConnectionTheHandshakeIsHttp1) {
  if (!tls()) GTEST_SKIP() << "an h2c-only server has no HTTP/1.1 to upgrade";
  server_.enqueue(MockResponse::Builder().webSocketUpgrade(std::make_shared<Echo>()).build());
  auto socket = open(clientListener_);
  EXPECT_EQ(clientListener_->assertOpen(), Protocol::HTTP_1_1);
  EXPECT_EQ(server_.takeRequest().method(), "GET");
  EXPECT_TRUE(socket->send("over HTTP/1.1"));
  clientListener_->assertTextMessage("over HTTP/1.1");
  EXPECT_TRUE(socket->close(1000, ""));
  clientListener_->assertClosing(1000, "");
  clientListener_->assertClosed(1000, "");
}

TEST_P(WebSocketHttp2Test, ServerThatDoesNotAllowExtendedConnectGetsHttp1) {
  if (!tls()) GTEST_SKIP() << "an h2c-only server has no HTTP/1.1 to upgrade";
  server_.setExtendedConnect(false);
  int connection = get("/first").connectionIndex();
  server_.enqueue(MockResponse::Builder().webSocketUpgrade(std::make_shared<Echo>()).build());
  auto socket = open(clientListener_);
  EXPECT_EQ(clientListener_->assertOpen(), Protocol::HTTP_1_1);
  RecordedRequest handshake = server_.takeRequest();
  EXPECT_EQ(handshake.method(), "GET");
  EXPECT_EQ(handshake.headers().get("Upgrade"), "websocket");
  EXPECT_NE(handshake.connectionIndex(), connection);
  EXPECT_TRUE(socket->send("over HTTP/1.1"));
  clientListener_->assertTextMessage("over HTTP/1.1");
  EXPECT_TRUE(socket->close(1000, ""));
  clientListener_->assertClosing(1000, "");
  clientListener_->assertClosed(1000, "");
}

// Any request with an Upgrade header rides the stream too (docs/websockets.md, "Upgrades of your
// own"); a server that does not allow it gets an ordinary request without the Upgrade.
TEST_P(WebSocketHttp2Test, AnUpgradeOfYourOwnWithoutTheServersConsentIsAnOrdinaryRequest) {
  server_.setExtendedConnect(false);
  get("/first");
  server_.enqueue(MockResponse::Builder().body("ordinary").build());
  Response response = client_
                          .newCall(Request::Builder()
                                       .url(server_.url("/raw"))
                                       .header("Connection", "Upgrade")
                                       .header("Upgrade", "my-protocol")
                                       .build())
                          ->execute();
  EXPECT_EQ(response.code(), 200);
  EXPECT_FALSE(response.socket());
  EXPECT_EQ(response.body()->string(), "ordinary");
  RecordedRequest request = server_.takeRequest();
  EXPECT_EQ(request.method(), "GET");
  EXPECT_FALSE(request.headers().get(":protocol"));
  EXPECT_FALSE(request.headers().get("upgrade"));
}

INSTANTIATE_TEST_SUITE_P(Transports, WebSocketHttp2Test, ::testing::Values(true, false),
                         [](const ::testing::TestParamInfo<bool>& info) {
                           return info.param ? std::string("H2") : std::string("H2c");
                         });

}  // namespace
}  // namespace tern
