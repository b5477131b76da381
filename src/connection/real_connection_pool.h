// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#pragma once

#include <chrono>
#include <condition_variable>
#include <functional>
#include <map>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "concurrent/condition.h"
#include "concurrent/mutex.h"
#include "concurrent/task_queue.h"
#include "concurrent/task_runner.h"
#include "tern/address.h"
#include "tern/connection_pool.h"
#include "tern/route.h"

namespace tern::internal {

class ConnectionUser;
class PoolConnectionUser;
class RealConnection;

// The connection pool behind tern::ConnectionPool, as OkHttp's RealConnectionPool: holds every
// connection a client made (in use or idle), lends idle ones to calls for the same address, and
// closes idle ones that exceed maxIdleConnections or have idled keepAliveDuration, from a
// cleanup task on a TaskRunner queue ("tern ConnectionPool").
//
// Address policies (setPolicy()) keep connections warm: each has a TaskRunner queue of its own
// whose task opens connections with an ExchangeFinder and a PoolConnectionUser until the
// address's connections can carry the policy's calls.
//
// Thread-safe. One mutex guards the list and each connection's bookkeeping (see
// RealConnection); it is never held while a socket is read, written, connected or closed.
class RealConnectionPool {
 public:
  // Throws std::invalid_argument if maxIdleConnections < 0 or keepAliveDuration <= 0, or if
  // taskRunner is null.
  RealConnectionPool(std::shared_ptr<TaskRunner> taskRunner, int maxIdleConnections,
                     std::chrono::nanoseconds keepAliveDuration);

  // Stops the cleanup task, then closes every connection left (none should be in use: calls
  // keep their client, and so the pool, alive).
  ~RealConnectionPool();
  RealConnectionPool(const RealConnectionPool&) = delete;
  RealConnectionPool& operator=(const RealConnectionPool&) = delete;

  int idleConnectionCount() const;
  int connectionCount() const;

  // Which pooled connections a call will take.
  enum class Wanted {
    ANY,
    MULTIPLEXED,  // HTTP/2 or HTTP/3.
    QUIC,         // HTTP/3 only: the origin's HTTP/3 alternative is preferred to TCP.
  };

  // Lends `call` a connection to `address`, if one is eligible (idle, or HTTP/2 or HTTP/3 below
  // its stream limit; with `routes`, the address's resolved routes, also an HTTP/2 connection to
  // another host that may be coalesced: RealConnection::isEligibleLocked()), of the `wanted`
  // kind, and not in `excluded`; returns it (the call now holds it), or null. The caller checks
  // its health before use.
  std::shared_ptr<RealConnection> callAcquirePooledConnection(
      const Address& address, ConnectionUser& call, const std::vector<Route>* routes = nullptr,
      Wanted wanted = Wanted::ANY,
      const std::vector<std::shared_ptr<RealConnection>>& excluded = {});

  // For addresses that will speak HTTP/2 (h2 prior knowledge): lets one call at a time connect,
  // so calls that start together share one connection instead of each making their own (as
  // curl's multiplexing waits for the first connection). Returns true if the caller may connect
  // now (it must then call endConnect()); false after waiting while another call connected, at
  // most `timeout` or until `isCanceled()` (the caller then looks in the pool again).
  // `isCanceled` is called with the pool lock held: it must not take it.
  bool beginConnect(const Address& address, std::chrono::milliseconds timeout,
                    const std::function<bool()>& isCanceled);
  void endConnect(const Address& address);
  // Makes the calls waiting in beginConnect() look at their isCanceled() again at once: for
  // Call::cancel(), after the call is marked canceled.
  void wakeConnectWaiters();

  // Limits on open connections (zero: none): in all, and to one host (the URL's host name).
  // Raising or removing a limit wakes the calls waiting for a place.
  // Throw std::invalid_argument for a negative limit.
  void setMaxConnections(int maxConnections);
  void setMaxConnectionsPerHost(int maxConnectionsPerHost);
  int maxConnections() const;
  int maxConnectionsPerHost() const;

  // For a call about to open a new connection to `address`: reserves a place for it under the
  // limits and returns true (the caller then put()s the connection with `reserved`, or gives the
  // place back with releaseReservation()). At a limit, returns false at once if a connection the
  // call may reuse came free (RealConnection::isEligibleLocked()); else closes an idle connection
  // if that makes room (one of this host for the per-host limit, any for the total); if none, waits
  // until a connection is released or closed, a place is given back, a limit changes or
  // wakeConnectWaiters() (a cancel), and returns false: the caller looks in the pool again (a
  // released connection may be its to reuse), then asks again. `user.isCanceled()` is called
  // with the pool lock held; once it says true, this returns false at once. A policy's warming
  // user neither waits nor closes a connection: it is stopped, and false returned.
  bool reserveNewConnection(const Address& address, ConnectionUser& user);
  void releaseReservation(const Address& address);

  // Adds a freshly connected `connection`, held by `call`; with `reserved`, it takes the place
  // reserveNewConnection() kept for it. Its cleanup is scheduled when it idles.
  void put(const std::shared_ptr<RealConnection>& connection, ConnectionUser& call,
           bool reserved = false);

  // Makes `call` hold `connection`. Pool lock held.
  void acquireLocked(const std::shared_ptr<RealConnection>& connection, ConnectionUser& call)
      TERN_REQUIRES(mutex_);

  // Makes `call` let go of `connection`. If no call holds it any more it becomes idle; returns
  // it if it must be closed instead (it takes no new exchanges, or the pool keeps no idle
  // connections), in which case it has left the pool and the caller closes its socket.
  std::shared_ptr<RealConnection> release(const std::shared_ptr<RealConnection>& connection,
                                          ConnectionUser& call);

  // Closes every idle connection and removes it.
  void evictAll();

  // ConnectionPool::setPolicy(): adds, replaces or (minimumConcurrentCalls == 0) removes the
  // policy for `address`, whose AddressConnectSettings say how to connect. A new or changed
  // policy warms at once. Throws std::invalid_argument as ConnectionPool::setPolicy() says.
  void setPolicy(const Address& address, AddressPolicy policy);

  // `connection`'s allocation limit changed (an HTTP/2 peer's MAX_CONCURRENT_STREAMS): a policy
  // that falls short warms again after its backoff. Pool lock held.
  void allocationLimitChangedLocked(RealConnection& connection) TERN_REQUIRES(mutex_);

  // Closes the connection that idled longest if it exceeds the limits, and returns how long
  // until the next one might: the cleanup task's body, public for tests. `now` is the TaskRunner
  // clock. Returns Task::kNoRepeat when the pool is empty.
  std::chrono::nanoseconds cleanup(std::chrono::nanoseconds now);

  // The TaskRunner's clock, which idle times are measured on.
  std::chrono::nanoseconds nanoTime() const { return taskRunner_->nanoTime(); }

  // The TaskRunner for connections' background work (HTTP/2 writes and pings).
  TaskRunner& taskRunner() const noexcept { return *taskRunner_; }

  // Guards the list and every connection's bookkeeping (RealConnection's and each
  // ConnectionUser's members guarded by `pool().mutex()`).
  Mutex& mutex() const noexcept TERN_RETURN_CAPABILITY(mutex_) { return mutex_; }

  // Every connection, in use or idle (a snapshot).
  std::vector<std::shared_ptr<RealConnection>> connections() const;

  // True if the pool holds an HTTP/2 connection to `address`'s own host that could carry one more
  // stream and whose peer accepts extended CONNECT (RFC 8441 §3): a request with an Upgrade
  // header (a WebSocket) made now would go out as a stream on it. Not coalesced connections.
  bool hasExtendedConnect(const Address& address) const;

  // `connection` takes no new exchanges any more (an HTTP/2 connection that shut down or
  // failed): if no call holds it, the cleanup task closes it now rather than when it would have
  // expired. Pool lock held.
  void connectionShutDownLocked(RealConnection& connection) TERN_REQUIRES(mutex_);

 private:
  // Makes the cleanup task run within `delay` (sooner if it already waits for an earlier time).
  void scheduleCleanupLocked(std::chrono::nanoseconds delay) TERN_REQUIRES(mutex_);
  // Cancels the cleanup task (the pool is empty). Lock held. Neither does anything once closing_.
  void cancelCleanupLocked() TERN_REQUIRES(mutex_);

  // Whether the limits leave room for another connection to `host`, counting reservations.
  struct Room {
    bool hostFull;
    bool poolFull;
  };
  Room roomLocked(const std::string& host) TERN_REQUIRES(mutex_);

  // An address policy and the queue its warming task runs on.
  // address, policy and removed are guarded by the pool's mutex_ (not annotated: the analysis
  // cannot name the pool from here); the queue and task are set once.
  struct Policy {
    Address address;  // The latest setPolicy()'s: its connect settings are the ones used.
    AddressPolicy policy;
    bool removed = false;
    std::unique_ptr<TaskQueue> queue;  // Destroyed, after removal, outside the pool lock.
    std::shared_ptr<Task> task;
  };
  // The warming task's body: opens one connection if `policy`'s address falls short, and
  // returns when to look again (at once after a connection, the backoff after a failure, never
  // when satisfied or at a limit).
  std::chrono::nanoseconds ensureMinimumConnections(Policy& policy);
  // How many calls at once the connections to `address` that take new exchanges can carry.
  int capacityLocked(const Address& address) TERN_REQUIRES(mutex_);
  // The idle connections the policies need: for each policy, its address's idle connections,
  // most recently used first, until with those in use they carry its minimumConcurrentCalls.
  // These never count against maxIdleConnections.
  std::vector<const RealConnection*> keptByPoliciesLocked() TERN_REQUIRES(mutex_);
  // A connection left the pool, shut down or lost capacity, or a place was given back: every
  // policy that now falls short warms again after its backoff.
  void policiesMayFallShortLocked() TERN_REQUIRES(mutex_);
  std::chrono::nanoseconds backoffLocked(const AddressPolicy& policy) TERN_REQUIRES(mutex_);
  // `user` if it is a policy's warming user, else null (see reserveNewConnection()).
  PoolConnectionUser* warmingUserLocked(const ConnectionUser& user) TERN_REQUIRES(mutex_);

  const std::shared_ptr<TaskRunner> taskRunner_;
  const int maxIdleConnections_;
  const std::chrono::nanoseconds keepAliveDuration_;
  // Set by the constructor; the queue is reset by the destructor once closing_ keeps everyone
  // else off it.
  std::shared_ptr<Task> cleanupTask_;
  std::unique_ptr<TaskQueue> cleanupQueue_;

  mutable Mutex mutex_;
  // The destructor runs: cleanupQueue_ is going away.
  bool closing_ TERN_GUARDED_BY(mutex_) = false;
  std::vector<std::shared_ptr<RealConnection>> connections_ TERN_GUARDED_BY(mutex_);
  std::vector<Address> connecting_ TERN_GUARDED_BY(mutex_);  // See beginConnect().
  Condition connectEnded_;                                   // Waited on with mutex_.
  // Connection limits (zero: none), and the places reserved for connections being made, per
  // host and in all. See reserveNewConnection().
  int maxConnections_ TERN_GUARDED_BY(mutex_) = 0;
  int maxConnectionsPerHost_ TERN_GUARDED_BY(mutex_) = 0;
  std::map<std::string, int> reservedPerHost_ TERN_GUARDED_BY(mutex_);
  int reserved_ TERN_GUARDED_BY(mutex_) = 0;
  // Waited on with mutex_, and woken with notify_all(): every waiter looks again. Not a
  // Condition: a fiber waiting here holds its carrier (BlockingScope), since a thousand parked
  // fibers woken for each freed place cost more than the threads (docs/calls.md).
  std::condition_variable placeFreed_;
  // Address policies, and the warming attempts running now (each on its policy's queue).
  std::vector<std::unique_ptr<Policy>> policies_ TERN_GUARDED_BY(mutex_);
  struct Warming {
    std::shared_ptr<PoolConnectionUser> user;
    const Policy* policy;
  };
  std::vector<Warming> warming_ TERN_GUARDED_BY(mutex_);
  std::minstd_rand random_ TERN_GUARDED_BY(mutex_){std::random_device{}()};  // For jitter.
};

}  // namespace tern::internal
