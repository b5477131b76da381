// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#pragma once

#include <functional>
#include <memory>
#include <optional>
#include <string>

#include "exit_code.h"
#include "options.h"
#include "tern/http_url.h"
#include "tern/proxy.h"
#include "tern/proxy_selector.h"

namespace tern::tool {

// The proxies of a run, chosen as curl 7.88 chooses them:
// - -x/--proxy, --socks5, --socks5-hostname (Options::proxy): that proxy for every URL, except
//   the hosts in --noproxy's list or, without --noproxy, in no_proxy / NO_PROXY's (curl applies
//   the environment's list to -x too). A path after the proxy's host and port is ignored, as
//   curl ignores it. "" means no proxy at all, not even the environment's;
// - otherwise the environment's, as the library reads it (ProxySelector::fromEnvironment():
//   http_proxy lower case only, https_proxy / HTTPS_PROXY, all_proxy / ALL_PROXY), with
//   --noproxy instead of no_proxy / NO_PROXY when it is given (--noproxy "" overrides them);
// - -U/--proxy-user gives the credentials of a proxy that has none of its own (a proxy's
//   "user:password@" wins, as in curl).
// Immutable after construction; select() is thread-safe.
class ProxySetup {
 public:
  using Getenv = std::function<std::optional<std::string>(const std::string& name)>;

  // `getenv` reads the environment; by default the process's.
  explicit ProxySetup(const Options& options, const Getenv& getenv = processEnvironment());

  // The selector the run's client uses.
  const std::shared_ptr<ProxySelector>& selector() const noexcept { return selector_; }

  // The proxy a transfer to `url` goes through (Proxy::direct() for none). Throws ToolException
  // where curl fails the transfer before it connects: a proxy that does not parse (exit 5,
  // "Unsupported proxy syntax in 'SPEC'"), an unknown scheme (7, "Unsupported proxy scheme for
  // 'SPEC'"), and what tern does not support (4, curl's CURLE_NOT_BUILT_IN): SOCKS4.
  Proxy select(const HttpUrl& url) const;

  // The environment of this process.
  static Getenv processEnvironment();

 private:
  std::shared_ptr<ProxySelector> selector_;
  std::optional<ToolException> unusable_;  // A -x the tool cannot use: every transfer fails.
};

}  // namespace tern::tool
