// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#include "http2/error_code.h"

#include <cstdio>

namespace tern::internal {

std::string errorCodeName(uint32_t code) {
  switch (static_cast<ErrorCode>(code)) {
    case ErrorCode::NO_ERROR:
      return "NO_ERROR";
    case ErrorCode::PROTOCOL_ERROR:
      return "PROTOCOL_ERROR";
    case ErrorCode::INTERNAL_ERROR:
      return "INTERNAL_ERROR";
    case ErrorCode::FLOW_CONTROL_ERROR:
      return "FLOW_CONTROL_ERROR";
    case ErrorCode::SETTINGS_TIMEOUT:
      return "SETTINGS_TIMEOUT";
    case ErrorCode::STREAM_CLOSED:
      return "STREAM_CLOSED";
    case ErrorCode::FRAME_SIZE_ERROR:
      return "FRAME_SIZE_ERROR";
    case ErrorCode::REFUSED_STREAM:
      return "REFUSED_STREAM";
    case ErrorCode::CANCEL:
      return "CANCEL";
    case ErrorCode::COMPRESSION_ERROR:
      return "COMPRESSION_ERROR";
    case ErrorCode::CONNECT_ERROR:
      return "CONNECT_ERROR";
    case ErrorCode::ENHANCE_YOUR_CALM:
      return "ENHANCE_YOUR_CALM";
    case ErrorCode::INADEQUATE_SECURITY:
      return "INADEQUATE_SECURITY";
    case ErrorCode::HTTP_1_1_REQUIRED:
      return "HTTP_1_1_REQUIRED";
  }
  char text[24];
  std::snprintf(text, sizeof(text), "UNKNOWN(0x%x)", code);
  return text;
}

StreamResetException streamResetException(uint32_t code) {
  return StreamResetException(code, "stream was reset: " + errorCodeName(code));
}

bool isStreamReset(const std::exception_ptr& e, ErrorCode code) {
  if (!e) return false;
  try {
    std::rethrow_exception(e);
  } catch (const StreamResetException& reset) {
    return reset.errorCode() == static_cast<uint32_t>(code);
  } catch (...) {
    return false;
  }
}

}  // namespace tern::internal
