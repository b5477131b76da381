// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#include "proxy_setup.h"

#include <cstdlib>
#include <stdexcept>
#include <string_view>
#include <utility>
#include <vector>

#include "tern/exceptions.h"

namespace tern::tool {
namespace {

std::string lowerCase(std::string_view text) {
  std::string lower(text);
  for (char& c : lower) c = c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c;
  return lower;
}

// curl's failure for a proxy SPEC that Proxy::parse() refused because of `why`.
ToolException unusableProxy(const std::string& spec, std::string_view why) {
  size_t colon = spec.find("://");
  std::string scheme = colon == std::string::npos ? "" : lowerCase(spec.substr(0, colon));
  if (scheme == "socks4" || scheme == "socks4a") {
    return ToolException(kExitNotBuiltIn,
                         "Unsupported proxy '" + spec + "', tern speaks SOCKS5 but not SOCKS4");
  }
  if (why.find("unsupported scheme") != std::string_view::npos) {
    return ToolException(kExitCouldntConnect, "Unsupported proxy scheme for '" + spec + "'");
  }
  return ToolException(kExitCouldntResolveProxy, "Unsupported proxy syntax in '" + spec + "'");
}

// curl ignores a path after the proxy's host and port ("http://proxy:3128/"); the library's
// Proxy::parse() refuses one but a trailing '/'.
std::string withoutPath(const std::string& spec) {
  size_t colon = spec.find("://");
  size_t authority = colon == std::string::npos ? 0 : colon + 3;
  size_t slash = spec.find('/', authority);
  return slash == std::string::npos ? spec : spec.substr(0, slash);
}

// "user:password" (-U) as a username and a password; without ':', an empty password.
std::pair<std::string, std::string> splitCredentials(const std::string& userPassword) {
  size_t colon = userPassword.find(':');
  if (colon == std::string::npos) return {userPassword, ""};
  return {userPassword.substr(0, colon), userPassword.substr(colon + 1)};
}

// The environment's proxies, with -U's credentials for those that carry none.
class CredentialsProxySelector final : public ProxySelector {
 public:
  CredentialsProxySelector(std::shared_ptr<ProxySelector> delegate, std::string username,
                           std::string password)
      : delegate_(std::move(delegate)),
        username_(std::move(username)),
        password_(std::move(password)) {}

  std::vector<Proxy> select(const HttpUrl& url) override {
    std::vector<Proxy> proxies = delegate_->select(url);
    for (Proxy& proxy : proxies) {
      if (!proxy.isDirect() && !proxy.hasCredentials()) {
        proxy = proxy.withCredentials(username_, password_);
      }
    }
    return proxies;
  }

  void connectFailed(const HttpUrl& url, const Proxy& proxy, const IOException& failure) override {
    delegate_->connectFailed(url, proxy, failure);
  }

 private:
  const std::shared_ptr<ProxySelector> delegate_;
  const std::string username_;
  const std::string password_;
};

}  // namespace

ProxySetup::Getenv ProxySetup::processEnvironment() {
  return [](const std::string& name) -> std::optional<std::string> {
    const char* value = std::getenv(name.c_str());
    if (value == nullptr) return std::nullopt;
    return std::string(value);
  };
}

ProxySetup::ProxySetup(const Options& options, const Getenv& getenv) {
  std::optional<std::pair<std::string, std::string>> credentials;
  if (options.proxyUser) credentials = splitCredentials(*options.proxyUser);
  if (!options.proxy) {
    // The environment's proxies, with --noproxy in place of its no-proxy list.
    Getenv environment = getenv;
    if (options.noProxy) {
      environment = [getenv, noProxy = *options.noProxy](const std::string& name) {
        if (name == "no_proxy" || name == "NO_PROXY") return std::optional<std::string>(noProxy);
        return getenv(name);
      };
    }
    selector_ = ProxySelector::fromEnvironment(environment);
    if (credentials && selector_ != ProxySelector::noProxy()) {
      selector_ = std::make_shared<CredentialsProxySelector>(
          std::move(selector_), std::move(credentials->first), std::move(credentials->second));
    }
    return;
  }
  selector_ = ProxySelector::noProxy();
  if (options.proxy->empty()) return;  // -x "": no proxy, whatever the environment says.
  try {
    Proxy proxy = Proxy::parse(withoutPath(*options.proxy));
    if (credentials && !proxy.hasCredentials()) {
      proxy = proxy.withCredentials(credentials->first, credentials->second);
    }
    std::string noProxy;
    if (options.noProxy) {
      noProxy = *options.noProxy;
    } else {
      for (const char* name : {"no_proxy", "NO_PROXY"}) {
        if (std::optional<std::string> value = getenv(name); value && !value->empty()) {
          noProxy = *value;
          break;
        }
      }
    }
    selector_ = ProxySelector::of(std::move(proxy), noProxy);
  } catch (const std::invalid_argument& e) {
    unusable_ = unusableProxy(*options.proxy, e.what());
  }
}

Proxy ProxySetup::select(const HttpUrl& url) const {
  if (unusable_) throw *unusable_;
  std::vector<Proxy> proxies;
  try {
    proxies = selector_->select(url);
  } catch (const IOException& e) {
    // A proxy variable that does not parse: 'Invalid proxy "SPEC": why (from the NAME variable)'.
    std::string_view message = e.what();
    constexpr std::string_view kInvalid = "Invalid proxy \"";
    size_t end = message.find("\": ");
    if (!message.starts_with(kInvalid) || end == std::string_view::npos) throw;
    throw unusableProxy(std::string(message.substr(kInvalid.size(), end - kInvalid.size())),
                        message.substr(end));
  }
  if (proxies.empty()) return Proxy::direct();
  return proxies.front();
}

}  // namespace tern::tool
