// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstdint>
#include <string>

#include "http/exception_copy.h"
#include "tern/exceptions.h"

namespace tern::internal {

// HTTP/2 error codes (RFC 9113 §7), by OkHttp's ErrorCode names.
enum class ErrorCode : uint32_t {
  NO_ERROR = 0x0,
  PROTOCOL_ERROR = 0x1,
  INTERNAL_ERROR = 0x2,
  FLOW_CONTROL_ERROR = 0x3,
  SETTINGS_TIMEOUT = 0x4,
  STREAM_CLOSED = 0x5,
  FRAME_SIZE_ERROR = 0x6,
  REFUSED_STREAM = 0x7,
  CANCEL = 0x8,
  COMPRESSION_ERROR = 0x9,
  CONNECT_ERROR = 0xa,
  ENHANCE_YOUR_CALM = 0xb,
  INADEQUATE_SECURITY = 0xc,
  HTTP_1_1_REQUIRED = 0xd,
};

// The code's name as OkHttp spells it ("CANCEL"), or "UNKNOWN(0x2a)" for a code RFC 9113 does
// not define (peers may send any 32-bit value; §7 says to treat it as INTERNAL_ERROR, but the
// number itself is more useful in a message).
std::string errorCodeName(uint32_t code);

// StreamResetException(code, "stream was reset: CANCEL"), OkHttp's message.
StreamResetException streamResetException(uint32_t code);

// True if `e` is a StreamResetException with `code`.
bool isStreamReset(const std::exception_ptr& e, ErrorCode code);

}  // namespace tern::internal
