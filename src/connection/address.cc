// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#include "tern/address.h"

#include <stdexcept>
#include <utility>

#include "tern/authenticator.h"

namespace tern {
namespace {

int checkPort(int port) {
  if (port < 1 || port > 65535) {
    throw std::invalid_argument("Address: unexpected port: " + std::to_string(port));
  }
  return port;
}

}  // namespace

Address::Address(std::string_view uriHost, int uriPort, std::shared_ptr<Dns> dns,
                 std::shared_ptr<internal::TlsContext> sslContext,
                 std::shared_ptr<HostnameVerifier> hostnameVerifier,
                 std::optional<CertificatePinner> certificatePinner,
                 std::shared_ptr<Authenticator> proxyAuthenticator, std::vector<Protocol> protocols,
                 std::vector<ConnectionSpec> connectionSpecs)
    : url_(HttpUrl::Builder()
               .scheme(sslContext ? "https" : "http")
               .host(uriHost)
               .port(checkPort(uriPort))
               .build()),
      dns_(std::move(dns)),
      sslContext_(std::move(sslContext)),
      hostnameVerifier_(std::move(hostnameVerifier)),
      certificatePinner_(std::move(certificatePinner)),
      proxyAuthenticator_(std::move(proxyAuthenticator)),
      protocols_(std::move(protocols)),
      connectionSpecs_(std::move(connectionSpecs)) {
  if (!dns_) throw std::invalid_argument("Address: dns == null");
  if (!proxyAuthenticator_) throw std::invalid_argument("Address: proxyAuthenticator == null");
  if (sslContext_ && !hostnameVerifier_) {
    throw std::invalid_argument("Address: hostnameVerifier == null for https");
  }
  if (sslContext_ && !certificatePinner_) {
    throw std::invalid_argument("Address: certificatePinner == null for https");
  }
  if (!sslContext_) {
    // Meaningless without TLS; dropped so that http addresses compare equal regardless.
    hostnameVerifier_.reset();
    certificatePinner_.reset();
  }
}

Address::Address(std::string_view uriHost, int uriPort, std::shared_ptr<Dns> dns,
                 std::shared_ptr<Authenticator> proxyAuthenticator, std::vector<Protocol> protocols)
    : Address(uriHost, uriPort, std::move(dns), nullptr, nullptr, std::nullopt,
              std::move(proxyAuthenticator), std::move(protocols),
              {ConnectionSpec::MODERN_TLS, ConnectionSpec::CLEARTEXT}) {}

bool Address::equalsNonHost(const Address& other) const noexcept {
  return dns_ == other.dns_ && proxyAuthenticator_ == other.proxyAuthenticator_ &&
         protocols_ == other.protocols_ && connectionSpecs_ == other.connectionSpecs_ &&
         sslContext_ == other.sslContext_ && hostnameVerifier_ == other.hostnameVerifier_ &&
         certificatePinner_ == other.certificatePinner_ && url_.scheme() == other.url_.scheme() &&
         url_.port() == other.url_.port();
}

bool Address::operator==(const Address& other) const noexcept {
  return url_ == other.url_ && equalsNonHost(other);
}

std::string Address::toString() const {
  const std::string& host = url_.host();
  bool ipv6 = host.find(':') != std::string::npos;
  return "Address{" + (ipv6 ? "[" + host + "]" : host) + ":" + std::to_string(url_.port()) + "}";
}

}  // namespace tern
