// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "tern/exceptions.h"

namespace tern::internal {

// RFC 6455's wire constants and small rules, shared by the frame reader and writer, the client's
// handshake and MockWebServer's server side (as OkHttp's WebSocketProtocol).
namespace ws {

// Frame header bits (RFC 6455 §5.2).
inline constexpr int kB0FlagFin = 0x80;
inline constexpr int kB0FlagRsv1 = 0x40;  // permessage-deflate's "compressed" bit (RFC 7692 §6).
inline constexpr int kB0FlagRsv2 = 0x20;
inline constexpr int kB0FlagRsv3 = 0x10;
inline constexpr int kB0MaskOpcode = 0x0f;
inline constexpr int kOpcodeFlagControl = 0x08;
inline constexpr int kB1FlagMask = 0x80;
inline constexpr int kB1MaskLength = 0x7f;

inline constexpr int kOpcodeContinuation = 0x0;
inline constexpr int kOpcodeText = 0x1;
inline constexpr int kOpcodeBinary = 0x2;
inline constexpr int kOpcodeControlClose = 0x8;
inline constexpr int kOpcodeControlPing = 0x9;
inline constexpr int kOpcodeControlPong = 0xa;

// Control frames carry at most 125 bytes (§5.5); a close reason at most 123 (2 for the code).
inline constexpr int64_t kPayloadByteMax = 125;
inline constexpr int64_t kCloseMessageMax = kPayloadByteMax - 2;
// The 7-bit length values that announce a 16-bit or a 64-bit length.
inline constexpr int kPayloadShort = 126;
inline constexpr int64_t kPayloadShortMax = 0xffff;
inline constexpr int kPayloadLong = 127;

// Close codes (RFC 6455 §7.4.1) tern sends.
inline constexpr int kCloseNormal = 1000;
inline constexpr int kCloseGoingAway = 1001;
inline constexpr int kCloseProtocolError = 1002;
inline constexpr int kCloseNoStatusCode = 1005;    // Reported when a close frame had no payload.
inline constexpr int kCloseInvalidPayload = 1007;  // Text that is not UTF-8.
inline constexpr int kCloseMessageTooBig = 1009;
inline constexpr int kCloseMandatoryExtension = 1010;
inline constexpr int kCloseInternalError = 1011;

// The GUID of §1.3 that Sec-WebSocket-Accept hashes with the key.
inline constexpr std::string_view kAcceptMagic = "258EAFA5-E914-47DA-95CA-C5AB0DC85B11";

// base64(SHA-1(key + kAcceptMagic)): the Sec-WebSocket-Accept a server must answer `key` with.
TERN_INTERNAL_API std::string acceptHeader(std::string_view key);

// A fresh Sec-WebSocket-Key: base64 of 16 random bytes (OpenSSL's RAND_bytes).
std::string newKey();

// Null if `code` may be sent in a close frame; else why not ("Code 1005 is reserved and may not
// be used.", "Code must be in range [1000,5000): 999"), as OkHttp's closeCodeExceptionMessage.
std::optional<std::string> closeCodeExceptionMessage(int code);

// XORs `bytes` with the 4-byte `key`, starting at key byte `keyOffset % 4`; returns the key
// offset to continue with. Masking and unmasking are the same operation (§5.3).
size_t toggleMask(std::span<std::byte> bytes, std::span<const std::byte, 4> key, size_t keyOffset);

}  // namespace ws

// A peer broke the WebSocket protocol, with the close code to answer it with (1002 protocol
// error, 1007 invalid UTF-8, 1009 message too big, 1010 extension refused). The message says
// what was wrong, e.g. "Server-sent frames must not be masked.".
class WebSocketProtocolException : public ProtocolException {
 public:
  WebSocketProtocolException(int closeCode, const std::string& message)
      : ProtocolException(message), closeCode_(closeCode) {}
  int closeCode() const noexcept { return closeCode_; }

 private:
  int closeCode_;
};

}  // namespace tern::internal
