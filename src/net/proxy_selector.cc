// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#include "tern/proxy_selector.h"

#include <charconv>
#include <cstdlib>
#include <utility>

#include "io/ascii.h"
#include "tern/inet_address.h"

namespace tern {
namespace {

class NoProxySelector final : public ProxySelector {
 public:
  std::vector<Proxy> select(const HttpUrl& /*url*/) override { return {Proxy::direct()}; }
};

// A proxy setting as read: the proxy, or why it could not be parsed, and where it came from.
struct Setting {
  std::string variable;  // "https_proxy", or "" for a proxy given in code.
  std::optional<Proxy> proxy;
  std::string error;  // Set when the value could not be parsed.

  static std::optional<Setting> parse(std::string variable, const std::string& value) {
    if (value.empty()) return std::nullopt;
    Setting setting{std::move(variable), std::nullopt, {}};
    try {
      setting.proxy = Proxy::parse(value);
    } catch (const std::invalid_argument& e) {
      setting.error = e.what();
    }
    return setting;
  }
};

// curl's rules: one proxy per scheme (falling back to one for all), hosts in a no-proxy list go
// direct.
class RulesProxySelector final : public ProxySelector {
 public:
  RulesProxySelector(std::optional<Setting> http, std::optional<Setting> https,
                     std::optional<Setting> all, std::string noProxy)
      : http_(std::move(http)),
        https_(std::move(https)),
        all_(std::move(all)),
        noProxy_(std::move(noProxy)) {}

  std::vector<Proxy> select(const HttpUrl& url) override {
    const std::optional<Setting>& own = url.isHttps() ? https_ : http_;
    const std::optional<Setting>& setting = own ? own : all_;
    if (!setting || matchesNoProxy(url.host(), noProxy_)) return {Proxy::direct()};
    if (!setting->proxy) {
      throw IOException(setting->error + (setting->variable.empty()
                                              ? std::string()
                                              : " (from the " + setting->variable + " variable)"));
    }
    return {*setting->proxy};
  }

 private:
  const std::optional<Setting> http_;
  const std::optional<Setting> https_;
  const std::optional<Setting> all_;
  const std::string noProxy_;
};

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  return s;
}

// `address` within `network`/`bits` (both the same family).
bool inRange(const InetAddress& address, const InetAddress& network, int bits) {
  auto a = address.address();
  auto n = network.address();
  for (int i = 0; i < static_cast<int>(a.size()) && bits > 0; ++i, bits -= 8) {
    const uint8_t mask = bits >= 8 ? 0xff : static_cast<uint8_t>(0xff << (8 - bits));
    if ((a[i] & mask) != (n[i] & mask)) return false;
  }
  return true;
}

bool matchesEntry(std::string_view host, std::optional<InetAddress> hostIp,
                  std::string_view entry) {
  if (hostIp) {
    // An IP address, or a range: "192.168.0.0/16", "::1", "[::1]".
    std::string_view bitsText;
    if (size_t slash = entry.find('/'); slash != std::string_view::npos) {
      bitsText = entry.substr(slash + 1);
      entry = entry.substr(0, slash);
    }
    std::optional<InetAddress> network = InetAddress::parse(entry);
    if (!network || network->isIpv6() != hostIp->isIpv6()) return false;
    const int maxBits = hostIp->isIpv6() ? 128 : 32;
    int bits = maxBits;
    if (!bitsText.empty()) {
      auto [end, ec] = std::from_chars(bitsText.data(), bitsText.data() + bitsText.size(), bits);
      if (ec != std::errc() || end != bitsText.data() + bitsText.size() || bits < 0 ||
          bits > maxBits) {
        return false;
      }
    }
    return inRange(*hostIp, *network, bits);
  }
  // A domain: itself and its subdomains; a leading or trailing dot changes nothing.
  if (!entry.empty() && entry.front() == '.') entry.remove_prefix(1);
  if (!entry.empty() && entry.back() == '.') entry.remove_suffix(1);
  if (!host.empty() && host.back() == '.') host.remove_suffix(1);
  if (entry.empty()) return false;
  std::string lowerEntry = internal::toLowerAscii(entry);
  std::string lowerHost = internal::toLowerAscii(host);
  if (lowerHost == lowerEntry) return true;
  return lowerHost.size() > lowerEntry.size() && lowerHost.ends_with(lowerEntry) &&
         lowerHost[lowerHost.size() - lowerEntry.size() - 1] == '.';
}

}  // namespace

bool matchesNoProxy(std::string_view host, std::string_view noProxy) {
  noProxy = trim(noProxy);
  if (noProxy == "*") return true;
  std::optional<InetAddress> hostIp = InetAddress::parse(host);
  while (!noProxy.empty()) {
    size_t end = noProxy.find_first_of(", ");
    std::string_view entry = trim(noProxy.substr(0, end));
    noProxy = end == std::string_view::npos ? std::string_view() : noProxy.substr(end + 1);
    if (!entry.empty() && matchesEntry(host, hostIp, entry)) return true;
  }
  return false;
}

const std::shared_ptr<ProxySelector>& ProxySelector::noProxy() {
  static const std::shared_ptr<ProxySelector> instance = std::make_shared<NoProxySelector>();
  return instance;
}

std::shared_ptr<ProxySelector> ProxySelector::of(Proxy proxy, std::string_view noProxy) {
  if (proxy.isDirect()) return ProxySelector::noProxy();
  std::optional<Setting> all = Setting{"", std::move(proxy), {}};
  return std::make_shared<RulesProxySelector>(std::nullopt, std::nullopt, std::move(all),
                                              std::string(noProxy));
}

std::shared_ptr<ProxySelector> ProxySelector::fromEnvironment() {
  return fromEnvironment([](const std::string& name) -> std::optional<std::string> {
    const char* value = std::getenv(name.c_str());
    if (value == nullptr) return std::nullopt;
    return std::string(value);
  });
}

std::shared_ptr<ProxySelector> ProxySelector::fromEnvironment(
    const std::function<std::optional<std::string>(const std::string& name)>& getenv) {
  // The lower-case name first, then (except http_proxy) the upper-case one, as curl reads them.
  auto read = [&](const std::string& lower, const std::string& upper) -> std::optional<Setting> {
    for (const std::string* name : {&lower, &upper}) {
      if (name->empty()) continue;
      if (std::optional<std::string> value = getenv(*name); value && !value->empty()) {
        return Setting::parse(*name, *value);
      }
    }
    return std::nullopt;
  };
  std::optional<Setting> http = read("http_proxy", "");
  std::optional<Setting> https = read("https_proxy", "HTTPS_PROXY");
  std::optional<Setting> all = read("all_proxy", "ALL_PROXY");
  if (!http && !https && !all) return noProxy();
  std::string noProxyList;
  for (const char* name : {"no_proxy", "NO_PROXY"}) {
    if (std::optional<std::string> value = getenv(name); value && !value->empty()) {
      noProxyList = *value;
      break;
    }
  }
  return std::make_shared<RulesProxySelector>(std::move(http), std::move(https), std::move(all),
                                              std::move(noProxyList));
}

}  // namespace tern
