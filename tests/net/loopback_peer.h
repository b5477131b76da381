// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
// A plain POSIX peer for the socket tests: a listening socket on loopback and blocking helpers,
// independent of the code under test.
#pragma once

#include <dirent.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <chrono>
#include <cstring>
#include <stdexcept>
#include <string>
#include <utility>

#include "tern/inet_address.h"

namespace tern::testing {

// Owns a file descriptor.
class Fd {
 public:
  Fd() = default;
  explicit Fd(int fd) : fd_(fd) {}
  Fd(Fd&& other) noexcept : fd_(std::exchange(other.fd_, -1)) {}
  Fd& operator=(Fd&& other) noexcept {
    reset();
    fd_ = std::exchange(other.fd_, -1);
    return *this;
  }
  ~Fd() { reset(); }
  int get() const { return fd_; }
  int release() { return std::exchange(fd_, -1); }
  void reset() {
    if (fd_ >= 0) ::close(fd_);
    fd_ = -1;
  }

 private:
  int fd_ = -1;
};

// Open descriptors of this process, to prove nothing leaks.
inline int openFdCount() {
  int count = 0;
  if (DIR* dir = opendir("/proc/self/fd")) {
    while (readdir(dir) != nullptr) ++count;
    closedir(dir);
  }
  return count - 3;  // ".", ".." and the directory's own descriptor.
}

// A blocking listening socket on 127.0.0.1 (or ::1) with an ephemeral port.
class LoopbackListener {
 public:
  explicit LoopbackListener(bool ipv6 = false, int backlog = 16) {
    fd_ = Fd(::socket(ipv6 ? AF_INET6 : AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0));
    if (fd_.get() < 0) throw std::runtime_error("socket() failed");
    const int one = 1;
    setsockopt(fd_.get(), SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
    sockaddr_storage storage{};
    socklen_t length;
    if (ipv6) {
      auto* in6 = reinterpret_cast<sockaddr_in6*>(&storage);
      in6->sin6_family = AF_INET6;
      in6->sin6_addr = in6addr_loopback;
      length = sizeof(sockaddr_in6);
    } else {
      auto* in = reinterpret_cast<sockaddr_in*>(&storage);
      in->sin_family = AF_INET;
      in->sin_addr.s_addr = htonl(INADDR_LOOPBACK);
      length = sizeof(sockaddr_in);
    }
    if (::bind(fd_.get(), reinterpret_cast<sockaddr*>(&storage), length) != 0 ||
        ::listen(fd_.get(), backlog) != 0 ||
        getsockname(fd_.get(), reinterpret_cast<sockaddr*>(&storage), &length) != 0) {
      throw std::runtime_error(std::string("bind/listen failed: ") + strerror(errno));
    }
    port_ = ntohs(ipv6 ? reinterpret_cast<sockaddr_in6*>(&storage)->sin6_port
                       : reinterpret_cast<sockaddr_in*>(&storage)->sin_port);
    ipv6_ = ipv6;
  }

  int port() const { return port_; }
  int fd() const { return fd_.get(); }

  InetSocketAddress address(std::string hostName = {}) const {
    InetAddress ip = ipv6_ ? InetAddress::loopbackIpv6() : InetAddress::loopbackIpv4();
    return InetSocketAddress(ip.withHostName(std::move(hostName)), port_);
  }

  // The next connection; throws after 5 s so a broken test fails instead of hanging.
  Fd accept() {
    pollfd p{fd_.get(), POLLIN, 0};
    if (::poll(&p, 1, 5000) != 1) throw std::runtime_error("accept timed out");
    return Fd(::accept4(fd_.get(), nullptr, nullptr, SOCK_CLOEXEC));
  }

  void close() { fd_.reset(); }

 private:
  Fd fd_;
  int port_ = 0;
  bool ipv6_ = false;
};

// Writes all of `data` to a blocking descriptor.
inline void writeFully(int fd, const std::string& data) {
  size_t written = 0;
  while (written < data.size()) {
    ssize_t n = ::send(fd, data.data() + written, data.size() - written, MSG_NOSIGNAL);
    if (n <= 0) throw std::runtime_error(std::string("send failed: ") + strerror(errno));
    written += static_cast<size_t>(n);
  }
}

// Reads from a blocking descriptor until EOF or `limit` bytes.
inline std::string readUpTo(int fd, size_t limit) {
  std::string result;
  char chunk[65536];
  while (result.size() < limit) {
    ssize_t n = ::recv(fd, chunk, std::min(sizeof(chunk), limit - result.size()), 0);
    if (n <= 0) break;
    result.append(chunk, static_cast<size_t>(n));
  }
  return result;
}

// Closes `fd` so that the peer gets RST instead of FIN (SO_LINGER with a zero timeout).
inline void resetConnection(Fd& fd) {
  linger option{1, 0};
  setsockopt(fd.get(), SOL_SOCKET, SO_LINGER, &option, sizeof(option));
  fd.reset();
}

// Deterministic bytes that differ at every offset of a few MiB (no short period).
inline std::string patternBytes(size_t size, uint32_t seed) {
  std::string result(size, '\0');
  uint32_t x = seed | 1;
  for (char& c : result) {
    x ^= x << 13;
    x ^= x >> 17;
    x ^= x << 5;
    c = static_cast<char>(x);
  }
  return result;
}

}  // namespace tern::testing
