// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#include "net/server_socket.h"

#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <string>

#include "net/error_message.h"
#include "net/socket_address.h"
#include "tern/exceptions.h"

namespace tern::internal {

std::unique_ptr<ServerSocket> ServerSocket::bind(const InetSocketAddress& address, int backlog) {
  const SockaddrStorage target = toSockaddr(address);
  const int fd = ::socket(target.storage.ss_family, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
  if (fd < 0) {
    const int error = errno;
    throw IOException("Failed to bind to " + address.describe() + ": " + errorMessage(error));
  }
  const int one = 1;
  // Lets a test server rebind a port that is still in TIME_WAIT.
  setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
  if (address.address().isIpv6()) {
    // "::" should mean IPv6 only, as an IPv4 address means IPv4 only.
    setsockopt(fd, IPPROTO_IPV6, IPV6_V6ONLY, &one, sizeof(one));
  }
  if (::bind(fd, reinterpret_cast<const sockaddr*>(&target.storage), target.length) != 0 ||
      ::listen(fd, backlog) != 0) {
    const int error = errno;
    ::close(fd);
    throw IOException("Failed to bind to " + address.describe() + ": " + errorMessage(error));
  }
  sockaddr_storage local{};
  socklen_t length = sizeof(local);
  if (getsockname(fd, reinterpret_cast<sockaddr*>(&local), &length) != 0) {
    const int error = errno;
    ::close(fd);
    throw IOException("Failed to bind to " + address.describe() + ": " + errorMessage(error));
  }
  try {
    return std::make_unique<ServerSocket>(PassKey{}, fd, fromSockaddr(local, length));
  } catch (...) {
    ::close(fd);
    throw;
  }
}

ServerSocket::ServerSocket(PassKey, int fd, InetSocketAddress local)
    : fd_(fd), local_(std::move(local)) {}

ServerSocket::~ServerSocket() {
  std::lock_guard<std::mutex> lock(lock_);
  closed_ = true;
  releaseFd();
}

void ServerSocket::releaseFd() {
  if (fd_ >= 0) {
    ::close(fd_);
  }
  fd_ = -1;
}

std::unique_ptr<Socket> ServerSocket::accept(std::chrono::milliseconds timeout) {
  {
    std::lock_guard<std::mutex> lock(lock_);
    if (closed_) {
      throw IOException("Socket closed");
    }
    if (accepting_) {
      throw std::logic_error("ServerSocket::accept: another thread is accepting");
    }
    accepting_ = true;
  }
  // Whatever happens, hand fd_ back to close(), or release it if close() came meanwhile.
  struct Done {
    ServerSocket& server;
    ~Done() {
      std::lock_guard<std::mutex> lock(server.lock_);
      server.accepting_ = false;
      if (server.closed_) {
        server.releaseFd();
      }
    }
  } done{*this};

  std::optional<Timeout::Clock::time_point> until;
  if (timeout.count() > 0) {
    until = Timeout::Clock::now() + timeout;
  }
  pollfd fds[2] = {{fd_, POLLIN, 0}, {wakeup_.fd(), POLLIN, 0}};
  while (true) {
    if (isClosed()) {
      throw IOException("Socket closed");
    }
    const int fd = ::accept4(fd_, nullptr, nullptr, SOCK_NONBLOCK | SOCK_CLOEXEC);
    if (fd >= 0) {
      return Socket::adopt(fd);
    }
    const int error = errno;
    // A connection that was reset while queued is the client's problem, not ours.
    if (error == EINTR || error == ECONNABORTED) {
      continue;
    }
    if (error != EAGAIN && error != EWOULDBLOCK) {
      if (isClosed()) {
        throw IOException("Socket closed");
      }
      throw IOException("Failed to accept on " + local_.describe() + ": " + errorMessage(error));
    }
    const auto now = Timeout::Clock::now();
    if (until && *until <= now) {
      throw SocketTimeoutException("Accept timed out after " + std::to_string(timeout.count()) +
                                   " ms: " + local_.describe());
    }
    if (::poll(fds, 2, Timeout::pollTimeoutMillis(until, now)) < 0 && errno != EINTR) {
      const int error = errno;
      throw IOException("poll() failed: " + errorMessage(error));
    }
  }
}

void ServerSocket::close() noexcept {
  std::lock_guard<std::mutex> lock(lock_);
  if (closed_) {
    return;
  }
  closed_ = true;
  if (accepting_) {
    // shutdown() on a listening socket stops it listening (new connections are refused) without
    // freeing the number the accepting thread still polls; that thread releases it.
    if (fd_ >= 0) {
      ::shutdown(fd_, SHUT_RDWR);
    }
    wakeup_.signal();
  } else {
    releaseFd();
  }
}

bool ServerSocket::isClosed() const noexcept {
  std::lock_guard<std::mutex> lock(lock_);
  return closed_;
}

}  // namespace tern::internal
