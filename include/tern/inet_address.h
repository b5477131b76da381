// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "tern/export.h"

namespace tern {

// An IP address, as Java's InetAddress: the 4 bytes of an IPv4 address or the 16 bytes of an
// IPv6 address (network byte order), plus the host name it was looked up for, if any. Dns
// returns these; sockets connect to them. An immutable value, cheap to copy.
//
// Equality and hashing look at the address bytes only (as Java's), so "localhost/127.0.0.1" ==
// "/127.0.0.1". An IPv4-mapped IPv6 address (::ffff:1.2.3.4) stays an IPv6 address.
class TERN_API InetAddress {
 public:
  // Parses an IP literal: dotted-decimal IPv4 ("127.0.0.1", exactly four decimal parts) or IPv6
  // in RFC 4291 §2.2 text form ("::1", "2001:db8::1", "::ffff:1.2.3.4"), optionally inside
  // brackets ("[::1]"). No host name, no zone id ("fe80::1%eth0" is rejected), no lookup.
  // std::nullopt if `literal` is not an IP literal.
  static std::optional<InetAddress> parse(std::string_view literal);

  // An IPv4 address from its bytes, with an optional host name.
  static InetAddress ipv4(const std::array<uint8_t, 4>& bytes, std::string hostName = {});

  // An IPv6 address from its bytes, with an optional host name.
  static InetAddress ipv6(const std::array<uint8_t, 16>& bytes, std::string hostName = {});

  // An address from 4 or 16 bytes (Java's InetAddress.getByAddress). Throws
  // std::invalid_argument naming the length otherwise.
  static InetAddress fromBytes(std::span<const uint8_t> bytes, std::string hostName = {});

  // IPv4 127.0.0.1, the loopback address (no host name).
  static InetAddress loopbackIpv4();

  // IPv6 ::1, the loopback address (no host name).
  static InetAddress loopbackIpv6();

  // A copy of this address carrying `hostName` instead.
  InetAddress withHostName(std::string hostName) const;

  // True for an IPv6 address (16 bytes), false for IPv4 (4 bytes).
  bool isIpv6() const noexcept { return ipv6_; }

  // True for 127.0.0.0/8 and ::1.
  bool isLoopbackAddress() const noexcept;

  // The address bytes in network byte order: 4 for IPv4, 16 for IPv6 (Java's getAddress()).
  std::span<const uint8_t> address() const noexcept;

  // The address as text: "127.0.0.1"; IPv6 in RFC 5952 §4 form without brackets ("::1",
  // "2001:db8::1", "::ffff:c000:280"), as HttpUrl writes IPv6 hosts.
  std::string hostAddress() const;

  // The host name this address was looked up for ("localhost"), or "" if it was made from a
  // literal or bytes. Never does a reverse lookup (unlike Java's getHostName()).
  const std::string& hostName() const noexcept { return hostName_; }

  // For messages: "localhost (127.0.0.1)", or "127.0.0.1" without a host name.
  std::string toString() const;

  // Compares the address bytes; host names are ignored.
  bool operator==(const InetAddress& other) const noexcept;

 private:
  InetAddress() = default;

  std::array<uint8_t, 16> bytes_{};  // IPv4 uses the first 4.
  bool ipv6_ = false;
  std::string hostName_;
};

// An IP address and a TCP port, as Java's InetSocketAddress: where a socket connects to, or the
// local end of a connection. An immutable value, cheap to copy.
//
// Or, made by unixDomain(), a Unix domain socket (Java's UnixDomainSocketAddress): a file system
// path, or a Linux abstract name. Such an address is where a client set with
// Client::Builder::unixSocket() connects, so its routes and connect events carry one; its
// address() is 0.0.0.0 and its port() 0, and sockets and messages use unixPath() instead.
class TERN_API InetSocketAddress {
 public:
  // Throws std::invalid_argument unless 0 <= port <= 65535.
  InetSocketAddress(InetAddress address, int port);

  // A Unix domain socket at `path` ("/run/app.sock"), or with `abstract` the Linux abstract
  // socket named `path` (no file; "@path" in messages). Throws std::invalid_argument if `path`
  // does not fit a sockaddr_un (107 bytes; 106 for an abstract name) or holds a NUL byte. ""
  // (not abstract) is an unnamed socket: the local end of a Unix domain connection.
  static InetSocketAddress unixDomain(std::string path, bool abstract = false);

  const InetAddress& address() const noexcept { return address_; }
  int port() const noexcept { return port_; }

  // True if made by unixDomain().
  bool isUnixDomain() const noexcept { return unixDomain_; }
  // The path (or abstract name, without "@"); "" for an IP address.
  const std::string& unixPath() const noexcept { return unixPath_; }
  // True for a Linux abstract socket name.
  bool isAbstract() const noexcept { return abstract_; }

  // "127.0.0.1:8080", or "[::1]:8080" for IPv6 (RFC 3986 §3.2.2 brackets). No host name; error
  // messages that name the peer use describe(). A Unix domain socket: its path ("/run/app.sock"),
  // an abstract one "@name".
  std::string toString() const;

  // For messages: "localhost (127.0.0.1:8080)", or "127.0.0.1:8080" and "[::1]:8080" without a
  // host name; a Unix domain socket as toString().
  std::string describe() const;

  // Compares address bytes and port (host names are ignored), or the Unix domain paths.
  bool operator==(const InetSocketAddress& other) const noexcept;

 private:
  InetAddress address_;
  int port_;
  bool unixDomain_ = false;
  bool abstract_ = false;
  std::string unixPath_;
};

}  // namespace tern

// Hashes the address bytes (host names are ignored, as in operator==).
template <>
struct std::hash<tern::InetAddress> {
  size_t operator()(const tern::InetAddress& address) const noexcept;
};

// Hashes the address bytes and the port.
template <>
struct std::hash<tern::InetSocketAddress> {
  size_t operator()(const tern::InetSocketAddress& address) const noexcept;
};
