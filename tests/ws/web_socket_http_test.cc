// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
//
// WebSockets end to end, in the spirit of OkHttp's WebSocketHttpTest: tern's client against
// MockWebServer's server side (tern's engine in server mode), over ws:// and wss://, with every
// handshake call's events checked. Hostile servers (wrong handshakes, unanswered pings and
// closes, bad frames) are RawPeers that speak bytes directly.
#include <gtest/gtest.h>

#include <chrono>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "support/raw_peer.h"
#include "support/recording_event_listener.h"
#include "support/tls_certificates.h"
#include "support/web_socket_recorder.h"
#include "tern/client.h"
#include "tern/mockwebserver/mock_response.h"
#include "tern/mockwebserver/mock_web_server.h"
#include "tern/web_socket.h"
#include "ws/real_web_socket.h"
#include "ws/web_socket_protocol.h"

namespace tern {
namespace {

using namespace std::chrono_literals;
using mockwebserver::MockResponse;
using mockwebserver::MockWebServer;
using testing::WebSocketRecorder;

std::vector<std::byte> bytesOf(std::string_view s) {
  std::vector<std::byte> result(s.size());
  for (size_t i = 0; i < s.size(); ++i) result[i] = static_cast<std::byte>(s[i]);
  return result;
}

class WebSocketHttpTest : public ::testing::TestWithParam<bool> {
 protected:
  WebSocketHttpTest() {
    builder_.connectTimeout(5s).readTimeout(5s).writeTimeout(5s).eventListenerFactory(events_);
    if (tls()) {
      server_.useHttps(certificates_.server());
      builder_.handshakeCertificates(certificates_.clientTrust());
    }
  }

  ~WebSocketHttpTest() override {
    server_.close();
    // Every handshake call ends once its socket is closed (by the socket's threads, soon after
    // its final callback).
    for (const auto& listener : events_->listeners()) {
      awaitEnded(*listener);
      EXPECT_TRUE(listener->ended()) << "a call did not end: " << listener->callUrl();
    }
  }

  static void awaitEnded(const testing::RecordingEventListener& call) {
    auto deadline = std::chrono::steady_clock::now() + 10s;
    while (!call.ended() && std::chrono::steady_clock::now() < deadline) {
      std::this_thread::sleep_for(5ms);
    }
  }

  bool tls() const { return GetParam(); }

  Client client() { return builder_.build(); }

  std::string wsUrl(std::string_view path = "/") {
    std::string url = server_.url(path).toString();
    return (tls() ? "wss" : "ws") + url.substr(url.find(':'));
  }

  std::shared_ptr<WebSocket> newWebSocket(const Client& client) {
    return client.newWebSocket(Request::Builder().url(wsUrl()).build(), clientListener_);
  }

  std::shared_ptr<WebSocket> newWebSocket() { return newWebSocket(client()); }

  // Enqueues an upgrade whose server side reports to serverListener_.
  void enqueueUpgrade() {
    server_.enqueue(MockResponse::Builder().webSocketUpgrade(serverListener_).build());
  }

  // Opens a socket into `client` and waits for both ends to be open.
  void openBothEnds(std::shared_ptr<WebSocket>& client) {
    enqueueUpgrade();
    client = newWebSocket();
    clientListener_->assertOpen();
    serverListener_->assertOpen();
  }

  WebSocket& serverSocket() { return *serverListener_->webSocket(); }

  // Closes both ends gracefully from the client.
  void closeGracefully(WebSocket& client) {
    EXPECT_TRUE(client.close(1000, "bye"));
    serverListener_->assertClosing(1000, "bye");
    clientListener_->assertClosing(1000, "");
    serverListener_->assertClosed(1000, "bye");
    clientListener_->assertClosed(1000, "");
  }

  testing::TestCertificates certificates_;
  MockWebServer server_;
  Client::Builder builder_;
  std::shared_ptr<testing::RecordingEventListener::Factory> events_ =
      std::make_shared<testing::RecordingEventListener::Factory>();
  std::shared_ptr<WebSocketRecorder> clientListener_ =
      std::make_shared<WebSocketRecorder>("client");
  std::shared_ptr<WebSocketRecorder> serverListener_ =
      std::make_shared<WebSocketRecorder>("server");
};

TEST_P(WebSocketHttpTest, TextAndBinaryMessagesBothWays) {
  std::shared_ptr<WebSocket> webSocket;
  openBothEnds(webSocket);

  EXPECT_TRUE(webSocket->send("Hello, WebSockets!"));
  serverListener_->assertTextMessage("Hello, WebSockets!");
  EXPECT_TRUE(webSocket->send(bytesOf("\x01\x02\x03")));
  serverListener_->assertBinaryMessage(bytesOf("\x01\x02\x03"));

  EXPECT_TRUE(serverSocket().send("from the server"));
  clientListener_->assertTextMessage("from the server");
  EXPECT_TRUE(serverSocket().send(bytesOf(std::string("\0\xff", 2))));
  clientListener_->assertBinaryMessage(bytesOf(std::string("\0\xff", 2)));

  closeGracefully(*webSocket);
  clientListener_->assertExhausted();
  // Every listener call of a socket comes on one thread: its reader's.
  EXPECT_EQ(clientListener_->threads().size(), 1u);
  EXPECT_FALSE(clientListener_->threads().contains(std::this_thread::get_id()));
}

TEST_P(WebSocketHttpTest, HandshakeRequestCarriesTheProtocolHeaders) {
  std::shared_ptr<WebSocket> webSocket;
  openBothEnds(webSocket);
  mockwebserver::RecordedRequest request = server_.takeRequest();
  EXPECT_EQ(request.method(), "GET");
  EXPECT_EQ(request.headers().get("Upgrade"), "websocket");
  EXPECT_EQ(request.headers().get("Connection"), "Upgrade");
  EXPECT_EQ(request.headers().get("Sec-WebSocket-Version"), "13");
  EXPECT_EQ(request.headers().get("Sec-WebSocket-Extensions"), "permessage-deflate");
  std::optional<std::string> key = request.headers().get("Sec-WebSocket-Key");
  ASSERT_TRUE(key);
  EXPECT_EQ(key->size(), 24u);  // base64 of 16 bytes.
  closeGracefully(*webSocket);
}

TEST_P(WebSocketHttpTest, ManyMessagesArriveInOrder) {
  std::shared_ptr<WebSocket> webSocket;
  openBothEnds(webSocket);
  for (int i = 0; i < 200; ++i) EXPECT_TRUE(webSocket->send("message " + std::to_string(i)));
  for (int i = 0; i < 200; ++i) serverListener_->assertTextMessage("message " + std::to_string(i));
  closeGracefully(*webSocket);
}

TEST_P(WebSocketHttpTest, LargeMessagesCompressedAndNot) {
  server_.enqueue(MockResponse::Builder()
                      .webSocketUpgrade(serverListener_)
                      .addHeader("Sec-WebSocket-Extensions", "permessage-deflate")
                      .build());
  std::shared_ptr<WebSocket> webSocket = newWebSocket();
  clientListener_->assertOpen();
  serverListener_->assertOpen();
  std::string big(1 << 20, 'a');
  for (size_t i = 0; i < big.size(); i += 7) big[i] = static_cast<char>('a' + i % 26);
  EXPECT_TRUE(webSocket->send(big));
  serverListener_->assertTextMessage(big);
  EXPECT_TRUE(serverSocket().send(big));
  clientListener_->assertTextMessage(big);
  EXPECT_TRUE(webSocket->send("small"));  // Under minWebSocketMessageToCompress: plain.
  serverListener_->assertTextMessage("small");
  closeGracefully(*webSocket);
}

TEST_P(WebSocketHttpTest, ServerClosesAndClientAnswersWithTheSameCode) {
  std::shared_ptr<WebSocket> webSocket;
  openBothEnds(webSocket);
  EXPECT_TRUE(serverSocket().close(1001, "going away"));
  clientListener_->assertClosing(1001, "going away");
  serverListener_->assertClosing(1001, "");  // tern answered for the listener.
  clientListener_->assertClosed(1001, "going away");
  serverListener_->assertClosed(1001, "");
  EXPECT_FALSE(webSocket->send("too late"));
}

TEST_P(WebSocketHttpTest, ListenerMayCloseInOnClosing) {
  std::shared_ptr<WebSocket> webSocket;
  openBothEnds(webSocket);
  clientListener_->setNextEventDelegate(
      [](WebSocket& socket) { EXPECT_TRUE(socket.close(4000, "my answer")); });
  EXPECT_TRUE(serverSocket().close(1000, "done"));
  clientListener_->assertClosing(1000, "done");
  serverListener_->assertClosing(4000, "my answer");
  clientListener_->assertClosed(1000, "done");
  serverListener_->assertClosed(4000, "my answer");
}

TEST_P(WebSocketHttpTest, SocketDroppedByItsOwnerStillFinishesItsCloseHandshake) {
  std::shared_ptr<WebSocket> webSocket;
  openBothEnds(webSocket);
  EXPECT_TRUE(webSocket->send("last words"));
  EXPECT_TRUE(webSocket->close(1000, "bye"));
  webSocket.reset();  // The application lets go; the socket's threads keep it until it is done.
  serverListener_->assertTextMessage("last words");
  serverListener_->assertClosing(1000, "bye");
  clientListener_->assertClosing(1000, "");
  serverListener_->assertClosed(1000, "bye");
  clientListener_->assertClosed(1000, "");
}

TEST_P(WebSocketHttpTest, SocketDroppedWhenTheServerClosesStillAnswers) {
  std::shared_ptr<WebSocket> webSocket;
  openBothEnds(webSocket);
  webSocket.reset();
  EXPECT_TRUE(serverSocket().close(1001, "restarting"));
  clientListener_->assertClosing(1001, "restarting");
  serverListener_->assertClosing(1001, "");
  clientListener_->assertClosed(1001, "restarting");
  serverListener_->assertClosed(1001, "");
}

TEST_P(WebSocketHttpTest, SendAndCloseAfterCloseReturnFalse) {
  std::shared_ptr<WebSocket> webSocket;
  openBothEnds(webSocket);
  EXPECT_TRUE(webSocket->close(1000, ""));
  EXPECT_FALSE(webSocket->close(1000, ""));
  EXPECT_FALSE(webSocket->send("after close"));
  serverListener_->assertClosing(1000, "");
  clientListener_->assertClosing(1000, "");
  serverListener_->assertClosed(1000, "");
  clientListener_->assertClosed(1000, "");
}

TEST_P(WebSocketHttpTest, MessagesQueuedBeforeOpenAreSentInOrder) {
  enqueueUpgrade();
  std::shared_ptr<WebSocket> webSocket = newWebSocket();
  EXPECT_TRUE(webSocket->send("first"));
  EXPECT_TRUE(webSocket->send("second"));
  clientListener_->assertOpen();
  serverListener_->assertOpen();
  serverListener_->assertTextMessage("first");
  serverListener_->assertTextMessage("second");
  closeGracefully(*webSocket);
}

TEST_P(WebSocketHttpTest, CloseArgumentsAreValidated) {
  std::shared_ptr<WebSocket> webSocket;
  openBothEnds(webSocket);
  try {
    webSocket->close(999, "");
    ADD_FAILURE() << "no exception";
  } catch (const std::invalid_argument& e) {
    EXPECT_STREQ(e.what(), "Code must be in range [1000,5000): 999");
  }
  EXPECT_THROW(webSocket->close(1005, ""), std::invalid_argument);
  try {
    webSocket->close(1000, std::string(124, 'x'));
    ADD_FAILURE() << "no exception";
  } catch (const std::invalid_argument& e) {
    EXPECT_STREQ(e.what(), "reason.size() > 123: 124");
  }
  closeGracefully(*webSocket);  // Still usable.
}

TEST_P(WebSocketHttpTest, CancelFailsBothEnds) {
  std::shared_ptr<WebSocket> webSocket;
  openBothEnds(webSocket);
  webSocket->cancel();
  std::optional<WebSocketRecorder::Event> failure = clientListener_->next();
  ASSERT_TRUE(failure);
  ASSERT_EQ(failure->kind, WebSocketRecorder::Event::Kind::kFailure);
  EXPECT_TRUE(failure->failureIsInterrupted) << failure->failure;
  EXPECT_EQ(failure->failure, "canceled");
  serverListener_->assertFailure("");  // The connection ended under it.
  webSocket->cancel();                 // Idempotent.
  EXPECT_FALSE(webSocket->send("after cancel"));
  clientListener_->assertExhausted();
  // onFailure for a cancel() from this thread still comes on the socket's reader thread.
  EXPECT_EQ(clientListener_->threads().size(), 1u);
  EXPECT_FALSE(clientListener_->threads().contains(std::this_thread::get_id()));
}

TEST_P(WebSocketHttpTest, CancelBeforeTheHandshakeEnds) {
  server_.enqueue(
      MockResponse::Builder().socketPolicy(mockwebserver::SocketPolicy::NoResponse()).build());
  std::shared_ptr<WebSocket> webSocket = newWebSocket();
  server_.takeRequest();
  webSocket->cancel();
  clientListener_->assertFailure("anceled");
}

TEST_P(WebSocketHttpTest, QueueLimitRefusesAndCloses) {
  server_.enqueue(
      MockResponse::Builder().socketPolicy(mockwebserver::SocketPolicy::NoResponse()).build());
  std::shared_ptr<WebSocket> webSocket = newWebSocket();
  std::string tenMiB(10 << 20, 'x');
  EXPECT_TRUE(webSocket->send(tenMiB));
  EXPECT_EQ(webSocket->queueSize(), 10 << 20);
  EXPECT_FALSE(webSocket->send(tenMiB));   // Would pass 16 MiB: refused, and a close queued.
  EXPECT_FALSE(webSocket->send("small"));  // Closing now.
  webSocket->cancel();
  clientListener_->assertFailure("canceled");
}

TEST_P(WebSocketHttpTest, HandshakeRefusedWithAResponse) {
  server_.enqueue(MockResponse(403, Headers::of("Content-Type", "text/plain"), "go away"));
  std::shared_ptr<WebSocket> webSocket = newWebSocket();
  std::optional<WebSocketRecorder::Event> failure = clientListener_->next();
  ASSERT_TRUE(failure);
  ASSERT_EQ(failure->kind, WebSocketRecorder::Event::Kind::kFailure);
  EXPECT_EQ(failure->failure, "Expected HTTP 101 response but was '403 Client Error'");
  EXPECT_EQ(failure->responseCode, std::optional<int>(403));
  EXPECT_EQ(failure->responseBody, "go away");
}

TEST_P(WebSocketHttpTest, WrongAcceptHeaderFails) {
  server_.enqueue(MockResponse::Builder()
                      .webSocketUpgrade(serverListener_)
                      .setHeader("Sec-WebSocket-Accept", "wrong")
                      .build());
  newWebSocket();
  clientListener_->assertFailure(101, "Expected 'Sec-WebSocket-Accept' header value '");
}

TEST_P(WebSocketHttpTest, WrongConnectionHeaderFails) {
  server_.enqueue(MockResponse::Builder()
                      .webSocketUpgrade(serverListener_)
                      .setHeader("Connection", "keep-alive")
                      .build());
  newWebSocket();
  clientListener_->assertFailure(
      101, "Expected 'Connection' header value 'Upgrade' but was 'keep-alive'");
}

TEST_P(WebSocketHttpTest, WrongUpgradeHeaderFails) {
  server_.enqueue(MockResponse::Builder()
                      .webSocketUpgrade(serverListener_)
                      .setHeader("Upgrade", "h2c")
                      .build());
  newWebSocket();
  clientListener_->assertFailure(101, "Expected 'Upgrade' header value 'websocket' but was 'h2c'");
}

TEST_P(WebSocketHttpTest, SubprotocolNotOfferedFails) {
  server_.enqueue(MockResponse::Builder()
                      .webSocketUpgrade(serverListener_)
                      .setHeader("Sec-WebSocket-Protocol", "mqtt")
                      .build());
  client().newWebSocket(
      Request::Builder().url(wsUrl()).header("Sec-WebSocket-Protocol", "chat, superchat").build(),
      clientListener_);
  clientListener_->assertFailure(101, "Server chose subprotocol 'mqtt', which was not offered");
}

TEST_P(WebSocketHttpTest, SubprotocolOfferedIsAccepted) {
  server_.enqueue(MockResponse::Builder()
                      .webSocketUpgrade(serverListener_)
                      .setHeader("Sec-WebSocket-Protocol", "superchat")
                      .build());
  std::shared_ptr<WebSocket> webSocket = client().newWebSocket(
      Request::Builder().url(wsUrl()).header("Sec-WebSocket-Protocol", "chat, superchat").build(),
      clientListener_);
  clientListener_->assertOpen();
  serverListener_->assertOpen();
  closeGracefully(*webSocket);
}

TEST_P(WebSocketHttpTest, ExtensionNotOfferedFailsWith1010) {
  builder_.webSocketCompression(false);
  server_.enqueue(MockResponse::Builder()
                      .webSocketUpgrade(serverListener_)
                      .addHeader("Sec-WebSocket-Extensions", "permessage-deflate")
                      .build());
  newWebSocket();
  clientListener_->assertFailure(101, "an extension that was not offered: permessage-deflate");
  EXPECT_FALSE(server_.takeRequest().headers().get("Sec-WebSocket-Extensions"));
  serverListener_->assertOpen();
  serverListener_->assertClosing(
      1010, "Server answered with an extension that was not offered: permessage-deflate");
}

TEST_P(WebSocketHttpTest, UnacceptableExtensionParametersFailWith1010) {
  for (const char* answer : {"permessage-deflate; server_max_window_bits=7",
                             "permessage-deflate; client_max_window_bits=10",
                             "permessage-deflate; unknown_parameter", "x-webkit-deflate-frame"}) {
    SCOPED_TRACE(answer);
    auto serverListener = std::make_shared<WebSocketRecorder>("server");
    auto clientListener = std::make_shared<WebSocketRecorder>("client");
    server_.enqueue(MockResponse::Builder()
                        .webSocketUpgrade(serverListener)
                        .addHeader("Sec-WebSocket-Extensions", answer)
                        .build());
    client().newWebSocket(Request::Builder().url(wsUrl()).build(), clientListener);
    std::optional<WebSocketRecorder::Event> failure = clientListener->next();
    ASSERT_TRUE(failure);
    EXPECT_EQ(failure->kind, WebSocketRecorder::Event::Kind::kFailure) << failure->toString();
    EXPECT_EQ(failure->responseCode, std::optional<int>(101));
    serverListener->assertOpen();
    std::optional<WebSocketRecorder::Event> closing = serverListener->next();
    ASSERT_TRUE(closing);
    // Parameters the server cannot use with its own engine fail it too, before any frame.
    if (closing->kind == WebSocketRecorder::Event::Kind::kClosing) {
      EXPECT_EQ(closing->code, 1010);
    }
  }
}

TEST_P(WebSocketHttpTest, RequestHeadersOfTheHandshakeAreRefused) {
  for (const char* name :
       {"Sec-WebSocket-Extensions", "Sec-WebSocket-Key", "Sec-WebSocket-Version"}) {
    try {
      client().newWebSocket(Request::Builder().url(wsUrl()).header(name, "x").build(),
                            clientListener_);
      ADD_FAILURE() << name;
    } catch (const std::invalid_argument& e) {
      EXPECT_EQ(std::string(e.what()), std::string("Request header not permitted: '") + name + "'");
    }
  }
  EXPECT_THROW(client().newWebSocket(Request::Builder().url(wsUrl()).build(), nullptr),
               std::invalid_argument);
}

TEST_P(WebSocketHttpTest, MessageTooBigClosesWith1009) {
  builder_.maxWebSocketMessageSize(1024);
  std::shared_ptr<WebSocket> webSocket;
  openBothEnds(webSocket);
  EXPECT_TRUE(serverSocket().send(std::string(1025, 'x')));
  std::optional<WebSocketRecorder::Event> failure = clientListener_->next();
  ASSERT_TRUE(failure);
  ASSERT_EQ(failure->kind, WebSocketRecorder::Event::Kind::kFailure) << failure->toString();
  EXPECT_NE(failure->failure.find("1024"), std::string::npos) << failure->failure;
  // The server hears why, in the close frame's reason.
  serverListener_->assertClosing(1009, failure->failure);
}

TEST_P(WebSocketHttpTest, SendingInvalidUtf8IsRefused) {
  std::shared_ptr<WebSocket> webSocket;
  openBothEnds(webSocket);
  EXPECT_THROW(webSocket->send(std::string_view("\xc3\x28", 2)), std::invalid_argument);
  closeGracefully(*webSocket);
}

TEST_P(WebSocketHttpTest, ListenerThatThrowsFailsTheSocket) {
  std::shared_ptr<WebSocket> webSocket;
  openBothEnds(webSocket);
  clientListener_->setNextEventDelegate(
      [](WebSocket&) { throw std::runtime_error("the application broke"); });
  EXPECT_TRUE(serverSocket().send("boom"));
  clientListener_->assertTextMessage("boom");
  clientListener_->assertFailure("WebSocketListener threw: the application broke");
}

TEST_P(WebSocketHttpTest, PingsAreAnswered) {
  builder_.pingInterval(50ms);
  std::shared_ptr<WebSocket> webSocket;
  openBothEnds(webSocket);
  auto* real = dynamic_cast<internal::RealWebSocket*>(webSocket.get());
  ASSERT_NE(real, nullptr);
  auto deadline = std::chrono::steady_clock::now() + 10s;
  while (real->receivedPongCount() < 3 && std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(10ms);
  }
  EXPECT_GE(real->receivedPongCount(), 3);
  EXPECT_GE(real->sentPingCount(), real->receivedPongCount());
  closeGracefully(*webSocket);
}

TEST_P(WebSocketHttpTest, CallEndsWhenTheSocketCloses) {
  std::shared_ptr<WebSocket> webSocket;
  openBothEnds(webSocket);
  ASSERT_EQ(events_->listeners().size(), 1u);
  auto& call = *events_->listeners().at(0);
  EXPECT_FALSE(call.ended());  // The socket is the call's, until it closes.
  EXPECT_TRUE(call.find("responseHeadersEnd"));
  closeGracefully(*webSocket);
  awaitEnded(call);
  EXPECT_TRUE(call.ended());
  EXPECT_TRUE(call.find("callEnd")) << ::testing::PrintToString(call.eventNames());
}

INSTANTIATE_TEST_SUITE_P(Transports, WebSocketHttpTest, ::testing::Values(false, true),
                         [](const ::testing::TestParamInfo<bool>& info) {
                           return info.param ? std::string("Wss") : std::string("Ws");
                         });

}  // namespace
}  // namespace tern
