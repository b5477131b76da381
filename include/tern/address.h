// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "tern/certificate_pinner.h"
#include "tern/connection_spec.h"
#include "tern/dns.h"
#include "tern/export.h"
#include "tern/hostname_verifier.h"
#include "tern/http_url.h"
#include "tern/protocol.h"
#include "tern/proxy.h"
#include "tern/proxy_selector.h"

namespace tern::internal {
class TlsContext;
struct AddressAccess;
struct AddressConnectSettings;
}  // namespace tern::internal

namespace tern {

class Authenticator;

// A specification for a connection to an origin server, as OkHttp's Address: the host and port
// from the URL plus everything about the client that shapes the connection (DNS, protocols,
// connection specs, the proxy (or the selector that picks one) and its authenticator, and for
// https the TLS settings: whom to trust, the
// client certificate, the hostname verifier and the certificate pinner). Calls with equal
// addresses may share a pooled connection, so two clients with different TLS settings never
// share one. An immutable value, cheap to copy: copies (and the addresses a client makes for each
// call) share one set of settings.
class TERN_API Address {
 public:
  // An address for `uriHost`:`uriPort`: https when `sslContext` is set (a client's TLS context,
  // internal), then with `hostnameVerifier` and `certificatePinner` (required for https, unused
  // for http). Throws std::invalid_argument if the host is not a valid host, the port is outside
  // 1..65535, `dns` or `proxyAuthenticator` is null, or an https address lacks a verifier or
  // pinner. `proxy`, when set, is the one proxy to use (Proxy::direct(): none); otherwise
  // `proxySelector` chooses (null: ProxySelector::noProxy()).
  Address(std::string_view uriHost, int uriPort, std::shared_ptr<Dns> dns,
          std::shared_ptr<internal::TlsContext> sslContext,
          std::shared_ptr<HostnameVerifier> hostnameVerifier,
          std::optional<CertificatePinner> certificatePinner,
          std::shared_ptr<Authenticator> proxyAuthenticator, std::vector<Protocol> protocols,
          std::vector<ConnectionSpec> connectionSpecs, std::optional<Proxy> proxy = std::nullopt,
          std::shared_ptr<ProxySelector> proxySelector = nullptr);

  // A cleartext (http) address with the default connection specs, for tests and tools.
  Address(std::string_view uriHost, int uriPort, std::shared_ptr<Dns> dns,
          std::shared_ptr<Authenticator> proxyAuthenticator, std::vector<Protocol> protocols);

  // "http://host:port/" (or https): the scheme, host and port of the origin server.
  const HttpUrl& url() const noexcept { return url_; }
  const std::shared_ptr<Dns>& dns() const noexcept { return settings_->dns; }
  const std::shared_ptr<Authenticator>& proxyAuthenticator() const noexcept {
    return settings_->proxyAuthenticator;
  }
  const std::vector<Protocol>& protocols() const noexcept { return settings_->protocols; }
  // The proxy every connection uses, if one was set; else proxySelector() chooses.
  const std::optional<Proxy>& proxy() const noexcept { return settings_->proxy; }
  const std::shared_ptr<ProxySelector>& proxySelector() const noexcept {
    return settings_->proxySelector;
  }
  const std::vector<ConnectionSpec>& connectionSpecs() const noexcept {
    return settings_->connectionSpecs;
  }

  // The TLS context (null for http), hostname verifier and pinner (null / nullopt for http).
  const std::shared_ptr<internal::TlsContext>& sslContext() const noexcept {
    return settings_->sslContext;
  }
  const std::shared_ptr<HostnameVerifier>& hostnameVerifier() const noexcept {
    return settings_->hostnameVerifier;
  }
  const std::optional<CertificatePinner>& certificatePinner() const noexcept {
    return settings_->certificatePinner;
  }

  // True if everything but the host is equal (the same DNS, proxy, proxy selector, authenticator,
  // protocols, connection specs, TLS context, verifier and pins, scheme and port): what
  // connection coalescing compares.
  bool equalsNonHost(const Address& other) const noexcept;

  // Equal host too. Dns, authenticators, TLS contexts and verifiers compare by identity.
  bool operator==(const Address& other) const noexcept;

  // "Address{example.com:443}".
  std::string toString() const;

 private:
  friend struct internal::AddressAccess;

  // Everything but the origin.
  struct Settings {
    std::shared_ptr<Dns> dns;
    std::shared_ptr<internal::TlsContext> sslContext;
    std::shared_ptr<HostnameVerifier> hostnameVerifier;
    std::optional<CertificatePinner> certificatePinner;
    std::shared_ptr<Authenticator> proxyAuthenticator;
    std::vector<Protocol> protocols;
    std::vector<ConnectionSpec> connectionSpecs;
    std::optional<Proxy> proxy;
    std::shared_ptr<ProxySelector> proxySelector;  // Never null.
    // For HTTPS proxies: whom to trust for the proxy's own certificate (null: the system's).
    std::shared_ptr<internal::TlsContext> proxySslContext;
    // How a pool connects here with no call (an address policy); set on the addresses a Client
    // makes, else null. Not compared: it says how to connect, not where.
    std::shared_ptr<const internal::AddressConnectSettings> connectSettings;
  };
  Address(HttpUrl url, std::shared_ptr<const Settings> settings) noexcept
      : url_(std::move(url)), settings_(std::move(settings)) {}

  HttpUrl url_;
  std::shared_ptr<const Settings> settings_;  // Never null.
};

}  // namespace tern
