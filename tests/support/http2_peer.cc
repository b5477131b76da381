// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#include "support/http2_peer.h"

#include <string>
#include <utility>

namespace tern::testing {

std::string http2Frame(uint8_t type, uint8_t flags, uint32_t stream, std::string_view payload) {
  std::string result;
  size_t length = payload.size();
  result += static_cast<char>(length >> 16);
  result += static_cast<char>(length >> 8);
  result += static_cast<char>(length);
  result += static_cast<char>(type);
  result += static_cast<char>(flags);
  for (int shift = 24; shift >= 0; shift -= 8) result += static_cast<char>(stream >> shift);
  result += payload;
  return result;
}

std::string hpackStatus(int code) { return "\x08\x03" + std::to_string(code); }

std::string hpackLiteral(std::string_view name, std::string_view value) {
  std::string result(1, '\0');
  result += static_cast<char>(name.size());
  result += name;
  result += static_cast<char>(value.size());
  result += value;
  return result;
}

namespace {

// The length field of the frame header `header` (RFC 9113 §4.1).
size_t frameLength(const char* header) {
  return (static_cast<size_t>(static_cast<uint8_t>(header[0])) << 16) |
         (static_cast<size_t>(static_cast<uint8_t>(header[1])) << 8) |
         static_cast<uint8_t>(header[2]);
}

// Reads the client's preface and its frames up to its first HEADERS, writes SETTINGS and the ACK
// of the client's, then runs `script`.
void serveHttp2(Http2Peer::Connection& connection,
                const std::function<void(Http2Peer::Connection&)>& script) {
  RawPeer::Connection& raw = connection.raw();
  char preface[24];
  if (!raw.readFully(preface, sizeof(preface))) return;
  while (true) {
    char header[9];
    if (!raw.readFully(header, sizeof(header))) return;
    std::string payload(frameLength(header), '\0');
    if (!raw.readFully(payload.data(), payload.size())) return;
    if (header[3] == kHeaders) break;  // The client's stream 1 is open.
  }
  if (raw.write(http2Frame(kSettings, 0, 0, "") + http2Frame(kSettings, kAck, 0, ""))) {
    script(connection);
  }
}

}  // namespace

bool Http2Peer::Connection::pingPong() {
  if (!write(http2Frame(kPing, 0, 0, "pingpong"))) return false;
  while (true) {
    char header[9];
    if (!raw_.readFully(header, sizeof(header))) return false;
    std::string payload(frameLength(header), '\0');
    if (!raw_.readFully(payload.data(), payload.size())) return false;
    if (header[3] == kGoaway) return false;
    if (header[3] == kPing && (header[4] & kAck) && payload == "pingpong") return true;
  }
}

Http2Peer::Http2Peer(std::function<void(Connection&)> script, End end)
    : Http2Peer(std::move(script), Options{.end = end}) {}

Http2Peer::Http2Peer(std::function<void(Connection&)> script, Options options)
    : peer_(
          [script = std::move(script)](RawPeer::Connection& raw) {
            Connection connection(raw);
            serveHttp2(connection, script);
          },
          std::move(options)) {}

}  // namespace tern::testing
