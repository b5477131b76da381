// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#include "call/bridge_interceptor.h"

#include <string>
#include <utility>
#include <vector>

#include "http/http_syntax.h"
#include "http/message_framing.h"
#include "io/ascii.h"
#include "io/content_decoding.h"
#include "tern/buffered_source.h"
#include "tern/version.h"

namespace tern::internal {
namespace {

// "a=b; c=d" (RFC 6265 §5.4).
std::string cookieHeader(const std::vector<Cookie>& cookies) {
  std::string result;
  for (const Cookie& cookie : cookies) {
    if (!result.empty()) result += "; ";
    result += cookie.name() + "=" + cookie.value();
  }
  return result;
}

// A Source that reads a ResponseBody it owns: lets a decoder wrap a body that must stay alive
// (and close the connection's source when closed).
class ResponseBodySource final : public Source {
 public:
  explicit ResponseBodySource(ResponseBody body) : body_(std::move(body)) {}
  int64_t read(Buffer& sink, int64_t byteCount) override {
    return body_.source().read(sink, byteCount);
  }
  Timeout& timeout() override { return body_.source().timeout(); }
  void close() override { body_.close(); }

 private:
  ResponseBody body_;
};

}  // namespace

BridgeInterceptor::BridgeInterceptor(std::shared_ptr<CookieJar> cookieJar,
                                     std::string acceptEncoding, double maxDecompressionRatio)
    : cookieJar_(std::move(cookieJar)),
      acceptEncoding_(std::move(acceptEncoding)),
      maxDecompressionRatio_(maxDecompressionRatio) {
  for (std::string& coding : listTokens(acceptEncoding_)) {
    if (isDecodableContentCoding(coding)) offered_.push_back(std::move(coding));
  }
}

std::vector<std::string> BridgeInterceptor::codingsToDecode(const Headers& headers) const {
  std::vector<std::string> codings;
  for (const std::string& value : headers.values("Content-Encoding")) {
    for (std::string& coding : listTokens(value)) {
      if (equalsIgnoreCase(coding, "identity")) continue;
      bool offered = false;
      for (const std::string& ours : offered_) offered = offered || equalsIgnoreCase(coding, ours);
      if (!offered) return {};  // A coding we did not ask for: the caller gets the body as sent.
      codings.push_back(std::move(coding));
    }
  }
  return codings;
}

std::string hostHeader(const HttpUrl& url) {
  // Appended piece by piece: g++ 12 at -O3 warns (-Wrestrict, a false positive, GCC bug 105329)
  // on "[" + host + "]", and a user's Release build must not fail on it.
  const std::string& host = url.host();
  const bool ipv6 = host.find(':') != std::string::npos;
  std::string result;
  result.reserve(host.size() + 8);
  if (ipv6) result += '[';
  result += host;
  if (ipv6) result += ']';
  if (url.port() != HttpUrl::defaultPort(url.scheme())) {
    result += ':';
    result += std::to_string(url.port());
  }
  return result;
}

Response BridgeInterceptor::intercept(Chain& chain) {
  const Request& userRequest = chain.request();
  Request::Builder requestBuilder = userRequest.newBuilder();

  if (const std::shared_ptr<RequestBody>& body = userRequest.body()) {
    if (std::optional<MediaType> contentType = body->contentType()) {
      requestBuilder.header("Content-Type", contentType->toString());
    }
    int64_t contentLength = body->contentLength();
    if (contentLength != -1) {
      requestBuilder.header("Content-Length", std::to_string(contentLength));
      requestBuilder.removeHeader("Transfer-Encoding");
    } else {
      requestBuilder.header("Transfer-Encoding", "chunked");
      requestBuilder.removeHeader("Content-Length");
    }
  }

  if (!userRequest.header("Host")) requestBuilder.header("Host", hostHeader(userRequest.url()));
  if (!userRequest.header("Connection")) requestBuilder.header("Connection", "Keep-Alive");

  // We ask for the codings we decode only when the caller did not pick an encoding; then we
  // also decode them. A Range request is left alone: its offsets would be into the compressed
  // bytes.
  bool transparentDecoding = false;
  if (!userRequest.header("Accept-Encoding") && !userRequest.header("Range") &&
      !acceptEncoding_.empty()) {
    transparentDecoding = true;
    requestBuilder.header("Accept-Encoding", acceptEncoding_);
  }

  std::vector<Cookie> cookies = cookieJar_->loadForRequest(userRequest.url());
  if (!cookies.empty()) requestBuilder.header("Cookie", cookieHeader(cookies));

  if (!userRequest.header("User-Agent")) requestBuilder.header("User-Agent", userAgent());

  Response networkResponse = chain.proceed(std::move(requestBuilder).build());

  if (cookieJar_ != CookieJar::noCookies()) {
    std::vector<Cookie> received = Cookie::parseAll(userRequest.url(), networkResponse.headers());
    if (!received.empty()) cookieJar_->saveFromResponse(userRequest.url(), received);
  }

  std::vector<std::string> codings;
  if (transparentDecoding && promisesBody(networkResponse) && networkResponse.body()) {
    codings = codingsToDecode(networkResponse.headers());
  }
  if (codings.empty()) {
    return std::move(networkResponse).newBuilder().request(userRequest).build();
  }

  Headers strippedHeaders = networkResponse.headers()
                                .newBuilder()
                                .removeAll("Content-Encoding")
                                .removeAll("Content-Length")
                                .build();
  ResponseBody networkBody = std::move(*networkResponse.body());
  std::optional<MediaType> contentType = networkBody.contentType();
  std::unique_ptr<Source> decoded =
      decodingSource(std::make_unique<ResponseBodySource>(std::move(networkBody)), codings,
                     maxDecompressionRatio_);
  return std::move(networkResponse)
      .newBuilder()
      .request(userRequest)
      .headers(strippedHeaders)
      .body(ResponseBody(buffer(std::move(decoded)), std::move(contentType), -1))
      .build();
}

}  // namespace tern::internal
