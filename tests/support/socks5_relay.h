// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#pragma once

#include <atomic>
#include <list>
#include <memory>
#include <mutex>
#include <thread>

namespace tern::testing {

// A SOCKS5 proxy (RFC 1928, no authentication, CONNECT only) in the test's own process, so a
// test can break the proxy's step (a bad reply, a refusal, a hang-up mid-handshake) and see
// what the origin server does through it. Unlike microsocks (tests/support/proxy_servers.h) it
// needs nothing installed and carries the origin's half-closes and resets to the client as they
// happen: an origin's FIN becomes a FIN to the client, its RST an RST.
//
// Listens on 127.0.0.1; each connection is served on two threads of its own (one per
// direction). Thread-safe. The destructor cuts every connection and joins every thread.
class Socks5Relay {
 public:
  // What the relay does to the next connection it accepts (failNext()); the connections after
  // that are relayed faithfully.
  enum class Fault {
    kNone,
    kCloseAfterGreeting,  // Reads the client's greeting, then closes without a word.
    kBadVersion,          // Answers the greeting with version 4, as no SOCKS5 proxy would.
    kRefuseConnect,       // Answers the CONNECT with REP 5, "connection refused".
  };

  Socks5Relay();  // Starts listening.
  ~Socks5Relay();
  Socks5Relay(const Socks5Relay&) = delete;
  Socks5Relay& operator=(const Socks5Relay&) = delete;

  int port() const { return port_; }
  // The next connection accepted suffers `fault`.
  void failNext(Fault fault);
  // How many connections it accepted.
  int connectionCount() const { return connectionCount_.load(); }

 private:
  struct Connection;
  void acceptConnections();
  void serve(Connection& connection, Fault fault);

  int listener_ = -1;
  int wakeFd_ = -1;  // An eventfd that stops the accept loop.
  int port_ = -1;
  std::atomic<int> connectionCount_{0};
  std::mutex mutex_;
  Fault nextFault_ = Fault::kNone;                      // Guarded by mutex_.
  bool stopping_ = false;                               // Guarded by mutex_.
  std::list<std::unique_ptr<Connection>> connections_;  // Guarded by mutex_.
  std::thread acceptThread_;
};

}  // namespace tern::testing
