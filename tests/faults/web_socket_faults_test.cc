// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
// WebSockets in the fault matrix: every MockWebServer SocketPolicy that can hit a WebSocket's
// handshake × {ws, wss, and over HTTP/2 (RFC 8441) h2 and h2c}, and faults after the socket
// opened (the server drops it). In every cell the listener hears exactly one final callback
// (onFailure, well inside the test's wait: nothing hangs), the handshake call ends, no file
// descriptor leaks, and the next WebSocket to the same server opens and echoes. Over HTTP/2 the
// socket is a stream of a pooled connection, so the faults are the ones a stream meets: the
// connection dropped or half-closed after the request, no answer, the stream reset.
#include <gtest/gtest.h>

#include <chrono>
#include <memory>
#include <string>
#include <thread>
#include <tuple>
#include <vector>

#include "support/fd_count.h"
#include "support/recording_event_listener.h"
#include "support/tls_certificates.h"
#include "support/web_socket_recorder.h"
#include "tern/client.h"
#include "tern/mockwebserver/mock_response.h"
#include "tern/mockwebserver/mock_web_server.h"
#include "tern/web_socket.h"

namespace tern::testing {
namespace {

using namespace std::chrono_literals;
using mockwebserver::MockResponse;
using mockwebserver::MockWebServer;
using mockwebserver::SocketPolicy;

// Echoes text messages.
class Echo : public WebSocketListener {
 public:
  void onMessage(WebSocket& socket, const std::string& text) override { socket.send(text); }
};

struct Fault {
  std::string name;
  SocketPolicy policy;
  bool httpsOnly = false;
};

std::vector<Fault> handshakeFaults() {
  return {
      {"DisconnectAtStart", SocketPolicy::DisconnectAtStart{}},
      {"DisconnectAfterRequest", SocketPolicy::DisconnectAfterRequest{}},
      {"HalfCloseAfterRequest", SocketPolicy::HalfCloseAfterRequest{}},
      {"NoResponse", SocketPolicy::NoResponse{}},
      {"StallSocketAtStart", SocketPolicy::StallSocketAtStart{}},
      {"FailHandshake", SocketPolicy::FailHandshake{}, true},
  };
}

// What a WebSocket's extended CONNECT stream can meet on a pooled HTTP/2 connection.
std::vector<Fault> http2HandshakeFaults() {
  return {
      {"DisconnectAfterRequest", SocketPolicy::DisconnectAfterRequest{}},
      {"HalfCloseAfterRequest", SocketPolicy::HalfCloseAfterRequest{}},
      {"NoResponse", SocketPolicy::NoResponse{}},
      {"ResetStreamAtStart", SocketPolicy::ResetStreamAtStart{7}},  // REFUSED_STREAM.
  };
}

enum class Transport { kWs, kWss, kH2, kH2c };

std::string transportName(Transport transport) {
  switch (transport) {
    case Transport::kWs:
      return "Ws";
    case Transport::kWss:
      return "Wss";
    case Transport::kH2:
      return "H2";
    case Transport::kH2c:
      return "H2c";
  }
  return "?";
}

// Over ws://, wss://, or a pooled HTTP/2 connection (set transport_ before SetUp()).
class WebSocketFaultsBase {
 protected:
  void setUp() {
    builder_.connectTimeout(2s).readTimeout(500ms).writeTimeout(2s).eventListenerFactory(events_);
    if (tls()) {
      server_.useHttps(certificates_.server());
      builder_.handshakeCertificates(certificates_.clientTrust());
    }
    if (transport_ == Transport::kH2c) {
      server_.setProtocols({Protocol::H2_PRIOR_KNOWLEDGE});
      builder_.protocols({Protocol::H2_PRIOR_KNOWLEDGE});
    }
    // A handshake that failed on a pooled connection (or a refused stream) is retried on a new
    // one, as any call is; that retry would take the next queued response. Each cell is about
    // the one fault.
    if (http2()) builder_.retryOnConnectionFailure(false);
    client_ = builder_.build();
    server_.start();
    fdBaseline_ = openFileDescriptorCount();
  }

  void tearDown() {
    server_.close();
    for (const auto& call : events_->listeners()) {
      for (auto deadline = std::chrono::steady_clock::now() + 5s;
           !call->ended() && std::chrono::steady_clock::now() < deadline;) {
        std::this_thread::sleep_for(5ms);
      }
      EXPECT_TRUE(call->ended()) << "a call did not end: " << call->callUrl();
    }
  }

  bool tls() const { return transport_ == Transport::kWss || transport_ == Transport::kH2; }
  bool http2() const { return transport_ == Transport::kH2 || transport_ == Transport::kH2c; }

  // Over HTTP/2, an ordinary request puts a connection in the pool for the next socket to ride.
  // Call it before enqueueing the socket's response.
  void poolConnection() {
    if (!http2()) return;
    server_.enqueue(MockResponse::Builder().body("pooled").build());
    Response response =
        client_.newCall(Request::Builder().url(server_.url("/pooled")).build())->execute();
    EXPECT_EQ(response.body()->string(), "pooled");
  }

  std::shared_ptr<WebSocket> open(const std::shared_ptr<WebSocketRecorder>& listener) {
    return client_.newWebSocket(Request::Builder().url(server_.url("/")).build(), listener);
  }

  // The next socket to the same server opens and echoes, and then closes cleanly.
  void assertNextSocketWorks() {
    poolConnection();
    server_.enqueue(MockResponse::Builder().webSocketUpgrade(std::make_shared<Echo>()).build());
    auto listener = std::make_shared<WebSocketRecorder>("next client");
    auto socket = open(listener);
    EXPECT_EQ(
        listener->assertOpen(),
        http2() ? (tls() ? Protocol::HTTP_2 : Protocol::H2_PRIOR_KNOWLEDGE) : Protocol::HTTP_1_1);
    EXPECT_TRUE(socket->send("still works"));
    listener->assertTextMessage("still works");
    EXPECT_TRUE(socket->close(1000, ""));
    listener->assertClosing(1000, "");
    listener->assertClosed(1000, "");
  }

  TestCertificates certificates_;
  MockWebServer server_;
  Client::Builder builder_;
  Client client_;
  std::shared_ptr<RecordingEventListener::Factory> events_ =
      std::make_shared<RecordingEventListener::Factory>();
  int fdBaseline_ = -1;
  Transport transport_ = Transport::kWs;
};

class WebSocketFaultsTest : public ::testing::TestWithParam<std::tuple<Fault, Transport>>,
                            protected WebSocketFaultsBase {
 protected:
  void SetUp() override {
    transport_ = std::get<1>(GetParam());
    setUp();
  }
  void TearDown() override { tearDown(); }
  const Fault& fault() const { return std::get<0>(GetParam()); }
};

class WebSocketOpenFaultsTest : public ::testing::TestWithParam<Transport>,
                                protected WebSocketFaultsBase {
 protected:
  void SetUp() override {
    transport_ = GetParam();
    setUp();
  }
  void TearDown() override { tearDown(); }
};

TEST_P(WebSocketFaultsTest, HandshakeFaultFailsTheSocketOnce) {
  poolConnection();
  server_.enqueue(MockResponse::Builder()
                      .webSocketUpgrade(std::make_shared<Echo>())
                      .socketPolicy(fault().policy)
                      .build());
  auto listener = std::make_shared<WebSocketRecorder>("client");
  auto socket = open(listener);
  std::optional<WebSocketRecorder::Event> event = listener->next();
  ASSERT_TRUE(event) << "no callback: the socket hangs";
  EXPECT_EQ(event->kind, WebSocketRecorder::Event::Kind::kFailure) << event->toString();
  EXPECT_FALSE(event->failure.empty());
  listener->assertExhausted();
  EXPECT_FALSE(socket->send("after the failure"));
  socket.reset();
  if (fault().policy.is<SocketPolicy::StallSocketAtStart>()) return;  // Held until close.
  assertNextSocketWorks();
}

TEST_P(WebSocketOpenFaultsTest, ServerDropsAnOpenSocket) {
  // After the handshake the server's side cancels (drops the connection) mid-conversation.
  auto serverListener = std::make_shared<WebSocketRecorder>("server");
  poolConnection();
  server_.enqueue(MockResponse::Builder().webSocketUpgrade(serverListener).build());
  auto listener = std::make_shared<WebSocketRecorder>("client");
  auto socket = open(listener);
  listener->assertOpen();
  serverListener->assertOpen();
  EXPECT_TRUE(socket->send("hello"));
  serverListener->assertTextMessage("hello");
  serverListener->webSocket()->cancel();
  listener->assertFailure("");
  listener->assertExhausted();
  socket.reset();
  assertNextSocketWorks();
  client_.connectionPool()->evictAll();  // The HTTP/2 connection the sockets rode, if any.
  EXPECT_TRUE(fileDescriptorsReturnTo(fdBaseline_ + 2))  // The server's listening socket may grow.
      << openFileDescriptorCount() << " descriptors open, " << fdBaseline_ << " before";
}

std::string cellName(const ::testing::TestParamInfo<std::tuple<Fault, Transport>>& info) {
  return std::get<0>(info.param).name + transportName(std::get<1>(info.param));
}

// Every handshake fault over ws and wss, but a TLS fault over wss only: only a TLS server has a
// handshake to fail.
std::vector<std::tuple<Fault, Transport>> http1Cells() {
  std::vector<std::tuple<Fault, Transport>> cells;
  for (const Fault& fault : handshakeFaults()) {
    if (!fault.httpsOnly) cells.emplace_back(fault, Transport::kWs);
    cells.emplace_back(fault, Transport::kWss);
  }
  return cells;
}

INSTANTIATE_TEST_SUITE_P(Matrix, WebSocketFaultsTest, ::testing::ValuesIn(http1Cells()), cellName);

INSTANTIATE_TEST_SUITE_P(Http2, WebSocketFaultsTest,
                         ::testing::Combine(::testing::ValuesIn(http2HandshakeFaults()),
                                            ::testing::Values(Transport::kH2, Transport::kH2c)),
                         cellName);

INSTANTIATE_TEST_SUITE_P(Transports, WebSocketOpenFaultsTest,
                         ::testing::Values(Transport::kWs, Transport::kWss, Transport::kH2,
                                           Transport::kH2c),
                         [](const ::testing::TestParamInfo<Transport>& info) {
                           return transportName(info.param);
                         });

}  // namespace
}  // namespace tern::testing
