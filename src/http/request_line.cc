// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#include "http/request_line.h"

#include <string>

namespace tern::internal {

std::string requestLine(const Request& request, bool usesHttpProxy) {
  std::string result = request.method();
  result += ' ';
  if (usesHttpProxy && !request.isHttps()) {
    // RFC 9112 §3.2.2: a proxy needs the whole URL. Neither the fragment nor userinfo is ever
    // sent (RFC 9110 §4.2.4 forbids generating userinfo; credentials go in headers).
    const HttpUrl& url = request.url();
    if (url.encodedFragment() || !url.encodedUsername().empty() || !url.encodedPassword().empty()) {
      result +=
          url.newBuilder().username("").password("").fragment(std::nullopt).build().toString();
    } else {
      result += url.toString();
    }
  } else {
    result += requestPath(request.url());
  }
  result += " HTTP/1.1";
  return result;
}

std::string requestPath(const HttpUrl& url) {
  std::string result = url.encodedPath();
  if (std::optional<std::string> query = url.encodedQuery()) {
    result += '?';
    result += *query;
  }
  return result;
}

}  // namespace tern::internal
