// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "tern/certificate_pinner.h"
#include "tern/connection_spec.h"
#include "tern/dns.h"
#include "tern/export.h"
#include "tern/hostname_verifier.h"
#include "tern/http_url.h"
#include "tern/inet_address.h"
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

// A rule that sends connections for one host and port somewhere else, as curl's --connect-to
// HOST1:PORT1:HOST2:PORT2: a connection to `host`:`port` goes to `toHost`:`toPort` instead,
// while the request (its Host header) and TLS (SNI, the certificate's check) stay the URL's.
// An empty `host` or a `port` of 0 matches any; an empty `toHost` or a `toPort` of 0 keeps the
// URL's. Hosts compare ignoring case; an IPv6 address is written without brackets.
struct TERN_API ConnectTo {
  std::string host;
  int port = 0;
  std::string toHost;
  int toPort = 0;

  // The first rule of `rules` that matches `host` and `port` and changes either (a rule that
  // keeps both does not end the search, as in curl), or null.
  static const ConnectTo* match(const std::vector<ConnectTo>& rules, std::string_view host,
                                int port) noexcept;

  bool operator==(const ConnectTo& other) const = default;
};

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
  // The Unix domain socket every connection goes to (Client::Builder::unixSocket()), or
  // nullopt for TCP.
  const std::optional<InetSocketAddress>& unixSocket() const noexcept {
    return settings_->unixSocket;
  }
  // The rules that choose where a direct connection goes (Client::Builder::connectTo()).
  const std::vector<ConnectTo>& connectTo() const noexcept { return settings_->connectTo; }

  // The host and port a direct connection to this address goes to: the URL's, changed by the
  // first rule of connectTo() that matches them and changes either (curl's order).
  std::pair<std::string, int> connectTarget() const;

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
  // protocols, connection specs, TLS context, verifier and pins, Unix socket and connect-to
  // rules, scheme and port): what connection coalescing compares. Protocols compare without
  // HTTP_3, which TCP never offers, so adding HTTP_3 to a client keeps its TCP connections
  // shared; a pooled HTTP/3 connection must check that protocols() includes HTTP_3 itself.
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
    std::optional<InetSocketAddress> unixSocket;  // Where every connection goes, if set.
    std::vector<ConnectTo> connectTo;
  };
  Address(HttpUrl url, std::shared_ptr<const Settings> settings) noexcept
      : url_(std::move(url)), settings_(std::move(settings)) {}

  HttpUrl url_;
  std::shared_ptr<const Settings> settings_;  // Never null.
};

}  // namespace tern
