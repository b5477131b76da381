// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#include "http2_header_block.h"

#include <algorithm>
#include <cstdint>

#include "io/ascii.h"

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

Buffer unchunkedBody(const MockResponse& response) {
  Buffer wire = response.body();
  std::optional<std::string> encoding = response.headers().get("Transfer-Encoding");
  if (!encoding || !tern::internal::equalsIgnoreCase(*encoding, "chunked")) return wire;
  Buffer result;
  while (wire.size() > 0) {
    std::optional<std::string> line = wire.readUtf8Line();
    if (!line) break;
    int64_t size = std::stoll(line->substr(0, line->find(';')), nullptr, 16);
    if (size == 0) break;
    result.write(wire, std::min(size, wire.size()));
    wire.readUtf8Line();  // The CRLF after the chunk.
  }
  return result;
}

RequestHead requestHead(const std::vector<std::pair<std::string, std::string>>& fields,
                        std::string_view defaultScheme, std::string_view defaultAuthority) {
  Headers::Builder headers;
  std::string scheme(defaultScheme), authority, path;
  RequestHead head;
  for (const auto& [name, value] : fields) {
    headers.addLenient(name, value);
    if (name == ":method") head.method = value;
    if (name == ":scheme") scheme = value;
    if (name == ":authority") authority = value;
    if (name == ":path") path = value;
  }
  head.headers = headers.build();
  head.target = path.empty() && head.method == "CONNECT" ? authority : path;
  if (path.empty()) path = "/";
  if (authority.empty()) authority = defaultAuthority;
  head.url = HttpUrl::parse(scheme + "://" + authority + path);
  return head;
}

}  // namespace tern::mockwebserver::internal
