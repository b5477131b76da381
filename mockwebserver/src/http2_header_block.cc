// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#include "http2_header_block.h"

namespace tern::mockwebserver::internal {
namespace {

// Fields HTTP/2 forbids (RFC 9113 §8.2.2); a scripted HTTP/1 response may carry them.
bool isConnectionSpecific(std::string_view lowerName) {
  return lowerName == "connection" || lowerName == "keep-alive" ||
         lowerName == "proxy-connection" || lowerName == "transfer-encoding" ||
         lowerName == "upgrade";
}

}  // namespace

std::string toLower(std::string_view text) {
  std::string result(text);
  for (char& c : result) {
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  }
  return result;
}

NameValues responseHeaders(int code, const Headers& headers, bool informational) {
  NameValues result;
  result.add(":status", std::to_string(code));
  for (const auto& [name, value] : headers) {
    std::string lower = toLower(name);
    if (isConnectionSpecific(lower)) continue;
    if (informational && lower == "content-length") continue;
    result.add(std::move(lower), value);
  }
  return result;
}

NameValues responseHeaders(const MockResponse& response, bool informational) {
  return responseHeaders(response.code(), response.headers(), informational);
}

Headers webSocketHeaders(const MockResponse& response) {
  Headers::Builder result;
  for (const auto& [name, value] : response.headers()) {
    std::string lower = toLower(name);
    if (isConnectionSpecific(lower) || lower == "sec-websocket-accept" ||
        lower == "content-length") {
      continue;
    }
    result.addLenient(name, value);
  }
  return result.build();
}

}  // namespace tern::mockwebserver::internal
