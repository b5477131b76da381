// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>

#include "debug_output.h"
#include "tern/interceptor.h"
#include "tern/request.h"
#include "tern/response.h"

namespace tern::tool {

// How curl -L follows redirects, which is not OkHttp's way (the tool's client does not follow
// any; this application interceptor does, for -L only):
// - 300, 301, 302, 303, 307 and 308 with a Location are followed; the Location is resolved
//   against the request's URL;
// - a POST (-d, -F) becomes a GET without body after 301, 302 and 303; 303 makes every method
//   but HEAD a GET; 307 and 308 keep the method and the body; any other method (a PUT) is kept
//   after 301 and 302 (OkHttp turns it into a GET);
// - -X's method is sent on every hop, as curl does (even where the body was dropped);
// - to another host, port or scheme, Authorization and Cookie are not sent (curl without
//   --location-trusted);
// - at most `maxRedirects` (--max-redirs, 50 by default, -1 for no limit): the redirect after
//   them is returned unfollowed, and the caller (which sees limitReached()) fails the transfer
//   with curl's exit 47 once -w can report that last response, as curl's does.
// The final response carries the redirects as its priorResponse() chain (bodies closed).
// Stateless, so thread-safe: -Z calls share one.
class RedirectFollower final : public Interceptor {
 public:
  // Told of each redirect followed, before the next request goes (for -v and the call's trace):
  // the call, the redirect, the next request, and whether a POST became a GET.
  using Listener = std::function<void(const Call& call, const Response& redirect,
                                      const Request& next, bool switchedToGet)>;

  // `customMethod` is -X's method, if given; `baseMethod` the one the other options imply (GET,
  // HEAD for -I, POST for -d and -F), which decides what a redirect does to the body. `debug`
  // (-v, a trace; may be null) is shown the redirect bodies read and dropped.
  // With `trusted` (--location-trusted) Authorization and Cookie go to every host; without, not
  // to another host, port or scheme. With `autoReferer` (-e ";auto") each hop's Referer is the
  // URL it was redirected from, without user, password or fragment.
  RedirectFollower(int64_t maxRedirects, std::optional<std::string> customMethod,
                   std::string baseMethod, Listener listener = {},
                   std::shared_ptr<DebugOutput> debug = nullptr, bool trusted = false,
                   bool autoReferer = false);

  Response intercept(Chain& chain) override;

  // True if `response` (the call's final one) is a redirect -L would have followed but for
  // --max-redirs.
  bool limitReached(const Response& response) const;

  int64_t maxRedirects() const noexcept { return maxRedirects_; }

  // The request curl sends after `response` to `request`, or nullopt if it is not a redirect to
  // follow. `baseMethod` is the method without -X (GET, HEAD, POST, PUT), updated for the next
  // hop. Throws ToolException (exit 1) for a Location with a scheme other than http(s).
  std::optional<Request> followUp(const Request& request, const Response& response,
                                  std::string& baseMethod) const;

 private:
  int64_t maxRedirects_;
  std::optional<std::string> customMethod_;
  std::string baseMethod_;
  Listener listener_;
  std::shared_ptr<DebugOutput> debug_;
  bool trusted_;
  bool autoReferer_;
};

}  // namespace tern::tool
