// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#pragma once

#include <sys/socket.h>

#include "tern/inet_address.h"

namespace tern::internal {

// A sockaddr_in, sockaddr_in6 or sockaddr_un for the system calls, with its length.
struct SockaddrStorage {
  sockaddr_storage storage{};
  socklen_t length = 0;
};

// The sockaddr for `address`.
SockaddrStorage toSockaddr(const InetSocketAddress& address);

// The address in a sockaddr from getsockname(), getpeername() or accept(). Throws IOException
// for a family other than AF_INET, AF_INET6 and AF_UNIX (an unnamed one: unixDomain("")).
InetSocketAddress fromSockaddr(const sockaddr_storage& storage, socklen_t length);

}  // namespace tern::internal
