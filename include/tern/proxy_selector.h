// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#pragma once

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "tern/exceptions.h"
#include "tern/export.h"
#include "tern/http_url.h"
#include "tern/proxy.h"

namespace tern {

// Chooses the proxies for a URL, as Java's ProxySelector (which OkHttp asks when no proxy is
// set on the client). The client tries them in order: when connecting through one fails, it
// tells the selector (connectFailed) and tries the next; the client's RouteDatabase also
// remembers the failed route, so it is tried last next time. Implementations must be
// thread-safe: concurrent calls select concurrently.
class TERN_API ProxySelector {
 public:
  virtual ~ProxySelector() = default;

  // The proxies to try for `url`, in order. Empty, or [Proxy::direct()], means a direct
  // connection. May throw IOException (say, for a proxy setting that cannot be parsed): the call
  // fails with it.
  virtual std::vector<Proxy> select(const HttpUrl& url) = 0;

  // Connecting to `proxy` for `url` failed with `failure`. The default does nothing.
  virtual void connectFailed(const HttpUrl& /*url*/, const Proxy& /*proxy*/,
                             const IOException& /*failure*/) {}

  // Always direct.
  static const std::shared_ptr<ProxySelector>& noProxy();

  // `proxy` for every URL whose host `noProxy` does not exclude. `noProxy` is a list as curl's
  // --noproxy and no_proxy take it: host names and domains separated by commas (or spaces), each
  // matching itself and its subdomains ("example.com" and ".example.com" both match
  // "api.example.com" and "example.com"), IP addresses, and IP ranges in CIDR notation
  // ("10.0.0.0/8", "::1/128"); "*" alone excludes every host. Ports are ignored.
  static std::shared_ptr<ProxySelector> of(Proxy proxy, std::string_view noProxy = {});

  // The proxies curl would use, from the process environment as it is now:
  //   http_proxy               for http:// URLs: lower case only, never HTTP_PROXY (a CGI
  //                            server sets that one from a request's "Proxy:" header: httpoxy);
  //   https_proxy, HTTPS_PROXY for https:// URLs (lower case first);
  //   all_proxy, ALL_PROXY     for either, when the scheme's own is not set;
  //   no_proxy, NO_PROXY       the hosts to reach directly (see of()).
  // Values are parsed as Proxy::parse() does; an empty value is unset. A value that cannot be
  // parsed fails each call it applies to with IOException naming the variable. The client's
  // default selector.
  static std::shared_ptr<ProxySelector> fromEnvironment();

  // The same, reading the variables through `getenv` (nullopt: unset), for tests and for tools
  // that keep their own environment.
  static std::shared_ptr<ProxySelector> fromEnvironment(
      const std::function<std::optional<std::string>(const std::string& name)>& getenv);
};

// True if `host` (a URL's host: a name, or an IP literal without brackets) matches curl's
// no_proxy list `noProxy` (see ProxySelector::of()).
TERN_API bool matchesNoProxy(std::string_view host, std::string_view noProxy);

}  // namespace tern
