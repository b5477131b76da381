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

Address::Address(std::string_view uriHost, int uriPort, bool https, std::shared_ptr<Dns> dns,
                 std::shared_ptr<Authenticator> proxyAuthenticator, std::vector<Protocol> protocols)
    : url_(HttpUrl::Builder()
               .scheme(https ? "https" : "http")
               .host(uriHost)
               .port(checkPort(uriPort))
               .build()),
      dns_(std::move(dns)),
      proxyAuthenticator_(std::move(proxyAuthenticator)),
      protocols_(std::move(protocols)) {
  if (!dns_) throw std::invalid_argument("Address: dns == null");
  if (!proxyAuthenticator_) throw std::invalid_argument("Address: proxyAuthenticator == null");
}

bool Address::equalsNonHost(const Address& other) const noexcept {
  return dns_ == other.dns_ && proxyAuthenticator_ == other.proxyAuthenticator_ &&
         protocols_ == other.protocols_ && url_.scheme() == other.url_.scheme() &&
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
