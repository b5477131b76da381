// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "tern/dns.h"
#include "tern/http_url.h"
#include "tern/protocol.h"

namespace tern {

class Authenticator;

// A specification for a connection to an origin server, as OkHttp's Address: the host and port
// from the URL plus everything about the client that shapes the connection (DNS, protocols, the
// proxy authenticator; later TLS settings and proxy). Calls with equal addresses may share a
// pooled connection. An immutable value, cheap to copy.
class Address {
 public:
  // An address for `uriHost`:`uriPort` over http or https (`https`). Throws
  // std::invalid_argument if the host is not a valid host, the port is outside 1..65535, or
  // `dns` or `proxyAuthenticator` is null.
  Address(std::string_view uriHost, int uriPort, bool https, std::shared_ptr<Dns> dns,
          std::shared_ptr<Authenticator> proxyAuthenticator, std::vector<Protocol> protocols);

  // "http://host:port/" (or https): the scheme, host and port of the origin server.
  const HttpUrl& url() const noexcept { return url_; }
  const std::shared_ptr<Dns>& dns() const noexcept { return dns_; }
  const std::shared_ptr<Authenticator>& proxyAuthenticator() const noexcept {
    return proxyAuthenticator_;
  }
  const std::vector<Protocol>& protocols() const noexcept { return protocols_; }

  // True if everything but the host is equal (the same DNS, authenticator, protocols, scheme
  // and port): what connection coalescing compares.
  bool equalsNonHost(const Address& other) const noexcept;

  // Equal host too. Dns and authenticators compare by identity.
  bool operator==(const Address& other) const noexcept;

  // "Address{example.com:443}".
  std::string toString() const;

 private:
  HttpUrl url_;
  std::shared_ptr<Dns> dns_;
  std::shared_ptr<Authenticator> proxyAuthenticator_;
  std::vector<Protocol> protocols_;
};

}  // namespace tern
