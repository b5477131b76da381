// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#pragma once

#include <chrono>
#include <memory>

#include "tern/export.h"

namespace tern::internal {
class RealConnectionPool;
struct ConnectionPoolAccess;
}  // namespace tern::internal

namespace tern {

// Keeps idle HTTP connections open for reuse, as OkHttp's ConnectionPool: requests to the same
// address share connections, saving the TCP (and later TLS) handshakes. A connection goes back
// to the pool when its response body is read to the end or closed; the pool keeps at most
// maxIdleConnections idle ones and closes each after keepAliveDuration idle, from a cleanup task
// on the background TaskRunner.
//
// Shared by a client and the clients made from it with newBuilder() (and by any clients given
// the same pool). Thread-safe.
class TERN_API ConnectionPool final {
 public:
  // Throws std::invalid_argument if maxIdleConnections < 0 or keepAliveDuration <= 0.
  explicit ConnectionPool(int maxIdleConnections = 5,
                          std::chrono::nanoseconds keepAliveDuration = std::chrono::minutes(5));

  ~ConnectionPool();
  ConnectionPool(const ConnectionPool&) = delete;
  ConnectionPool& operator=(const ConnectionPool&) = delete;

  // Connections in the pool that carry no call now.
  int idleConnectionCount() const;

  // Every connection in the pool, idle or in use.
  int connectionCount() const;

  // Limits on the connections the pool opens (OkHttp has none: its issue #3907), for servers
  // that allow few: at most `maxConnections` open in all and `maxConnectionsPerHost` to one host
  // name (zero, the default: no limit). Idle and in-use connections count, HTTP/2 ones once
  // however many calls share them. A call that needs a new connection when a limit is reached
  // first closes an idle connection that makes room, else waits for a connection to be released
  // (which it may then reuse) or closed; it never fails for a limit, and waits until then or
  // until it is canceled or its call timeout fires. (So a thread that holds responses open to a
  // full host and starts another call there waits on itself: set a call timeout.) Raising a
  // limit wakes the waiting calls. Attempts raced by fast fallback count once. Throws
  // std::invalid_argument for a negative limit.
  void setMaxConnections(int maxConnections);
  void setMaxConnectionsPerHost(int maxConnectionsPerHost);
  int maxConnections() const;
  int maxConnectionsPerHost() const;

  // Closes and removes every idle connection. Connections in use are not affected: they return
  // to the pool as usual when their calls release them.
  void evictAll();

 private:
  // The layers below reach the implementation through internal::ConnectionPoolAccess
  // (src/connection/connection_pool_access.h), which also makes pools over a given one (tests
  // make one on a fake clock).
  friend struct internal::ConnectionPoolAccess;

  // A pool over `delegate`. Throws std::invalid_argument if null.
  explicit ConnectionPool(std::shared_ptr<internal::RealConnectionPool> delegate);

  std::shared_ptr<internal::RealConnectionPool> delegate_;
};

}  // namespace tern
