// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#pragma once

#include <string>

#include "tern/address.h"
#include "tern/export.h"
#include "tern/inet_address.h"

namespace tern {

// The concrete path a connection takes to reach an Address: one of the IP addresses its host
// resolved to, and the port, as OkHttp's Route. (A later version adds the proxy.) A connection
// is made over one route; when it fails the client tries the next route. An immutable value.
class TERN_API Route {
 public:
  Route(Address address, InetSocketAddress socketAddress);

  const Address& address() const noexcept { return address_; }

  // The IP address and port the socket connects to.
  const InetSocketAddress& socketAddress() const noexcept { return socketAddress_; }

  bool operator==(const Route& other) const noexcept;

  // "Route{example.com:80 at 93.184.216.34:80}"; just "Route{127.0.0.1:8080}" when the URL's
  // host is the IP address itself.
  std::string toString() const;

 private:
  Address address_;
  InetSocketAddress socketAddress_;
};

}  // namespace tern
