// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
// WebSockets in the fault matrix: every MockWebServer SocketPolicy that can hit a WebSocket's
// handshake × {ws, wss}, and faults after the socket opened (the server drops the connection,
// half-closes it, or the server shuts down). In every cell the listener hears exactly one final
// callback (onFailure, well inside the test's wait: nothing hangs), the handshake call ends, no
// file descriptor leaks, and the next WebSocket to the same server opens and echoes.
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

// Over ws:// or wss:// (set tls_ before SetUp()).
class WebSocketFaultsBase {
 protected:
  void setUp() {
    builder_.connectTimeout(2s).readTimeout(500ms).writeTimeout(2s).eventListenerFactory(events_);
    if (tls()) {
      server_.useHttps(certificates_.server());
      builder_.handshakeCertificates(certificates_.clientTrust());
    }
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

  bool tls() const { return tls_; }

  std::shared_ptr<WebSocket> open(const std::shared_ptr<WebSocketRecorder>& listener) {
    return builder_.build().newWebSocket(Request::Builder().url(server_.url("/")).build(),
                                         listener);
  }

  // The next socket to the same server opens and echoes, and then closes cleanly.
  void assertNextSocketWorks() {
    server_.enqueue(MockResponse::Builder().webSocketUpgrade(std::make_shared<Echo>()).build());
    auto listener = std::make_shared<WebSocketRecorder>("next client");
    auto socket = open(listener);
    listener->assertOpen();
    EXPECT_TRUE(socket->send("still works"));
    listener->assertTextMessage("still works");
    EXPECT_TRUE(socket->close(1000, ""));
    listener->assertClosing(1000, "");
    listener->assertClosed(1000, "");
  }

  TestCertificates certificates_;
  MockWebServer server_;
  Client::Builder builder_;
  std::shared_ptr<RecordingEventListener::Factory> events_ =
      std::make_shared<RecordingEventListener::Factory>();
  int fdBaseline_ = -1;
  bool tls_ = false;
};

class WebSocketFaultsTest : public ::testing::TestWithParam<std::tuple<Fault, bool>>,
                            protected WebSocketFaultsBase {
 protected:
  void SetUp() override {
    tls_ = std::get<1>(GetParam());
    if (fault().httpsOnly && !tls_) GTEST_SKIP() << "only a TLS server has a handshake to fail";
    setUp();
  }
  void TearDown() override { tearDown(); }
  const Fault& fault() const { return std::get<0>(GetParam()); }
};

class WebSocketOpenFaultsTest : public ::testing::TestWithParam<bool>,
                                protected WebSocketFaultsBase {
 protected:
  void SetUp() override {
    tls_ = GetParam();
    setUp();
  }
  void TearDown() override { tearDown(); }
};

TEST_P(WebSocketFaultsTest, HandshakeFaultFailsTheSocketOnce) {
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
  EXPECT_TRUE(fileDescriptorsReturnTo(fdBaseline_ + 2))  // The server's listening socket may grow.
      << openFileDescriptorCount() << " descriptors open, " << fdBaseline_ << " before";
}

INSTANTIATE_TEST_SUITE_P(Matrix, WebSocketFaultsTest,
                         ::testing::Combine(::testing::ValuesIn(handshakeFaults()),
                                            ::testing::Bool()),
                         [](const ::testing::TestParamInfo<std::tuple<Fault, bool>>& info) {
                           return std::get<0>(info.param).name +
                                  (std::get<1>(info.param) ? "Wss" : "Ws");
                         });

INSTANTIATE_TEST_SUITE_P(Transports, WebSocketOpenFaultsTest, ::testing::Bool(),
                         [](const ::testing::TestParamInfo<bool>& info) {
                           return std::string(info.param ? "Wss" : "Ws");
                         });

}  // namespace
}  // namespace tern::testing
