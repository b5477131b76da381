// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#include "tern/address.h"

#include <stdexcept>
#include <utility>
#include <vector>

#include "connection/address_access.h"
#include "io/ascii.h"
#include "tern/authenticator.h"
#include "url/http_url_data.h"

namespace tern {
namespace {

int checkPort(int port) {
  if (port < 1 || port > 65535) {
    throw std::invalid_argument("Address: unexpected port: " + std::to_string(port));
  }
  return port;
}

// Whether `a` and `b` make the same TCP connections: equal but for HTTP_3. h3 is never offered
// in TCP's ALPN (it is found by Alt-Svc), so a client that adds it would otherwise stop sharing
// the very connections it still makes over TCP with the client it was derived from.
bool sameTcpProtocols(const std::vector<Protocol>& a, const std::vector<Protocol>& b) {
  auto i = a.begin();
  auto j = b.begin();
  while (true) {
    while (i != a.end() && *i == Protocol::HTTP_3) ++i;
    while (j != b.end() && *j == Protocol::HTTP_3) ++j;
    if (i == a.end() || j == b.end()) return i == a.end() && j == b.end();
    if (*i++ != *j++) return false;
  }
}

}  // namespace

Address::Address(std::string_view uriHost, int uriPort, std::shared_ptr<Dns> dns,
                 std::shared_ptr<internal::TlsContext> sslContext,
                 std::shared_ptr<HostnameVerifier> hostnameVerifier,
                 std::optional<CertificatePinner> certificatePinner,
                 std::shared_ptr<Authenticator> proxyAuthenticator, std::vector<Protocol> protocols,
                 std::vector<ConnectionSpec> connectionSpecs, std::optional<Proxy> proxy,
                 std::shared_ptr<ProxySelector> proxySelector)
    : url_(HttpUrl::Builder()
               .scheme(sslContext ? "https" : "http")
               .host(uriHost)
               .port(checkPort(uriPort))
               .build()) {
  if (!dns) throw std::invalid_argument("Address: dns == null");
  if (!proxyAuthenticator) throw std::invalid_argument("Address: proxyAuthenticator == null");
  if (sslContext && !hostnameVerifier) {
    throw std::invalid_argument("Address: hostnameVerifier == null for https");
  }
  if (sslContext && !certificatePinner) {
    throw std::invalid_argument("Address: certificatePinner == null for https");
  }
  if (!sslContext) {
    // Meaningless without TLS; dropped so that http addresses compare equal regardless.
    hostnameVerifier.reset();
    certificatePinner.reset();
  }
  settings_ = std::make_shared<const Settings>(
      Settings{std::move(dns),
               std::move(sslContext),
               std::move(hostnameVerifier),
               std::move(certificatePinner),
               std::move(proxyAuthenticator),
               std::move(protocols),
               std::move(connectionSpecs),
               std::move(proxy),
               proxySelector ? std::move(proxySelector) : ProxySelector::noProxy(),
               nullptr,
               nullptr,
               std::nullopt,
               {}});
}

Address::Address(std::string_view uriHost, int uriPort, std::shared_ptr<Dns> dns,
                 std::shared_ptr<Authenticator> proxyAuthenticator, std::vector<Protocol> protocols)
    : Address(uriHost, uriPort, std::move(dns), nullptr, nullptr, std::nullopt,
              std::move(proxyAuthenticator), std::move(protocols),
              {ConnectionSpec::MODERN_TLS, ConnectionSpec::CLEARTEXT}) {}

bool Address::equalsNonHost(const Address& other) const noexcept {
  const Settings& a = *settings_;
  const Settings& b = *other.settings_;
  bool sameSettings =
      &a == &b ||  // Addresses one client made: the usual case, and no lists to compare.
      (a.dns == b.dns && a.proxyAuthenticator == b.proxyAuthenticator &&
       sameTcpProtocols(a.protocols, b.protocols) && a.connectionSpecs == b.connectionSpecs &&
       a.sslContext == b.sslContext && a.hostnameVerifier == b.hostnameVerifier &&
       a.certificatePinner == b.certificatePinner && a.proxy == b.proxy &&
       a.proxySelector == b.proxySelector && a.proxySslContext == b.proxySslContext &&
       a.unixSocket == b.unixSocket && a.connectTo == b.connectTo);
  return sameSettings && url_.scheme() == other.url_.scheme() && url_.port() == other.url_.port();
}

bool Address::operator==(const Address& other) const noexcept {
  return url_ == other.url_ && equalsNonHost(other);
}

const ConnectTo* ConnectTo::match(const std::vector<ConnectTo>& rules, std::string_view host,
                                  int port) noexcept {
  for (const ConnectTo& rule : rules) {
    if (!rule.host.empty() && !internal::equalsIgnoreCase(rule.host, host)) continue;
    if (rule.port != 0 && rule.port != port) continue;
    // curl's parse_connect_to_slist(): a rule that keeps both does not end the search.
    if (rule.toHost.empty() && rule.toPort == 0) continue;
    return &rule;
  }
  return nullptr;
}

std::pair<std::string, int> Address::connectTarget() const {
  const ConnectTo* rule = ConnectTo::match(settings_->connectTo, url_.host(), url_.port());
  if (rule == nullptr) return {url_.host(), url_.port()};
  return {rule->toHost.empty() ? url_.host() : rule->toHost,
          rule->toPort == 0 ? url_.port() : rule->toPort};
}

std::string Address::toString() const {
  const std::string& host = url_.host();
  bool ipv6 = host.find(':') != std::string::npos;
  return "Address{" + (ipv6 ? "[" + host + "]" : host) + ":" + std::to_string(url_.port()) + "}";
}

}  // namespace tern

namespace tern::internal {

Address AddressAccess::withOrigin(const Address& prototype, const HttpUrl& url) {
  return Address(HttpUrlAccess::origin(url), prototype.settings_);
}

Address AddressAccess::withProxySslContext(const Address& address,
                                           std::shared_ptr<TlsContext> proxySslContext) {
  auto settings = std::make_shared<Address::Settings>(*address.settings_);
  settings->proxySslContext = std::move(proxySslContext);
  return Address(address.url_, std::move(settings));
}

Address AddressAccess::withConnectTargets(const Address& address,
                                          std::optional<InetSocketAddress> unixSocket,
                                          std::vector<ConnectTo> connectTo) {
  auto settings = std::make_shared<Address::Settings>(*address.settings_);
  settings->unixSocket = std::move(unixSocket);
  settings->connectTo = std::move(connectTo);
  return Address(address.url_, std::move(settings));
}

const std::shared_ptr<TlsContext>& AddressAccess::proxySslContext(const Address& address) {
  return address.settings_->proxySslContext;
}

Address AddressAccess::withConnectSettings(
    const Address& address, std::shared_ptr<const AddressConnectSettings> connectSettings) {
  auto settings = std::make_shared<Address::Settings>(*address.settings_);
  settings->connectSettings = std::move(connectSettings);
  return Address(address.url_, std::move(settings));
}

const std::shared_ptr<const AddressConnectSettings>& AddressAccess::connectSettings(
    const Address& address) {
  return address.settings_->connectSettings;
}

}  // namespace tern::internal
