// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#include "net/socket_address.h"

#include <arpa/inet.h>
#include <netinet/in.h>

#include <cstring>
#include <string>

#include "tern/exceptions.h"

namespace tern::internal {

SockaddrStorage toSockaddr(const InetSocketAddress& address) {
  SockaddrStorage result;
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
  throw IOException("Unsupported socket address family " + std::to_string(storage.ss_family));
}

}  // namespace tern::internal
