// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#pragma once

#include <ostream>
#include <string>
#include <string_view>

#include "tern/export.h"

namespace tern {

// Where a connection goes first on its way to the origin server, as Java's Proxy (which OkHttp
// uses), with the kinds curl speaks:
//   DIRECT  no proxy;
//   HTTP    an HTTP proxy: http:// requests go to it in absolute form ("GET http://host/path"),
//           https:// (and HTTP/2 with prior knowledge) through a CONNECT tunnel (RFC 9110 §9.3.6);
//   HTTPS   the same, over TLS to the proxy itself (curl's https:// proxies);
//   SOCKS   a SOCKS5 proxy (RFC 1928): the client resolves the origin's host and sends the IP
//           address, or with remoteDns() (curl's socks5h://) sends the host name for the proxy
//           to resolve.
// A proxy may carry a username and password: sent preemptively as Basic Proxy-Authorization to
// an HTTP(S) proxy, as curl's -x http://user:pass@host does, and as RFC 1929 username/password
// authentication to a SOCKS5 proxy. An immutable value, cheap to copy.
class TERN_API Proxy {
 public:
  enum class Type { DIRECT, HTTP, HTTPS, SOCKS };

  // No proxy (Java's Proxy.NO_PROXY).
  static Proxy direct() { return Proxy(); }
  static Proxy http(std::string host, int port) { return Proxy(Type::HTTP, std::move(host), port); }
  static Proxy https(std::string host, int port) {
    return Proxy(Type::HTTPS, std::move(host), port);
  }
  // SOCKS5, the client resolving the origin's host (curl's socks5://).
  static Proxy socks5(std::string host, int port) {
    return Proxy(Type::SOCKS, std::move(host), port);
  }
  // SOCKS5, the proxy resolving the origin's host (curl's socks5h://).
  static Proxy socks5h(std::string host, int port);

  // A proxy of `type` at `host` (a name or an IP literal, IPv6 with or without brackets) and
  // `port`. Throws std::invalid_argument for DIRECT (use direct()), an empty host, or a port
  // outside 1..65535.
  Proxy(Type type, std::string host, int port);

  // Parses a proxy as curl's -x and its environment variables take it:
  // "[scheme://][user[:password]@]host[:port][/]", scheme http (the default), https, socks5,
  // socks5h (also socks: socks5); the port defaults to 443 for https and 1080 otherwise, as
  // curl's; user and password are percent-decoded. Throws std::invalid_argument naming the
  // input for anything else (another scheme such as socks4, a path, a bad port).
  static Proxy parse(std::string_view spec);

  // A copy with credentials (see the class comment).
  Proxy withCredentials(std::string username, std::string password) const;

  Type type() const noexcept { return type_; }
  bool isDirect() const noexcept { return type_ == Type::DIRECT; }
  // The proxy's host as given, without brackets, and its port ("" and 0 for DIRECT).
  const std::string& host() const noexcept { return host_; }
  int port() const noexcept { return port_; }
  // SOCKS only: the proxy resolves the origin's host name.
  bool remoteDns() const noexcept { return remoteDns_; }
  bool hasCredentials() const noexcept { return hasCredentials_; }
  const std::string& username() const noexcept { return username_; }
  const std::string& password() const noexcept { return password_; }

  // Type, host, port, remote DNS and credentials.
  bool operator==(const Proxy& other) const noexcept = default;

  // "DIRECT", or as Java's Proxy.toString(): "HTTP @ proxy.example:3128", "HTTPS @ …",
  // "SOCKS @ [::1]:1080" (never the credentials).
  std::string toString() const;

 private:
  Proxy() = default;

  Type type_ = Type::DIRECT;
  std::string host_;
  int port_ = 0;
  bool remoteDns_ = false;
  bool hasCredentials_ = false;
  std::string username_;
  std::string password_;
};

TERN_API std::ostream& operator<<(std::ostream& out, const Proxy& proxy);
TERN_API std::ostream& operator<<(std::ostream& out, Proxy::Type type);

}  // namespace tern
