// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#include "tern/mockwebserver/recorded_request.h"

#include <exception>
#include <string>
#include <utility>

namespace tern::mockwebserver {

RecordedRequest::RecordedRequest(std::string requestLine, Headers headers,
                                 std::vector<int64_t> chunkSizes, int64_t bodySize,
                                 std::string body, int sequenceNumber, int connectionIndex,
                                 const HttpUrl& url, std::exception_ptr failure,
                                 std::optional<Handshake> handshake,
                                 std::vector<std::string> handshakeServerNames, int streamId)
    : requestLine_(std::move(requestLine)),
      url_(url),
      headers_(std::move(headers)),
      chunkSizes_(std::move(chunkSizes)),
      bodySize_(bodySize),
      body_(std::move(body)),
      sequenceNumber_(sequenceNumber),
      connectionIndex_(connectionIndex),
      failure_(std::move(failure)),
      handshake_(std::move(handshake)),
      handshakeServerNames_(std::move(handshakeServerNames)),
      streamId_(streamId) {
  // "method SP request-target SP HTTP-version" (RFC 9112 §3); a malformed line fills what it can.
  const size_t methodEnd = requestLine_.find(' ');
  method_ = requestLine_.substr(0, methodEnd);
  if (methodEnd != std::string::npos) {
    const size_t targetEnd = requestLine_.find(' ', methodEnd + 1);
    target_ = requestLine_.substr(methodEnd + 1, targetEnd == std::string::npos
                                                     ? std::string::npos
                                                     : targetEnd - methodEnd - 1);
    if (targetEnd != std::string::npos) version_ = requestLine_.substr(targetEnd + 1);
  }

  if (target_.starts_with('/')) {
    path_ = target_;
  } else if (!requestLine_.empty()) {
    path_ = url_.encodedPath();
    if (std::optional<std::string> query = url_.encodedQuery()) path_ += "?" + *query;
  }
}

Buffer RecordedRequest::body() const {
  Buffer result;
  result.writeUtf8(body_);
  return result;
}

std::optional<std::string> RecordedRequest::failureMessage() const {
  if (!failure_) return std::nullopt;
  try {
    std::rethrow_exception(failure_);
  } catch (const std::exception& e) {
    return std::string(e.what());
  } catch (...) {
    return std::string("unknown failure");
  }
}

}  // namespace tern::mockwebserver
