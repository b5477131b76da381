// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#include "http3/http3_error_code.h"

#include <cinttypes>
#include <cstdio>

namespace tern::internal {

std::string http3ErrorCodeName(uint64_t code) {
  static constexpr const char* kNames[] = {"H3_NO_ERROR",
                                           "H3_GENERAL_PROTOCOL_ERROR",
                                           "H3_INTERNAL_ERROR",
                                           "H3_STREAM_CREATION_ERROR",
                                           "H3_CLOSED_CRITICAL_STREAM",
                                           "H3_FRAME_UNEXPECTED",
                                           "H3_FRAME_ERROR",
                                           "H3_EXCESSIVE_LOAD",
                                           "H3_ID_ERROR",
                                           "H3_SETTINGS_ERROR",
                                           "H3_MISSING_SETTINGS",
                                           "H3_REQUEST_REJECTED",
                                           "H3_REQUEST_CANCELLED",
                                           "H3_REQUEST_INCOMPLETE",
                                           "H3_MESSAGE_ERROR",
                                           "H3_CONNECT_ERROR",
                                           "H3_VERSION_FALLBACK"};
  if (code >= 0x100 && code <= 0x110) return kNames[code - 0x100];
  switch (code) {
    case 0x200:
      return "QPACK_DECOMPRESSION_FAILED";
    case 0x201:
      return "QPACK_ENCODER_STREAM_ERROR";
    case 0x202:
      return "QPACK_DECODER_STREAM_ERROR";
    default:
      break;
  }
  char text[32];
  std::snprintf(text, sizeof(text), "UNKNOWN(0x%" PRIx64 ")", code);
  return text;
}

StreamResetException http3StreamResetException(uint64_t code) {
  const uint32_t reported = code <= UINT32_MAX
                                ? static_cast<uint32_t>(code)
                                : static_cast<uint32_t>(Http3ErrorCode::H3_INTERNAL_ERROR);
  return StreamResetException(reported, "stream was reset: " + http3ErrorCodeName(code));
}

}  // namespace tern::internal
