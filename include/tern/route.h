// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#pragma once

#include <string>

#include "tern/address.h"
#include "tern/export.h"
#include "tern/inet_address.h"
#include "tern/proxy.h"

namespace tern {

// The concrete path a connection takes to reach an Address, as OkHttp's Route: the proxy (or
// none), and the IP address and port the socket connects to: one of the origin host's addresses
// for a direct route, one of the proxy host's for a proxied one. A connection is made over one
// route; when it fails the client tries the next route. An immutable value.
class TERN_API Route {
 public:
  // A direct route.
  Route(Address address, InetSocketAddress socketAddress);
  Route(Address address, Proxy proxy, InetSocketAddress socketAddress);

  const Address& address() const noexcept { return address_; }
  const Proxy& proxy() const noexcept { return proxy_; }

  // The IP address and port the socket connects to, or the Unix domain socket
  // (InetSocketAddress::unixDomain()) when the client has one.
  const InetSocketAddress& socketAddress() const noexcept { return socketAddress_; }

  // True if the route reaches the origin through a CONNECT tunnel: an https (or HTTP/2 with
  // prior knowledge) address through an HTTP or HTTPS proxy, or any address whose connect-to
  // rules send it elsewhere than its URL (the tunnel goes to the rule's target, as curl's).
  bool requiresTunnel() const noexcept;

  bool operator==(const Route& other) const noexcept;

  // "Route{example.com:80 at 93.184.216.34:80}"; just "Route{127.0.0.1:8080}" when the URL's
  // host is the IP address itself; "Route{example.com:443 via HTTP @ proxy:3128 at
  // 10.0.0.1:3128}" through a proxy; "Route{example.com:80 at /run/app.sock}" to a Unix socket.
  std::string toString() const;

 private:
  Address address_;
  Proxy proxy_;
  InetSocketAddress socketAddress_;
};

}  // namespace tern
