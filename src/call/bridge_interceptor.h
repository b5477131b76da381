// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#pragma once

#include <memory>

#include "tern/cookie_jar.h"
#include "tern/interceptor.h"

namespace tern::internal {

// Turns the application's request into a network request and the network response back into
// what the application expects, as OkHttp's BridgeInterceptor. On the way out it adds what the
// caller left out: Content-Type, Content-Length or "Transfer-Encoding: chunked" for the body,
// Host, "Connection: Keep-Alive", "Accept-Encoding: gzip" (unless the caller chose an encoding or
// asked for a Range), the jar's cookies and "User-Agent: tern/VERSION". On the way back it hands
// Set-Cookie headers to the jar and, if it asked for gzip and got it, decompresses the body
// transparently: the response then has no Content-Encoding or Content-Length.
class BridgeInterceptor final : public Interceptor {
 public:
  explicit BridgeInterceptor(std::shared_ptr<CookieJar> cookieJar)
      : cookieJar_(std::move(cookieJar)) {}

  Response intercept(Chain& chain) override;

 private:
  std::shared_ptr<CookieJar> cookieJar_;
};

// The Host header for `url` (RFC 9112 §3.2): the host, bracketed if IPv6, with the port unless
// it is the scheme's default.
std::string hostHeader(const HttpUrl& url);

}  // namespace tern::internal
