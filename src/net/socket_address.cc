// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#include "net/socket_address.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/un.h>

#include <cstddef>
#include <cstring>
#include <string>

#include "tern/exceptions.h"

namespace tern::internal {

SockaddrStorage toSockaddr(const InetSocketAddress& address) {
  SockaddrStorage result;
  if (address.isUnixDomain()) {
    auto* un = reinterpret_cast<sockaddr_un*>(&result.storage);
    un->sun_family = AF_UNIX;
    const std::string& path = address.unixPath();
    // An abstract name starts with a NUL and is exactly as long as the length says (Linux
    // unix(7)); a path ends with one. unixDomain() checked that either fits.
    const size_t offset = address.isAbstract() ? 1 : 0;
    std::memcpy(un->sun_path + offset, path.data(), path.size());
    result.length = static_cast<socklen_t>(offsetof(sockaddr_un, sun_path) + offset + path.size() +
                                           (address.isAbstract() ? 0 : 1));
    return result;
  }
  const std::span<const uint8_t> bytes = address.address().address();
  if (address.address().isIpv6()) {
    auto* in6 = reinterpret_cast<sockaddr_in6*>(&result.storage);
    in6->sin6_family = AF_INET6;
    in6->sin6_port = htons(static_cast<uint16_t>(address.port()));
    std::memcpy(&in6->sin6_addr, bytes.data(), 16);
    result.length = sizeof(sockaddr_in6);
  } else {
    auto* in = reinterpret_cast<sockaddr_in*>(&result.storage);
    in->sin_family = AF_INET;
    in->sin_port = htons(static_cast<uint16_t>(address.port()));
    std::memcpy(&in->sin_addr, bytes.data(), 4);
    result.length = sizeof(sockaddr_in);
  }
  return result;
}

InetSocketAddress fromSockaddr(const sockaddr_storage& storage, socklen_t length) {
  if (storage.ss_family == AF_INET && length >= sizeof(sockaddr_in)) {
    const auto* in = reinterpret_cast<const sockaddr_in*>(&storage);
    return InetSocketAddress(
        InetAddress::fromBytes(std::span(reinterpret_cast<const uint8_t*>(&in->sin_addr), 4)),
        ntohs(in->sin_port));
  }
  if (storage.ss_family == AF_INET6 && length >= sizeof(sockaddr_in6)) {
    const auto* in6 = reinterpret_cast<const sockaddr_in6*>(&storage);
    return InetSocketAddress(
        InetAddress::fromBytes(std::span(reinterpret_cast<const uint8_t*>(&in6->sin6_addr), 16)),
        ntohs(in6->sin6_port));
  }
  if (storage.ss_family == AF_UNIX) {
    const auto* un = reinterpret_cast<const sockaddr_un*>(&storage);
    const size_t pathLength =
        length > offsetof(sockaddr_un, sun_path) ? length - offsetof(sockaddr_un, sun_path) : 0;
    if (pathLength > 0 && un->sun_path[0] == '\0') {
      return InetSocketAddress::unixDomain(std::string(un->sun_path + 1, pathLength - 1), true);
    }
    return InetSocketAddress::unixDomain(
        std::string(un->sun_path, strnlen(un->sun_path, pathLength)));
  }
  throw IOException("Unsupported socket address family " + std::to_string(storage.ss_family));
}

}  // namespace tern::internal
