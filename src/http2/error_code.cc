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

std::exception_ptr copyOf(const std::exception_ptr& e) {
  try {
    std::rethrow_exception(e);
  } catch (const StreamResetException& x) {
    return std::make_exception_ptr(StreamResetException(x.errorCode(), x.what()));
  } catch (const SocketTimeoutException& x) {
    return std::make_exception_ptr(SocketTimeoutException(x.what()));
  } catch (const InterruptedIOException& x) {
    return std::make_exception_ptr(InterruptedIOException(x.what()));
  } catch (const ProtocolException& x) {
    return std::make_exception_ptr(ProtocolException(x.what()));
  } catch (const EOFException& x) {
    return std::make_exception_ptr(EOFException(x.what()));
  } catch (const ConnectException& x) {
    return std::make_exception_ptr(ConnectException(x.what()));
  } catch (const SSLHandshakeException& x) {
    return std::make_exception_ptr(SSLHandshakeException(x.what()));
  } catch (const SSLPeerUnverifiedException& x) {
    return std::make_exception_ptr(SSLPeerUnverifiedException(x.what()));
  } catch (const SSLException& x) {
    return std::make_exception_ptr(SSLException(x.what()));
  } catch (const SocketWriteException& x) {
    return std::make_exception_ptr(SocketWriteException(x.what(), x.errorNumber()));
  } catch (const std::exception& x) {
    return std::make_exception_ptr(IOException(x.what()));
  } catch (...) {
    return std::make_exception_ptr(IOException("HTTP/2 stream failed"));
  }
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
