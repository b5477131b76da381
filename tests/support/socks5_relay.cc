// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#include "support/socks5_relay.h"

#include <arpa/inet.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/eventfd.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <cstring>
#include <stdexcept>
#include <string>
#include <vector>

namespace tern::testing {
namespace {

constexpr uint8_t kVersion = 5;

bool readExactly(int fd, uint8_t* out, size_t byteCount) {
  size_t done = 0;
  while (done < byteCount) {
    const ssize_t n = ::recv(fd, out + done, byteCount - done, 0);
    if (n > 0) {
      done += static_cast<size_t>(n);
    } else if (n == 0 || errno != EINTR) {
      return false;
    }
  }
  return true;
}

bool writeAll(int fd, const uint8_t* data, size_t byteCount) {
  size_t done = 0;
  while (done < byteCount) {
    const ssize_t n = ::send(fd, data + done, byteCount - done, MSG_NOSIGNAL);
    if (n > 0) {
      done += static_cast<size_t>(n);
    } else if (n < 0 && errno != EINTR) {
      return false;
    }
  }
  return true;
}

bool writeAll(int fd, const std::vector<uint8_t>& bytes) {
  return writeAll(fd, bytes.data(), bytes.size());
}

// A blocking TCP connection to `host`:`port`, or -1.
int connectTo(const std::string& host, int port) {
  addrinfo hints{};
  hints.ai_socktype = SOCK_STREAM;
  hints.ai_flags = AI_NUMERICSERV;
  addrinfo* addresses = nullptr;
  if (::getaddrinfo(host.c_str(), std::to_string(port).c_str(), &hints, &addresses) != 0) {
    return -1;
  }
  int fd = -1;
  for (addrinfo* a = addresses; a != nullptr && fd == -1; a = a->ai_next) {
    fd = ::socket(a->ai_family, a->ai_socktype | SOCK_CLOEXEC, a->ai_protocol);
    if (fd == -1) continue;
    if (::connect(fd, a->ai_addr, a->ai_addrlen) != 0) {
      ::close(fd);
      fd = -1;
    }
  }
  ::freeaddrinfo(addresses);
  if (fd != -1) {
    const int noDelay = 1;  // Relay small writes (a status line, a chunk) at once.
    ::setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &noDelay, sizeof(noDelay));
  }
  return fd;
}

// Closing with a zero linger sends RST instead of FIN.
void closeWithReset(int fd) {
  const linger reset{1, 0};
  ::setsockopt(fd, SOL_SOCKET, SO_LINGER, &reset, sizeof(reset));
  ::close(fd);
}

}  // namespace

struct Socks5Relay::Connection {
  std::atomic<int> client{-1};
  std::atomic<int> origin{-1};
  // Set when either direction met a reset or a failed write: the other direction then stops
  // without sending a FIN, and both sides are reset, as a direct peer's reset would be seen.
  std::atomic<bool> broken{false};
  std::thread thread;

  // Copies `from` to `to` until the end of `from`, which it passes on as a half-close.
  void pump(int from, int to) {
    std::vector<uint8_t> buffer(64 * 1024);
    while (true) {
      const ssize_t n = ::recv(from, buffer.data(), buffer.size(), 0);
      if (n > 0 && writeAll(to, buffer.data(), static_cast<size_t>(n))) continue;
      if (n < 0 && errno == EINTR) continue;
      if (n == 0 && !broken.load()) {
        ::shutdown(to, SHUT_WR);
        return;
      }
      break;
    }
    // A reset, a failed write, or the other direction's break: wake the other direction (a
    // shut input reads as its end), which then finds `broken` set.
    broken.store(true);
    ::shutdown(from, SHUT_RD);
    ::shutdown(to, SHUT_RD);
  }
};

Socks5Relay::Socks5Relay() {
  listener_ = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  socklen_t length = sizeof(address);
  if (listener_ == -1 || ::bind(listener_, reinterpret_cast<sockaddr*>(&address), length) != 0 ||
      ::listen(listener_, 64) != 0 ||
      ::getsockname(listener_, reinterpret_cast<sockaddr*>(&address), &length) != 0) {
    const std::string error = std::strerror(errno);
    if (listener_ != -1) ::close(listener_);
    throw std::runtime_error("Socks5Relay: cannot listen: " + error);
  }
  port_ = ntohs(address.sin_port);
  wakeFd_ = ::eventfd(0, EFD_CLOEXEC);
  acceptThread_ = std::thread(&Socks5Relay::acceptConnections, this);
}

Socks5Relay::~Socks5Relay() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  const uint64_t one = 1;
  (void)!::write(wakeFd_, &one, sizeof(one));
  acceptThread_.join();
  std::list<std::unique_ptr<Connection>> connections;
  {
    std::lock_guard lock(mutex_);
    for (auto& connection : connections_) {
      // Wakes the connection's threads wherever they wait: a shut socket reads as its end, and a
      // blocked write fails.
      connection->broken.store(true);
      if (int fd = connection->client.load(); fd != -1) ::shutdown(fd, SHUT_RDWR);
      if (int fd = connection->origin.load(); fd != -1) ::shutdown(fd, SHUT_RDWR);
    }
    connections.swap(connections_);
  }
  for (auto& connection : connections) connection->thread.join();
  ::close(wakeFd_);
  ::close(listener_);
}

void Socks5Relay::failNext(Fault fault) {
  std::lock_guard lock(mutex_);
  nextFault_ = fault;
}

void Socks5Relay::acceptConnections() {
  while (true) {
    pollfd fds[2] = {{listener_, POLLIN, 0}, {wakeFd_, POLLIN, 0}};
    if (::poll(fds, 2, -1) < 0 && errno != EINTR) return;
    if (fds[1].revents != 0) return;
    if (fds[0].revents == 0) continue;
    const int fd = ::accept4(listener_, nullptr, nullptr, SOCK_CLOEXEC);
    if (fd == -1) continue;
    const int noDelay = 1;
    ::setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &noDelay, sizeof(noDelay));
    ++connectionCount_;
    std::lock_guard lock(mutex_);
    if (stopping_) {
      ::close(fd);
      return;
    }
    auto connection = std::make_unique<Connection>();
    connection->client.store(fd);
    const Fault fault = nextFault_;
    nextFault_ = Fault::kNone;
    Connection& raw = *connection;
    connection->thread = std::thread([this, &raw, fault] { serve(raw, fault); });
    connections_.push_back(std::move(connection));
  }
}

void Socks5Relay::serve(Connection& connection, Fault fault) {
  const int client = connection.client.load();
  // The greeting (RFC 1928 §3): VER NMETHODS METHODS. Only "no authentication" is offered back.
  uint8_t head[4];
  std::vector<uint8_t> methods;
  bool ok = readExactly(client, head, 2) && head[0] == kVersion;
  if (ok) {
    methods.resize(head[1]);
    ok = readExactly(client, methods.data(), methods.size());
  }
  if (ok && fault == Fault::kBadVersion) {
    writeAll(client, {4, 0});
    ok = false;
  }
  ok = ok && fault != Fault::kCloseAfterGreeting && writeAll(client, {kVersion, 0});

  // The request (§4): VER CMD RSV ATYP DST.ADDR DST.PORT.
  std::string host;
  int port = 0;
  ok = ok && readExactly(client, head, 4) && head[1] == 1 /* CONNECT */;
  if (ok) {
    uint8_t address[256];
    if (head[3] == 1) {
      char text[INET_ADDRSTRLEN];
      ok = readExactly(client, address, 4) && inet_ntop(AF_INET, address, text, sizeof(text));
      if (ok) host = text;
    } else if (head[3] == 4) {
      char text[INET6_ADDRSTRLEN];
      ok = readExactly(client, address, 16) && inet_ntop(AF_INET6, address, text, sizeof(text));
      if (ok) host = text;
    } else if (head[3] == 3) {
      ok = readExactly(client, address, 1) && readExactly(client, address + 1, address[0]);
      host.assign(reinterpret_cast<const char*>(address + 1), address[0]);
    } else {
      ok = false;
    }
    uint8_t portBytes[2];
    ok = ok && readExactly(client, portBytes, 2);
    port = portBytes[0] << 8 | portBytes[1];
  }

  // The reply (§6): VER REP RSV ATYP BND.ADDR BND.PORT; the bound address is not used.
  int origin = -1;
  if (ok && fault == Fault::kRefuseConnect) {
    writeAll(client, {kVersion, 5, 0, 1, 0, 0, 0, 0, 0, 0});
    ok = false;
  } else if (ok) {
    origin = connectTo(host, port);
    connection.origin.store(origin);
    // The destructor may have run its shutdowns before the origin was stored: check again.
    if (connection.broken.load() && origin != -1) ::shutdown(origin, SHUT_RDWR);
    ok = writeAll(client,
                  {kVersion, static_cast<uint8_t>(origin == -1 ? 5 : 0), 0, 1, 0, 0, 0, 0, 0, 0}) &&
         origin != -1;
  }

  if (ok) {
    std::thread back([&] { connection.pump(origin, client); });
    connection.pump(client, origin);
    back.join();
  }
  // Under the lock, so the destructor never shuts down a descriptor number already reused.
  std::lock_guard lock(mutex_);
  void (*close)(int) = connection.broken.load() ? closeWithReset : [](int fd) { ::close(fd); };
  close(connection.client.exchange(-1));
  if (int fd = connection.origin.exchange(-1); fd != -1) close(fd);
}

}  // namespace tern::testing
