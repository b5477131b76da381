// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#pragma once

#include <chrono>
#include <memory>
#include <mutex>

#include "net/socket.h"
#include "net/wakeup_fd.h"
#include "tern/inet_address.h"

namespace tern::internal {

// A listening TCP socket, as Java's ServerSocket: for MockWebServer and tests. Binds with
// SO_REUSEADDR, non-blocking and close-on-exec.
//
// Threads: one thread accepts; close() may be called from any thread at any time, and wakes a
// blocked accept(), which then throws IOException("Socket closed").
class ServerSocket {
 public:
  // Binds to `address` (port 0 picks a free port; see localAddress()) and listens with
  // `backlog`. Throws IOException naming the address ("Failed to bind to /127.0.0.1:8080:
  // Address already in use").
  static std::unique_ptr<ServerSocket> bind(const InetSocketAddress& address, int backlog = 50);

  ~ServerSocket();
  ServerSocket(const ServerSocket&) = delete;
  ServerSocket& operator=(const ServerSocket&) = delete;

  // The bound address and the actual port.
  const InetSocketAddress& localAddress() const noexcept { return local_; }

  // Waits for the next connection, at most `timeout` (zero: forever), and returns it as a
  // connected Socket. Throws SocketTimeoutException("Accept timed out after 100 ms: ...") or
  // IOException("Socket closed") once close() is called.
  std::unique_ptr<Socket> accept(std::chrono::milliseconds timeout = std::chrono::milliseconds(0));

  // Stops listening and wakes a blocked accept(). Thread-safe, idempotent. The descriptor is
  // released by the destructor (or by accept() noticing the close), never under a blocked
  // accept().
  void close() noexcept;

  bool isClosed() const noexcept;

 private:
  ServerSocket(int fd, InetSocketAddress local);

  mutable std::mutex lock_;
  int fd_;  // Closed by the destructor only, so a blocked accept() never sees it reused.
  bool closed_ = false;  // Guarded by lock_.
  WakeupFd wakeup_;
  InetSocketAddress local_;
};

}  // namespace tern::internal
