// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#include "redirect_follower.h"

#include <array>
#include <cstddef>
#include <span>
#include <utility>
#include <vector>

#include "exit_code.h"
#include "request_factory.h"
#include "tern/buffered_source.h"
#include "tern/http_url.h"
#include "tern/request_body.h"
#include "tern/response_body.h"

namespace tern::tool {
namespace {

// A redirect's body is read and dropped so its connection can carry the next hop, as curl does;
// one larger than this is closed instead (the connection with it).
constexpr int64_t kMaxDrainedBody = int64_t{64} * 1024;

bool isFollowedCode(int code) {
  return code == 300 || code == 301 || code == 302 || code == 303 || code == 307 || code == 308;
}

bool sameOrigin(const HttpUrl& a, const HttpUrl& b) {
  return a.scheme() == b.scheme() && a.host() == b.host() && a.port() == b.port();
}

// `debug` (-v, a trace) is shown the bytes read, as curl's.
void discard(Response& response, DebugOutput* debug) {
  ResponseBody* body = response.body();
  if (body == nullptr) return;
  try {
    if (body->contentLength() >= 0 && body->contentLength() <= kMaxDrainedBody) {
      std::array<std::byte, 8192> chunk{};
      for (int64_t n; (n = body->source().read(std::span(chunk))) != -1;) {
        if (debug != nullptr) {
          debug->dataIn({reinterpret_cast<const char*>(chunk.data()), static_cast<size_t>(n)});
        }
      }
    }
  } catch (const IOException&) {
    // Safe to ignore: the redirect's body is not shown, and a broken connection is not reused.
  }
  body->close();
}

}  // namespace

RedirectFollower::RedirectFollower(int64_t maxRedirects, std::optional<std::string> customMethod,
                                   std::string baseMethod, Listener listener,
                                   std::shared_ptr<DebugOutput> debug, bool trusted,
                                   bool autoReferer)
    : maxRedirects_(maxRedirects),
      customMethod_(std::move(customMethod)),
      baseMethod_(std::move(baseMethod)),
      listener_(std::move(listener)),
      debug_(std::move(debug)),
      trusted_(trusted),
      autoReferer_(autoReferer) {}

std::optional<Request> RedirectFollower::followUp(const Request& request, const Response& response,
                                                  std::string& baseMethod) const {
  std::optional<std::string> location = response.header("Location");
  if (!isFollowedCode(response.code()) || !location) return std::nullopt;
  std::optional<HttpUrl> url = request.url().resolve(*location);
  if (!url) {
    size_t colon = location->find("://");
    if (colon != std::string::npos) {
      throw ToolException(kExitUnsupportedProtocol,
                          "Protocol \"" + location->substr(0, colon) + "\" not supported");
    }
    return std::nullopt;
  }

  bool dropBody = false;
  int code = response.code();
  if ((code == 301 || code == 302) && baseMethod == "POST") {
    dropBody = true;
  } else if (code == 303 && baseMethod != "HEAD") {
    dropBody = true;
  }
  if (dropBody) baseMethod = "GET";

  Request::Builder next = request.newBuilder();
  next.url(*url);
  std::string method = customMethod_.value_or(baseMethod);
  std::shared_ptr<RequestBody> body = dropBody ? nullptr : request.body();
  if (body == nullptr && methodNeedsBody(method)) {
    body = placeholderBody();
  }
  if (method == "GET" || method == "HEAD") body = nullptr;
  next.method(method, body);
  if (autoReferer_) {
    next.header("Referer", request.url()
                               .newBuilder()
                               .username("")
                               .password("")
                               .fragment(std::nullopt)
                               .build()
                               .toString());
  }
  if (!trusted_ && !sameOrigin(request.url(), *url)) {
    next.removeHeader("Authorization");
    next.removeHeader("Cookie");
  }
  return next.build();
}

bool RedirectFollower::limitReached(const Response& response) const {
  std::string baseMethod = baseMethod_;
  return followUp(response.request(), response, baseMethod).has_value();
}

Response RedirectFollower::intercept(Chain& chain) {
  Request request = chain.request();
  std::string baseMethod = baseMethod_;
  std::optional<Response> prior;
  for (int64_t redirects = 0;; ++redirects) {
    Response response = chain.proceed(request);
    if (prior) {
      response = std::move(response).newBuilder().priorResponse(std::move(prior)).build();
      prior.reset();
    }
    std::string methodBefore = baseMethod;
    std::optional<Request> next = followUp(request, response, baseMethod);
    if (!next) return response;
    if (maxRedirects_ >= 0 && redirects >= maxRedirects_) return response;
    discard(response, debug_.get());
    if (listener_) listener_(chain.call(), response, *next, methodBefore != baseMethod);
    prior = std::move(response).newBuilder().body(std::nullopt).build();
    request = std::move(*next);
  }
}

}  // namespace tern::tool
