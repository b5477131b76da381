// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
// MockWebServer serving WebSockets over HTTP/2 (RFC 8441, extended CONNECT), seen through a
// plain nghttp2 client that writes the frames itself.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>

#include "http2_test_client.h"
#include "support/web_socket_recorder.h"
#include "tern/mockwebserver/mock_response.h"
#include "tern/mockwebserver/mock_web_server.h"
#include "tern/response.h"
#include "tern/web_socket.h"

namespace tern::mockwebserver {
namespace {

using namespace std::chrono_literals;
using testing::Http2TestClient;

// A client's frame (RFC 6455 §5.2): FIN, `opcode`, masked with a fixed key. Payloads < 126 bytes.
std::string maskedFrame(uint8_t opcode, const std::string& payload) {
  const char mask[4] = {0x12, 0x34, 0x56, 0x78};
  std::string frame;
  frame += static_cast<char>(0x80 | opcode);
  frame += static_cast<char>(0x80 | payload.size());
  frame.append(mask, 4);
  for (size_t i = 0; i < payload.size(); ++i) frame += static_cast<char>(payload[i] ^ mask[i % 4]);
  return frame;
}

// A server's frame: FIN, `opcode`, unmasked. Payloads < 126 bytes.
std::string serverFrame(uint8_t opcode, const std::string& payload) {
  return std::string{static_cast<char>(0x80 | opcode), static_cast<char>(payload.size())} + payload;
}

std::string closePayload(int code, const std::string& reason) {
  return std::string{static_cast<char>(code >> 8), static_cast<char>(code & 0xff)} + reason;
}

// Records like WebSocketRecorder, echoes each text message, and keeps what onOpen was given.
class EchoListener : public tern::testing::WebSocketRecorder {
 public:
  EchoListener() : WebSocketRecorder("server") {}
  void onOpen(WebSocket& webSocket, const Response& response) override {
    openedProtocol = response.protocol();
    openedAccept = response.header("Sec-WebSocket-Accept");
    openedCustom = response.header("X-Chat");
    WebSocketRecorder::onOpen(webSocket, response);
  }
  void onMessage(WebSocket& webSocket, const std::string& text) override {
    WebSocketRecorder::onMessage(webSocket, text);
    webSocket.send(text);
  }
  std::atomic<Protocol> openedProtocol{Protocol::HTTP_1_0};
  std::optional<std::string> openedAccept;  // Written in onOpen, read after assertOpen().
  std::optional<std::string> openedCustom;
};

class Http2WebSocketServerTest : public ::testing::Test {
 protected:
  Http2WebSocketServerTest() { server.setProtocols({Protocol::H2_PRIOR_KNOWLEDGE}); }

  Http2TestClient::Fields webSocketConnect(const std::string& path) {
    return {{":method", "CONNECT"},
            {":protocol", "websocket"},
            {":scheme", "http"},
            {":path", path},
            {":authority", "127.0.0.1:" + std::to_string(server.port())},
            {"sec-websocket-version", "13"}};
  }

  // Connects and opens a WebSocket on /chat, answered by `listener`; expects the 200.
  int32_t openWebSocket(Http2TestClient& client) {
    EXPECT_TRUE(client.awaitSettings());
    int32_t id = client.request(webSocketConnect("/chat"), false);
    EXPECT_TRUE(client.awaitUntil([&] { return client.stream(id).status.has_value(); }));
    EXPECT_EQ(client.stream(id).status, 200);
    listener->assertOpen();
    return id;
  }

  // Sends a masked text frame and expects it back, unmasked, on the stream.
  void expectEcho(Http2TestClient& client, int32_t id, const std::string& text) {
    const size_t before = client.stream(id).data.size();
    client.sendData(id, maskedFrame(0x1, text));
    const std::string expected = serverFrame(0x1, text);
    EXPECT_TRUE(client.awaitUntil(
        [&] { return client.stream(id).data.size() >= before + 2 + text.size(); }));
    EXPECT_EQ(client.stream(id).data.substr(before), expected);
    listener->assertTextMessage(text);
  }

  MockWebServer server;
  std::shared_ptr<EchoListener> listener = std::make_shared<EchoListener>();
};

TEST(MockWebServerExtendedConnectTest, OnByDefaultAndSetBeforeStart) {
  MockWebServer server;
  EXPECT_TRUE(server.extendedConnect());
  server.setExtendedConnect(false);
  EXPECT_FALSE(server.extendedConnect());
  server.start();
  EXPECT_THROW(server.setExtendedConnect(true), std::logic_error);
}

TEST_F(Http2WebSocketServerTest, SettingsOfferExtendedConnect) {
  Http2TestClient client(server.port());
  ASSERT_TRUE(client.awaitSettings());
  EXPECT_EQ(client.remoteSetting(NGHTTP2_SETTINGS_ENABLE_CONNECT_PROTOCOL), 1u);
}

TEST_F(Http2WebSocketServerTest, ExtendedConnectOpensAWebSocketThatEchoes) {
  server.enqueue(
      MockResponse::Builder().addHeader("X-Chat", "yes").webSocketUpgrade(listener).build());
  Http2TestClient client(server.port());
  int32_t id = openWebSocket(client);

  // RFC 8441 §5: 200, the stream stays open, no Sec-WebSocket-Accept.
  const auto& stream = client.stream(id);
  EXPECT_FALSE(stream.endStream);
  EXPECT_FALSE(stream.header("sec-websocket-accept"));
  EXPECT_FALSE(stream.header("content-length"));
  EXPECT_EQ(stream.header("x-chat"), "yes");
  EXPECT_EQ(listener->openedProtocol.load(), Protocol::H2_PRIOR_KNOWLEDGE);
  EXPECT_EQ(listener->openedAccept, std::nullopt);
  EXPECT_EQ(listener->openedCustom, "yes");

  RecordedRequest request = server.takeRequest();
  EXPECT_EQ(request.method(), "CONNECT");
  EXPECT_EQ(request.requestLine(), "CONNECT /chat HTTP/2");
  EXPECT_EQ(request.path(), "/chat");
  EXPECT_EQ(request.headers().get(":protocol"), "websocket");
  EXPECT_EQ(request.headers().get("sec-websocket-version"), "13");
  EXPECT_EQ(request.streamId(), id);

  expectEcho(client, id, "hello");
  expectEcho(client, id, "again");
}

TEST_F(Http2WebSocketServerTest, CloseHandshakeEndsTheStream) {
  server.enqueue(MockResponse::Builder().webSocketUpgrade(listener).build());
  Http2TestClient client(server.port());
  int32_t id = openWebSocket(client);

  client.sendData(id, maskedFrame(0x8, closePayload(1000, "bye")));
  const std::string reply = serverFrame(0x8, closePayload(1000, ""));
  ASSERT_TRUE(client.awaitUntil([&] { return client.stream(id).endStream; }));
  EXPECT_EQ(client.stream(id).data, reply);  // The close frame, then END_STREAM.
  listener->assertClosing(1000, "bye");
  listener->assertClosed(1000, "bye");

  client.sendData(id, "", true);  // The client ends its side too.
  ASSERT_TRUE(client.awaitUntil([&] { return client.stream(id).closed; }));
  EXPECT_EQ(client.stream(id).closeErrorCode, static_cast<uint32_t>(NGHTTP2_NO_ERROR));
  listener->assertExhausted();
}

TEST_F(Http2WebSocketServerTest, ServerCloseEndsTheStreamAfterItsCloseFrame) {
  server.enqueue(MockResponse::Builder().webSocketUpgrade(listener).build());
  listener->setNextEventDelegate([](WebSocket& webSocket) { webSocket.close(1001, "going"); });
  Http2TestClient client(server.port());
  int32_t id = openWebSocket(client);

  ASSERT_TRUE(client.awaitUntil([&] { return client.stream(id).endStream; }));
  EXPECT_EQ(client.stream(id).data, serverFrame(0x8, closePayload(1001, "going")));
  client.sendData(id, maskedFrame(0x8, closePayload(1001, "")), true);
  ASSERT_TRUE(client.awaitUntil([&] { return client.stream(id).closed; }));
  EXPECT_EQ(client.stream(id).closeErrorCode, static_cast<uint32_t>(NGHTTP2_NO_ERROR));
  listener->assertClosing(1001, "");
  listener->assertClosed(1001, "");
}

TEST_F(Http2WebSocketServerTest, ClientResetFailsTheServerWebSocket) {
  server.enqueue(MockResponse::Builder().webSocketUpgrade(listener).build());
  Http2TestClient client(server.port());
  int32_t id = openWebSocket(client);

  client.reset(id, NGHTTP2_CANCEL);
  ASSERT_TRUE(client.awaitUntil([&] { return client.stream(id).closed; }));
  listener->assertFailure("reset (CANCEL)");
  listener->assertExhausted();
}

TEST_F(Http2WebSocketServerTest, ClientEndingItsSideWithoutCloseFailsTheWebSocket) {
  server.enqueue(MockResponse::Builder().webSocketUpgrade(listener).build());
  Http2TestClient client(server.port());
  int32_t id = openWebSocket(client);

  client.sendData(id, "", true);  // END_STREAM: the source reads the end of the stream.
  ASSERT_TRUE(client.awaitUntil([&] { return client.stream(id).closed; }));
  auto failure = listener->next();
  ASSERT_TRUE(failure);
  EXPECT_EQ(failure->kind, tern::testing::WebSocketRecorder::Event::Kind::kFailure)
      << failure->toString();
  // cancel() after our side had not ended: the stream is reset.
  EXPECT_EQ(client.stream(id).closeErrorCode, static_cast<uint32_t>(NGHTTP2_CANCEL));
}

TEST_F(Http2WebSocketServerTest, OtherStreamsWorkWhileAWebSocketIsOpen) {
  server.setDispatcher([this](const RecordedRequest& request) {
    if (request.path() == "/chat")
      return MockResponse::Builder().webSocketUpgrade(listener).build();
    return MockResponse::Builder().body("plain " + request.method()).build();
  });
  Http2TestClient client(server.port());
  int32_t webSocket = openWebSocket(client);

  int32_t get = client.request({{":method", "GET"},
                                {":scheme", "http"},
                                {":path", "/plain"},
                                {":authority", "127.0.0.1:" + std::to_string(server.port())}},
                               true);
  ASSERT_TRUE(client.awaitUntil([&] { return client.stream(get).closed; }));
  EXPECT_EQ(client.stream(get).status, 200);
  EXPECT_EQ(client.stream(get).data, "plain GET");
  EXPECT_TRUE(client.stream(get).endStream);

  expectEcho(client, webSocket, "still open");
  EXPECT_FALSE(client.stream(webSocket).closed);
}

TEST_F(Http2WebSocketServerTest, ExtendedConnectRefusedWhenDisabled) {
  server.setExtendedConnect(false);
  server.enqueue(MockResponse::Builder().webSocketUpgrade(listener).build());
  Http2TestClient client(server.port());
  ASSERT_TRUE(client.awaitSettings());
  EXPECT_EQ(client.remoteSetting(NGHTTP2_SETTINGS_ENABLE_CONNECT_PROTOCOL), 0u);

  int32_t id = client.request(webSocketConnect("/chat"), false);
  ASSERT_TRUE(client.awaitUntil([&] { return client.stream(id).closed; }));
  EXPECT_EQ(client.stream(id).closeErrorCode, static_cast<uint32_t>(NGHTTP2_PROTOCOL_ERROR));
  EXPECT_FALSE(client.stream(id).status);
  EXPECT_EQ(server.requestCount(), 0);
  listener->assertExhausted();
}

TEST_F(Http2WebSocketServerTest, ExtendedConnectAnsweredWithoutAListenerIsAnOrdinaryResponse) {
  server.enqueue(MockResponse::Builder().code(404).body("no chat here").build());
  Http2TestClient client(server.port());
  ASSERT_TRUE(client.awaitSettings());
  int32_t id = client.request(webSocketConnect("/chat"), false);
  client.sendData(id, maskedFrame(0x1, "ignored"));  // Dropped: nothing reads the tunnel.

  ASSERT_TRUE(client.awaitUntil([&] { return client.stream(id).closed; }));
  EXPECT_EQ(client.stream(id).status, 404);
  EXPECT_EQ(client.stream(id).data, "no chat here");
  EXPECT_TRUE(client.stream(id).endStream);
  // After a complete response the server asks the client to stop sending (RFC 9113 §8.1).
  EXPECT_EQ(client.stream(id).closeErrorCode, static_cast<uint32_t>(NGHTTP2_NO_ERROR));
  RecordedRequest request = server.takeRequest();
  EXPECT_EQ(request.requestLine(), "CONNECT /chat HTTP/2");
  EXPECT_EQ(request.bodySize(), 0);
}

TEST_F(Http2WebSocketServerTest, PlainConnectIsDispatchedOnItsHeaders) {
  server.enqueue(MockResponse::Builder().code(403).build());
  Http2TestClient client(server.port());
  ASSERT_TRUE(client.awaitSettings());
  int32_t id = client.request({{":method", "CONNECT"}, {":authority", "example.com:443"}}, false);

  ASSERT_TRUE(client.awaitUntil([&] { return client.stream(id).closed; }));
  EXPECT_EQ(client.stream(id).status, 403);
  RecordedRequest request = server.takeRequest();
  EXPECT_EQ(request.requestLine(), "CONNECT example.com:443 HTTP/2");
  EXPECT_EQ(request.target(), "example.com:443");
  EXPECT_FALSE(request.headers().get(":protocol"));
}

TEST_F(Http2WebSocketServerTest, CloseWithAnOpenWebSocketDoesNotHang) {
  server.enqueue(MockResponse::Builder().webSocketUpgrade(listener).build());
  Http2TestClient client(server.port());
  int32_t id = openWebSocket(client);
  expectEcho(client, id, "hello");

  const auto start = std::chrono::steady_clock::now();
  server.close();
  EXPECT_LT(std::chrono::steady_clock::now() - start, 5s);
  auto failure = listener->next();
  ASSERT_TRUE(failure);
  EXPECT_EQ(failure->kind, tern::testing::WebSocketRecorder::Event::Kind::kFailure)
      << failure->toString();
  EXPECT_TRUE(client.awaitUntil([&] { return client.disconnected(); }));
}

}  // namespace
}  // namespace tern::mockwebserver
