// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#include "tern/inet_address.h"

#include <arpa/inet.h>

#include <algorithm>
#include <stdexcept>

#include "url/ip_address.h"

namespace tern {
namespace {

// Longer than any IP literal with brackets; longer input is rejected before inet_pton.
constexpr size_t kMaxLiteralLength = 64;

}  // namespace

std::optional<InetAddress> InetAddress::parse(std::string_view literal) {
  if (literal.size() >= 2 && literal.front() == '[' && literal.back() == ']') {
    literal = literal.substr(1, literal.size() - 2);
    // Only IPv6 goes in brackets (RFC 3986 §3.2.2).
    if (literal.find(':') == std::string_view::npos) {
      return std::nullopt;
    }
  }
  if (literal.empty() || literal.size() > kMaxLiteralLength ||
      literal.find('\0') != std::string_view::npos) {
    return std::nullopt;
  }
  // inet_pton is the strict form we want: IPv4 exactly four decimal parts (no octal, hex or
  // short forms, unlike inet_aton and the WHATWG URL parser), IPv6 per RFC 4291 §2.2 without
  // zone ids.
  const std::string text(literal);
  InetAddress result;
  if (text.find(':') != std::string::npos) {
    if (inet_pton(AF_INET6, text.c_str(), result.bytes_.data()) != 1) {
      return std::nullopt;
    }
    result.ipv6_ = true;
  } else {
    if (inet_pton(AF_INET, text.c_str(), result.bytes_.data()) != 1) {
      return std::nullopt;
    }
  }
  return result;
}

InetAddress InetAddress::ipv4(const std::array<uint8_t, 4>& bytes, std::string hostName) {
  return fromBytes(bytes, std::move(hostName));
}

InetAddress InetAddress::ipv6(const std::array<uint8_t, 16>& bytes, std::string hostName) {
  return fromBytes(bytes, std::move(hostName));
}

InetAddress InetAddress::fromBytes(std::span<const uint8_t> bytes, std::string hostName) {
  if (bytes.size() != 4 && bytes.size() != 16) {
    throw std::invalid_argument("InetAddress::fromBytes: an IP address has 4 or 16 bytes, not " +
                                std::to_string(bytes.size()));
  }
  InetAddress result;
  std::copy(bytes.begin(), bytes.end(), result.bytes_.begin());
  result.ipv6_ = bytes.size() == 16;
  result.hostName_ = std::move(hostName);
  return result;
}

InetAddress InetAddress::loopbackIpv4() { return ipv4({127, 0, 0, 1}); }

InetAddress InetAddress::loopbackIpv6() {
  std::array<uint8_t, 16> bytes{};
  bytes[15] = 1;
  return ipv6(bytes);
}

InetAddress InetAddress::withHostName(std::string hostName) const {
  InetAddress result = *this;
  result.hostName_ = std::move(hostName);
  return result;
}

bool InetAddress::isLoopbackAddress() const noexcept {
  if (!ipv6_) {
    return bytes_[0] == 127;
  }
  return *this == loopbackIpv6();
}

std::span<const uint8_t> InetAddress::address() const noexcept {
  return std::span<const uint8_t>(bytes_.data(), ipv6_ ? 16 : 4);
}

std::string InetAddress::hostAddress() const {
  if (!ipv6_) {
    uint32_t value = 0;
    for (int i = 0; i < 4; ++i) {
      value = (value << 8) | bytes_[i];
    }
    return internal::serializeIpv4(value);
  }
  // The same RFC 5952 form HttpUrl uses for IPv6 hosts, so a URL's host and the address it
  // resolved to read alike.
  internal::Ipv6Address pieces;
  for (size_t i = 0; i < pieces.size(); ++i) {
    pieces[i] = static_cast<uint16_t>((bytes_[2 * i] << 8) | bytes_[2 * i + 1]);
  }
  return internal::serializeIpv6(pieces);
}

std::string InetAddress::toString() const {
  return hostName_.empty() ? hostAddress() : hostName_ + " (" + hostAddress() + ")";
}

bool InetAddress::operator==(const InetAddress& other) const noexcept {
  return ipv6_ == other.ipv6_ && bytes_ == other.bytes_;
}

InetSocketAddress::InetSocketAddress(InetAddress address, int port)
    : address_(std::move(address)), port_(port) {
  if (port < 0 || port > 65535) {
    throw std::invalid_argument("InetSocketAddress: port out of range: " + std::to_string(port));
  }
}

InetSocketAddress InetSocketAddress::unixDomain(std::string path, bool abstract) {
  // sun_path is 108 bytes: a path needs its NUL, an abstract name its leading NUL.
  if (path.size() > 107 - (abstract ? 1 : 0)) {
    throw std::invalid_argument("InetSocketAddress: Unix domain socket path too long (" +
                                std::to_string(path.size()) + " bytes): " + path);
  }
  if (path.find('\0') != std::string::npos) {
    throw std::invalid_argument("InetSocketAddress: NUL in a Unix domain socket path");
  }
  InetSocketAddress result(InetAddress::ipv4({0, 0, 0, 0}), 0);
  result.unixDomain_ = true;
  result.abstract_ = abstract;
  result.unixPath_ = std::move(path);
  return result;
}

std::string InetSocketAddress::toString() const {
  if (unixDomain_) return (abstract_ ? "@" : "") + unixPath_;
  std::string host = address_.hostAddress();
  if (address_.isIpv6()) {
    host = "[" + host + "]";
  }
  return host + ":" + std::to_string(port_);
}

std::string InetSocketAddress::describe() const {
  if (unixDomain_) return toString();
  const std::string& hostName = address_.hostName();
  return hostName.empty() ? toString() : hostName + " (" + toString() + ")";
}

bool InetSocketAddress::operator==(const InetSocketAddress& other) const noexcept {
  return port_ == other.port_ && address_ == other.address_ && unixDomain_ == other.unixDomain_ &&
         abstract_ == other.abstract_ && unixPath_ == other.unixPath_;
}

}  // namespace tern

size_t std::hash<tern::InetAddress>::operator()(const tern::InetAddress& address) const noexcept {
  // FNV-1a over the bytes; the length separates ::/0-prefixed IPv6 from IPv4.
  uint64_t hash = 1469598103934665603ULL;
  for (const uint8_t b : address.address()) {
    hash = (hash ^ b) * 1099511628211ULL;
  }
  return static_cast<size_t>(hash ^ address.address().size());
}

size_t std::hash<tern::InetSocketAddress>::operator()(
    const tern::InetSocketAddress& address) const noexcept {
  return (std::hash<tern::InetAddress>()(address.address()) * 31 +
          static_cast<size_t>(address.port())) ^
         std::hash<std::string>()(address.unixPath());
}
