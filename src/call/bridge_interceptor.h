// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "tern/cookie_jar.h"
#include "tern/interceptor.h"

namespace tern::internal {

// Turns the application's request into a network request and the network response back into
// what the application expects, as OkHttp's BridgeInterceptor. On the way out it adds what the
// caller left out: Content-Type, Content-Length or "Transfer-Encoding: chunked" for the body,
// Host, "Connection: Keep-Alive", "Accept-Encoding: br, zstd, gzip" (unless the caller chose an
// encoding or asked for a Range), the jar's cookies and "User-Agent: tern/VERSION". On the way
// back it hands Set-Cookie headers to the jar and, if it asked for codings and got them (one, or
// several stacked), decodes the body transparently: the response then has no Content-Encoding or
// Content-Length. A coding it did not ask for leaves the response as it came, as do responses
// without a body (HEAD, 204, 304). A corrupt body, or one past the decompression ratio limit,
// fails its reads with ContentDecodingException (io/content_decoding.h).
class BridgeInterceptor final : public Interceptor {
 public:
  // What a client asks for: the codings of okhttp-brotli and okhttp-zstd, with gzip (their
  // order is no preference: without q-values all are equally acceptable, RFC 9110 §12.5.3).
  static constexpr const char* kAcceptEncoding = "br, zstd, gzip";

  // `acceptEncoding`: the Accept-Encoding to send; of its codings, those decodingSource() knows
  // are decoded. Empty: ask for none and decode none. `maxDecompressionRatio`: as
  // Client::Builder::maxDecompressionRatio().
  BridgeInterceptor(std::shared_ptr<CookieJar> cookieJar, std::string acceptEncoding,
                    double maxDecompressionRatio);

  Response intercept(Chain& chain) override;

 private:
  // The codings to decode, in the order applied, or none if the response is not encoded or used
  // a coding we did not offer.
  std::vector<std::string> codingsToDecode(const Headers& headers) const;

  std::shared_ptr<CookieJar> cookieJar_;
  const std::string acceptEncoding_;
  const double maxDecompressionRatio_;
  std::vector<std::string> offered_;  // acceptEncoding_'s decodable codings.
};

// The Host header for `url` (RFC 9112 §3.2): the host, bracketed if IPv6, with the port unless
// it is the scheme's default.
std::string hostHeader(const HttpUrl& url);

}  // namespace tern::internal
