// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#pragma once

#include <chrono>
#include <memory>

#include "tern/address.h"
#include "tern/export.h"

namespace tern::internal {
class RealConnectionPool;
struct ConnectionPoolAccess;
}  // namespace tern::internal

namespace tern {

// How many connections a ConnectionPool keeps open and warm to one address, ahead of the calls
// that will need them (the design of OkHttp 5.0.0-alpha's AddressPolicy, since removed from
// OkHttp; in tern a supported API). See ConnectionPool::setPolicy(). The defaults are OkHttp's.
struct TERN_API AddressPolicy {
  // How many calls to the address the open connections must be able to carry at once: an
  // HTTP/1.1 connection carries one, an HTTP/2 connection as many as the server's
  // MAX_CONCURRENT_STREAMS allows. Connections in use count as well as idle ones. Zero: none kept.
  int minimumConcurrentCalls = 0;
  // How long the pool waits before opening connections again after some dropped (closed for
  // their keep-alive, by the server, by evictAll()) or failed to connect...
  std::chrono::milliseconds backoffDelay{60'000};
  // ...give or take up to this much, chosen at random each time, so that many clients that lose
  // their connections together (a server restart) do not come back in the same instant.
  std::chrono::milliseconds backoffJitter{100};
};

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
  // to the pool as usual when their calls release them. Connections an address policy keeps
  // go too, and come back after its backoff.
  void evictAll();

  // Keeps enough connections to `address` open and warm for `policy.minimumConcurrentCalls`
  // calls at once (see AddressPolicy), so the first calls there skip DNS, TCP and TLS. Get the
  // address from the client whose calls will use the connections (Client::address(url)): the
  // pool opens them as that client would (its timeouts, TLS and proxy settings, fast fallback),
  // on the background TaskRunner, starting now. Whenever the address falls short again (a
  // connection closed or shut down, an HTTP/2 server lowered its MAX_CONCURRENT_STREAMS) or a
  // connect failed, the pool tries again after policy.backoffDelay ± policy.backoffJitter.
  //
  // The connections are the pool's like any other: calls take them, and they come back. The
  // cleanup never closes one the policy needs for being idle beyond maxIdleConnections (they do
  // not count as idle for that limit), only when it has idled past keepAliveDuration (then it is
  // opened again after the backoff). The pool's limits (setMaxConnections,
  // setMaxConnectionsPerHost) bound the policy too: at a limit it opens nothing, closes nothing
  // to make room, and tries again after the backoff once a place is given back.
  //
  // Replaces the address's policy, if it had one; minimumConcurrentCalls == 0 removes it (the
  // connections it kept stay, as ordinary idle connections). Thread-safe. Throws
  // std::invalid_argument for a negative value, or for a policy with minimumConcurrentCalls > 0
  // on an address no Client made (it would not know how to connect).
  void setPolicy(const Address& address, AddressPolicy policy);

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
