// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstdint>
#include <string>

#include "tern/exceptions.h"

namespace tern::internal {

// HTTP/3 error codes (RFC 9114 §8.1), carried by QUIC's RESET_STREAM, STOP_SENDING and
// CONNECTION_CLOSE (application) frames.
enum class Http3ErrorCode : uint64_t {
  H3_NO_ERROR = 0x100,
  H3_GENERAL_PROTOCOL_ERROR = 0x101,
  H3_INTERNAL_ERROR = 0x102,
  H3_STREAM_CREATION_ERROR = 0x103,
  H3_CLOSED_CRITICAL_STREAM = 0x104,
  H3_FRAME_UNEXPECTED = 0x105,
  H3_FRAME_ERROR = 0x106,
  H3_EXCESSIVE_LOAD = 0x107,
  H3_ID_ERROR = 0x108,
  H3_SETTINGS_ERROR = 0x109,
  H3_MISSING_SETTINGS = 0x10a,
  H3_REQUEST_REJECTED = 0x10b,
  H3_REQUEST_CANCELLED = 0x10c,
  H3_REQUEST_INCOMPLETE = 0x10d,
  H3_MESSAGE_ERROR = 0x10e,
  H3_CONNECT_ERROR = 0x10f,
  H3_VERSION_FALLBACK = 0x110,
};

// The code's RFC 9114 name ("H3_REQUEST_CANCELLED"), QPACK's (RFC 9204 §6) for 0x200..0x202, or
// "UNKNOWN(0x2a)": peers may send any 62-bit value (RFC 9114 §9 reserves some as GREASE).
std::string http3ErrorCodeName(uint64_t code);

// StreamResetException(code, "stream was reset: H3_REQUEST_CANCELLED"), as HTTP/2's message.
// StreamResetException carries a 32-bit code: every code RFC 9114 and RFC 9204 define fits; a
// larger one (only a peer's GREASE or private code) is reported as H3_INTERNAL_ERROR's number,
// its real value kept in the message.
StreamResetException http3StreamResetException(uint64_t code);

}  // namespace tern::internal
