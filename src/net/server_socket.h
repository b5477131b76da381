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

  // Stops listening (new connections are refused) and wakes a blocked accept(). Thread-safe,
  // idempotent. The descriptor is released at once, or by a blocked accept() as it wakes, so its
  // number is never reused under a thread still polling it.
  void close() noexcept;

  bool isClosed() const noexcept;

  // Only bind() can make a key, so only it can call the constructor (which make_unique needs
  // to be public).
  class PassKey {
    friend class ServerSocket;
    PassKey() = default;
  };
  ServerSocket(PassKey, int fd, InetSocketAddress local);

 private:
  void releaseFd();  // Closes fd_; caller holds lock_.

  mutable std::mutex lock_;
  int fd_;                  // Guarded by lock_; read without it by accept() while accepting_.
  bool closed_ = false;     // Guarded by lock_.
  bool accepting_ = false;  // Guarded by lock_: an accept() is using fd_, close() must not.
  WakeupFd wakeup_;         // Signaled by close(); released by the destructor.
  const InetSocketAddress local_;
};

}  // namespace tern::internal
