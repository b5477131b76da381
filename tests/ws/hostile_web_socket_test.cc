// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
//
// WebSocket servers that break the rules, written as raw bytes (RawPeer): after a correct
// handshake they send masked or malformed frames, invalid UTF-8, or never answer pings and
// closes. The client must fail with a clear message, tell the server why with the right close
// code where RFC 6455 says so, and never hang.
#include <gtest/gtest.h>

#include <chrono>
#include <memory>
#include <string>

#include "support/raw_peer.h"
#include "support/web_socket_recorder.h"
#include "tern/client.h"
#include "tern/web_socket.h"
#include "ws/web_socket_protocol.h"

namespace tern::testing {
namespace {

using namespace std::chrono_literals;

// Reads the handshake request and answers it with a valid 101.
void acceptHandshake(RawPeer::Connection& connection) {
  std::string head = connection.readUntil("\r\n\r\n");
  std::string marker = "Sec-WebSocket-Key: ";
  size_t start = head.find(marker);
  ASSERT_NE(start, std::string::npos) << head;
  start += marker.size();
  std::string key = head.substr(start, head.find("\r\n", start) - start);
  connection.write(
      "HTTP/1.1 101 Switching Protocols\r\nConnection: Upgrade\r\nUpgrade: websocket\r\n"
      "Sec-WebSocket-Accept: " +
      internal::ws::acceptHeader(key) + "\r\n\r\n");
}

// An unmasked server frame with a payload under 126 bytes.
std::string frame(int b0, std::string_view payload) {
  std::string result;
  result += static_cast<char>(b0);
  result += static_cast<char>(payload.size());
  result += payload;
  return result;
}

// Reads one masked client frame (payload < 126 bytes) and returns its opcode and payload.
std::pair<int, std::string> readClientFrame(RawPeer::Connection& connection) {
  char header[2];
  if (!connection.readFully(header, 2)) return {-1, ""};
  int length = header[1] & 0x7f;
  char mask[4];
  connection.readFully(mask, 4);
  std::string payload(length, '\0');
  if (length > 0) connection.readFully(payload.data(), length);
  for (int i = 0; i < length; ++i) payload[i] = static_cast<char>(payload[i] ^ mask[i % 4]);
  return {header[0] & 0x0f, payload};
}

// The close code of a close frame's payload.
int closeCode(const std::string& payload) {
  if (payload.size() < 2) return -1;
  return (static_cast<unsigned char>(payload[0]) << 8) | static_cast<unsigned char>(payload[1]);
}

class HostileWebSocketTest : public ::testing::Test {
 protected:
  Client::Builder builder_ = std::move(Client::Builder().connectTimeout(5s).readTimeout(5s));
  std::shared_ptr<WebSocketRecorder> listener_ = std::make_shared<WebSocketRecorder>("client");

  std::shared_ptr<WebSocket> open(const RawPeer& peer) {
    return builder_.build().newWebSocket(Request::Builder().url(peer.url()).build(), listener_);
  }
};

TEST_F(HostileWebSocketTest, MaskedServerFrameFailsWith1002) {
  int answeredCode = 0;
  {
    RawPeer peer(
        [&](RawPeer::Connection& connection) {
          acceptHandshake(connection);
          // A text frame with the mask bit set: servers must not mask (RFC 6455 §5.1).
          connection.write(std::string("\x81\x85\x01\x02\x03\x04", 6) + "abcde");
          auto [opcode, payload] = readClientFrame(connection);
          if (opcode == internal::ws::kOpcodeControlClose) answeredCode = closeCode(payload);
        },
        {});
    auto webSocket = open(peer);
    listener_->assertOpen();
    listener_->assertFailure("must not be masked");
  }  // The peer's destructor waits for its script.
  EXPECT_EQ(answeredCode, 1002);
}

TEST_F(HostileWebSocketTest, InvalidUtf8FailsWith1007) {
  int answeredCode = 0;
  {
    RawPeer peer(
        [&](RawPeer::Connection& connection) {
          acceptHandshake(connection);
          connection.write(frame(0x81, "\xc3\x28"));  // An invalid 2-byte sequence.
          auto [opcode, payload] = readClientFrame(connection);
          if (opcode == internal::ws::kOpcodeControlClose) answeredCode = closeCode(payload);
        },
        {});
    auto webSocket = open(peer);
    listener_->assertOpen();
    listener_->assertFailure("");
  }
  EXPECT_EQ(answeredCode, 1007);
}

TEST_F(HostileWebSocketTest, ReservedOpcodeFailsWith1002) {
  int answeredCode = 0;
  {
    RawPeer peer(
        [&](RawPeer::Connection& connection) {
          acceptHandshake(connection);
          connection.write(frame(0x83, "x"));  // Opcode 3 is reserved.
          auto [opcode, payload] = readClientFrame(connection);
          if (opcode == internal::ws::kOpcodeControlClose) answeredCode = closeCode(payload);
        },
        {});
    auto webSocket = open(peer);
    listener_->assertOpen();
    listener_->assertFailure("");
  }
  EXPECT_EQ(answeredCode, 1002);
}

TEST_F(HostileWebSocketTest, UnansweredPingFailsTheSocket) {
  builder_.pingInterval(100ms);
  RawPeer peer(
      [&](RawPeer::Connection& connection) {
        acceptHandshake(connection);
        // Reads the pings and never answers; ends when the client drops the connection.
        while (readClientFrame(connection).first != -1) {
        }
      },
      {});
  auto webSocket = open(peer);
  listener_->assertOpen();
  std::optional<WebSocketRecorder::Event> failure = listener_->next();
  ASSERT_TRUE(failure);
  ASSERT_EQ(failure->kind, WebSocketRecorder::Event::Kind::kFailure) << failure->toString();
  EXPECT_TRUE(failure->failureIsTimeout);
  EXPECT_EQ(failure->failure,
            "sent ping but didn't receive pong within 100ms (after 0 successful ping/pongs)");
  // Found by the pinger, reported by the reader, like every other call.
  EXPECT_EQ(listener_->threads().size(), 1u);
}

TEST_F(HostileWebSocketTest, UnansweredCloseTimesOut) {
  builder_.webSocketCloseTimeout(200ms);
  RawPeer peer(
      [&](RawPeer::Connection& connection) {
        acceptHandshake(connection);
        while (readClientFrame(connection).first != -1) {
        }
      },
      {});
  auto webSocket = open(peer);
  listener_->assertOpen();
  EXPECT_TRUE(webSocket->close(1000, "bye"));
  std::optional<WebSocketRecorder::Event> failure = listener_->next();
  ASSERT_TRUE(failure);
  ASSERT_EQ(failure->kind, WebSocketRecorder::Event::Kind::kFailure) << failure->toString();
  EXPECT_TRUE(failure->failureIsTimeout);
  EXPECT_EQ(failure->failure, "the peer did not answer the close frame within 200 ms");
}

TEST_F(HostileWebSocketTest, ConnectionDroppedMidMessageFails) {
  RawPeer peer(
      [&](RawPeer::Connection& connection) {
        acceptHandshake(connection);
        connection.write(std::string("\x81\x7e\x10\x00", 4) + "only part of it");
      },
      {.end = RawPeer::End::kClose});
  auto webSocket = open(peer);
  listener_->assertOpen();
  listener_->assertFailure("");
}

TEST_F(HostileWebSocketTest, FragmentsWithPingsBetweenAreJoined) {
  std::string pongPayload;
  {
    RawPeer peer(
        [&](RawPeer::Connection& connection) {
          acceptHandshake(connection);
          connection.write(frame(0x01, "Hel") + frame(0x89, "are you there") + frame(0x00, "lo, ") +
                           frame(0x80, "world"));
          auto [opcode, payload] = readClientFrame(connection);
          if (opcode == internal::ws::kOpcodeControlPong) pongPayload = payload;
          connection.write(frame(0x88, std::string("\x03\xe8", 2)));  // Close 1000.
          readClientFrame(connection);
        },
        {});
    auto webSocket = open(peer);
    listener_->assertOpen();
    listener_->assertTextMessage("Hello, world");
    listener_->assertClosing(1000, "");
    listener_->assertClosed(1000, "");
  }
  EXPECT_EQ(pongPayload, "are you there");
}

}  // namespace
}  // namespace tern::testing
