// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#include "connection/real_connection_pool.h"

#include <algorithm>
#include <climits>
#include <cstdint>
#include <optional>
#include <random>
#include <stdexcept>
#include <string>
#include <utility>

#include "concurrent/fiber.h"
#include "connection/address_access.h"
#include "connection/address_connect_settings.h"
#include "connection/connection_user.h"
#include "connection/exchange_finder.h"
#include "connection/pool_connection_user.h"
#include "connection/real_connection.h"
#include "connection/route_database.h"

namespace tern::internal {

RealConnectionPool::RealConnectionPool(std::shared_ptr<TaskRunner> taskRunner,
                                       int maxIdleConnections,
                                       std::chrono::nanoseconds keepAliveDuration)
    : taskRunner_(std::move(taskRunner)),
      maxIdleConnections_(maxIdleConnections),
      keepAliveDuration_(keepAliveDuration) {
  if (!taskRunner_) throw std::invalid_argument("ConnectionPool: taskRunner == null");
  if (maxIdleConnections < 0) {
    throw std::invalid_argument("ConnectionPool: maxIdleConnections < 0: " +
                                std::to_string(maxIdleConnections));
  }
  if (keepAliveDuration <= std::chrono::nanoseconds(0)) {
    throw std::invalid_argument("ConnectionPool: keepAliveDuration <= 0: " +
                                std::to_string(keepAliveDuration.count()) + " ns");
  }
  cleanupTask_ = Task::of("tern ConnectionPool cleanup", true,
                          [this] { return cleanup(taskRunner_->nanoTime()); });
  cleanupQueue_ = taskRunner_->newQueue("tern ConnectionPool");
}

RealConnectionPool::~RealConnectionPool() {
  std::vector<std::unique_ptr<Policy>> policies;
  std::vector<Warming> warming;
  {
    MutexLock lock(mutex_);
    closing_ = true;  // No more scheduling on cleanupQueue_, no more warming.
    policies.swap(policies_);
    warming = warming_;
  }
  for (const Warming& attempt : warming) attempt.user->cancel();
  wakeConnectWaiters();
  policies.clear();       // Waits for warming tasks still running (canceled: soon).
  cleanupQueue_.reset();  // Drops the task, or waits for it to finish: it uses `this`.
  std::vector<std::shared_ptr<RealConnection>> connections;
  {
    MutexLock lock(mutex_);
    connections.swap(connections_);
  }
  for (const auto& connection : connections) connection->closeSocket();
}

int RealConnectionPool::idleConnectionCount() const {
  MutexLock lock(mutex_);
  int idle = 0;
  for (const auto& connection : connections_) {
    connection->assertPoolLockHeld(*this);
    idle += connection->callsLocked().empty() ? 1 : 0;
  }
  return idle;
}

int RealConnectionPool::connectionCount() const {
  MutexLock lock(mutex_);
  return static_cast<int>(connections_.size());
}

std::vector<std::shared_ptr<RealConnection>> RealConnectionPool::connections() const {
  MutexLock lock(mutex_);
  return connections_;
}

bool RealConnectionPool::hasExtendedConnect(const Address& address) const {
  std::vector<std::shared_ptr<RealConnection>> candidates;
  {
    MutexLock lock(mutex_);
    for (const std::shared_ptr<RealConnection>& connection : connections_) {
      connection->assertPoolLockHeld(*this);
      if (connection->http2Connection() && connection->isEligibleLocked(address, nullptr)) {
        candidates.push_back(connection);
      }
    }
  }
  // Without the pool lock: the HTTP/2 connection's own lock comes after it, never inside.
  return std::any_of(candidates.begin(), candidates.end(), [](const auto& connection) {
    return connection->http2Connection()->peerAcceptsExtendedConnect() &&
           connection->isHealthy(false);
  });
}

std::shared_ptr<RealConnection> RealConnectionPool::callAcquirePooledConnection(
    const Address& address, ConnectionUser& call, const std::vector<Route>* routes, Wanted wanted,
    const std::vector<std::shared_ptr<RealConnection>>& excluded) {
  MutexLock lock(mutex_);
  // A policy's warming makes a connection of its own, however many are idle.
  if (warmingUserLocked(call) != nullptr) return nullptr;
  for (const auto& connection : connections_) {
    connection->assertPoolLockHeld(*this);
    if (wanted == Wanted::MULTIPLEXED && !connection->isMultiplexed()) continue;
    if (wanted == Wanted::QUIC && !connection->isQuic()) continue;
    if (!connection->isEligibleLocked(address, routes)) continue;
    if (std::find(excluded.begin(), excluded.end(), connection) != excluded.end()) continue;
    acquireLocked(connection, call);
    return connection;
  }
  return nullptr;
}

bool RealConnectionPool::beginConnect(const Address& address, std::chrono::milliseconds timeout,
                                      const std::function<bool()>& isCanceled) {
  MutexLock lock(mutex_);
  auto connecting = [&]() TERN_REQUIRES(mutex_) {
    return std::find(connecting_.begin(), connecting_.end(), address) != connecting_.end();
  };
  if (!connecting()) {
    connecting_.push_back(address);
    return true;
  }
  // Another call is connecting: wait for it. wakeConnectWaiters() wakes us when a call is
  // canceled.
  auto until = std::chrono::steady_clock::now() +
               (timeout > std::chrono::milliseconds(0) ? timeout : std::chrono::hours(24));
  connectEnded_.wait_until(lock.native(), until,
                           [&]() TERN_REQUIRES(mutex_) { return !connecting() || isCanceled(); });
  return false;
}

void RealConnectionPool::wakeConnectWaiters() {
  // Under the lock: a waiter that has just seen isCanceled() false is then waiting, not about
  // to wait, so it cannot miss this.
  MutexLock lock(mutex_);
  connectEnded_.notify_all();
  placeFreed_.notify_all();
}

void RealConnectionPool::setMaxConnections(int maxConnections) {
  if (maxConnections < 0) {
    throw std::invalid_argument("ConnectionPool: maxConnections < 0: " +
                                std::to_string(maxConnections));
  }
  MutexLock lock(mutex_);
  maxConnections_ = maxConnections;
  placeFreed_.notify_all();
  policiesMayFallShortLocked();
}

void RealConnectionPool::setMaxConnectionsPerHost(int maxConnectionsPerHost) {
  if (maxConnectionsPerHost < 0) {
    throw std::invalid_argument("ConnectionPool: maxConnectionsPerHost < 0: " +
                                std::to_string(maxConnectionsPerHost));
  }
  MutexLock lock(mutex_);
  maxConnectionsPerHost_ = maxConnectionsPerHost;
  placeFreed_.notify_all();
  policiesMayFallShortLocked();
}

int RealConnectionPool::maxConnections() const {
  MutexLock lock(mutex_);
  return maxConnections_;
}

int RealConnectionPool::maxConnectionsPerHost() const {
  MutexLock lock(mutex_);
  return maxConnectionsPerHost_;
}

bool RealConnectionPool::reserveNewConnection(const Address& address, ConnectionUser& user) {
  const std::string& host = address.url().host();
  std::shared_ptr<RealConnection> toClose;
  bool reservedNow = false;
  {
    MutexLock lock(mutex_);
    auto hostOf = [](const RealConnection& connection) -> const std::string& {
      return connection.route().address().url().host();
    };
    while (true) {
      const auto [hostFull, poolFull] = roomLocked(host);
      if (!hostFull && !poolFull) {
        ++reservedPerHost_[host];
        ++reserved_;
        reservedNow = true;
        break;
      }
      // A policy's warming neither waits for a place nor closes a connection to make one: it
      // stops (its ExchangeFinder sees it canceled) and tries again once a place is given back.
      if (PoolConnectionUser* warming = warmingUserLocked(user)) {
        warming->stopAtLimit();
        break;
      }
      if (user.isCanceled()) break;
      // A connection this call may reuse came free since it looked: it takes that instead.
      bool reusable = false;
      for (const auto& connection : connections_) {
        connection->assertPoolLockHeld(*this);
        reusable = reusable || connection->isEligibleLocked(address, nullptr);
      }
      if (reusable) break;
      // An idle connection that makes room goes (the one idle longest): of this host if the
      // host is full, else of any host.
      std::shared_ptr<RealConnection> idle;
      std::chrono::nanoseconds idleAt{0};
      for (const auto& connection : connections_) {
        connection->assertPoolLockHeld(*this);
        if (!connection->callsLocked().empty()) continue;
        if (hostFull && hostOf(*connection) != host) continue;
        if (!idle || connection->idleAtNanosLocked() < idleAt) {
          idle = connection;
          idleAt = connection->idleAtNanosLocked();
        }
      }
      if (!idle) {
        BlockingScope blocking;
        placeFreed_.wait(lock.native());
        break;
      }
      idle->assertPoolLockHeld(*this);
      idle->setNoNewExchangesLocked();
      std::erase(connections_, idle);
      if (connections_.empty()) cancelCleanupLocked();
      policiesMayFallShortLocked();
      toClose = std::move(idle);
      // Look again: the room is there now, unless another limit is also full.
    }
  }
  if (toClose) toClose->closeSocket();
  return reservedNow;
}

void RealConnectionPool::releaseReservation(const Address& address) {
  MutexLock lock(mutex_);
  auto it = reservedPerHost_.find(address.url().host());
  if (it != reservedPerHost_.end() && --it->second == 0) reservedPerHost_.erase(it);
  --reserved_;
  placeFreed_.notify_all();
  policiesMayFallShortLocked();
}

void RealConnectionPool::endConnect(const Address& address) {
  {
    MutexLock lock(mutex_);
    auto it = std::find(connecting_.begin(), connecting_.end(), address);
    if (it != connecting_.end()) connecting_.erase(it);
  }
  connectEnded_.notify_all();
}

void RealConnectionPool::put(const std::shared_ptr<RealConnection>& connection,
                             ConnectionUser& call, bool reserved) {
  MutexLock lock(mutex_);
  if (reserved) {
    // The connection counts itself from now on.
    auto it = reservedPerHost_.find(connection->route().address().url().host());
    if (it != reservedPerHost_.end() && --it->second == 0) reservedPerHost_.erase(it);
    --reserved_;
  }
  connections_.push_back(connection);
  acquireLocked(connection, call);
  // No cleanup yet: a connection in use cannot expire, and release() schedules one when it
  // idles. (Scheduling here, with a release that empties the pool canceling it again, woke the
  // TaskRunner's thread twice for every call on a connection of its own: docs/performance.md.)
}

void RealConnectionPool::acquireLocked(const std::shared_ptr<RealConnection>& connection,
                                       ConnectionUser& call) {
  connection->assertPoolLockHeld(*this);
  connection->callsLocked().push_back(&call);
  call.assertPoolLockHeld(*this);
  call.setConnectionLocked(connection);
}

std::shared_ptr<RealConnection> RealConnectionPool::release(
    const std::shared_ptr<RealConnection>& connection, ConnectionUser& call) {
  MutexLock lock(mutex_);
  connection->assertPoolLockHeld(*this);
  std::erase(connection->callsLocked(), &call);
  call.assertPoolLockHeld(*this);
  call.setConnectionLocked(nullptr);
  if (!connection->callsLocked().empty()) return nullptr;

  // Idle now (a call waiting for a place may reuse it), or about to be closed (a place).
  placeFreed_.notify_all();
  connection->setIdleAtNanosLocked(taskRunner_->nanoTime());
  // Connections a policy needs are not idle for maxIdleConnections (computed only with policies).
  const std::vector<const RealConnection*> kept = keptByPoliciesLocked();
  auto isKept = [&](const RealConnection* c) {
    return std::find(kept.begin(), kept.end(), c) != kept.end();
  };
  if (connection->noNewExchangesLocked() ||
      (maxIdleConnections_ == 0 && !isKept(connection.get())) || connection->hasUnclaimedInput()) {
    connection->setNoNewExchangesLocked();
    std::erase(connections_, connection);
    if (connections_.empty()) cancelCleanupLocked();
    policiesMayFallShortLocked();
    return connection;
  }
  // Due when this connection's keep-alive runs out (a waiting cleanup is never later, so this
  // usually changes nothing and wakes no thread), or at once if too many connections idle.
  int idle = 0;
  for (const auto& c : connections_) {
    c->assertPoolLockHeld(*this);
    idle += c->callsLocked().empty() && !isKept(c.get()) ? 1 : 0;
  }
  scheduleCleanupLocked(idle > maxIdleConnections_ ? std::chrono::nanoseconds(0)
                                                   : keepAliveDuration_);
  return nullptr;
}

void RealConnectionPool::evictAll() {
  std::vector<std::shared_ptr<RealConnection>> evicted;
  {
    MutexLock lock(mutex_);
    for (const auto& connection : connections_) {
      connection->assertPoolLockHeld(*this);
      if (!connection->callsLocked().empty()) continue;
      connection->setNoNewExchangesLocked();
      evicted.push_back(connection);
    }
    for (const auto& connection : evicted) std::erase(connections_, connection);
    if (connections_.empty()) cancelCleanupLocked();
    if (!evicted.empty()) {
      placeFreed_.notify_all();
      policiesMayFallShortLocked();
    }
  }
  for (const auto& connection : evicted) connection->closeSocket();
}

std::chrono::nanoseconds RealConnectionPool::cleanup(std::chrono::nanoseconds now) {
  std::shared_ptr<RealConnection> toClose;
  std::chrono::nanoseconds result;
  {
    MutexLock lock(mutex_);
    // What the address policies need stays past maxIdleConnections, but not past keep-alive.
    const std::vector<const RealConnection*> kept = keptByPoliciesLocked();
    int inUseConnectionCount = 0;
    int idleConnectionCount = 0;                            // Not counting the kept ones.
    std::shared_ptr<RealConnection> longestIdleConnection;  // Kept or not.
    std::chrono::nanoseconds longestIdleDuration{-1};
    std::shared_ptr<RealConnection> longestIdleUnkept;
    std::chrono::nanoseconds longestIdleUnkeptDuration{-1};
    for (const auto& connection : connections_) {
      connection->assertPoolLockHeld(*this);
      if (!connection->callsLocked().empty()) {
        ++inUseConnectionCount;
        continue;
      }
      std::chrono::nanoseconds idleDuration = now - connection->idleAtNanosLocked();
      // Idle and taking no new exchanges (an HTTP/2 connection that shut down or failed): of no
      // use to anyone, it goes first.
      if (connection->noNewExchangesLocked()) idleDuration = std::chrono::nanoseconds::max();
      if (idleDuration > longestIdleDuration) {
        longestIdleDuration = idleDuration;
        longestIdleConnection = connection;
      }
      if (std::find(kept.begin(), kept.end(), connection.get()) != kept.end()) continue;
      ++idleConnectionCount;
      if (idleDuration > longestIdleUnkeptDuration) {
        longestIdleUnkeptDuration = idleDuration;
        longestIdleUnkept = connection;
      }
    }

    std::shared_ptr<RealConnection> evict;
    if (longestIdleConnection && longestIdleDuration >= keepAliveDuration_) {
      evict = std::move(longestIdleConnection);
    } else if (longestIdleUnkept && idleConnectionCount > maxIdleConnections_) {
      evict = std::move(longestIdleUnkept);
    }
    if (evict) {
      // Evict the connection that idled longest, then look again at once.
      evict->assertPoolLockHeld(*this);
      evict->setNoNewExchangesLocked();
      std::erase(connections_, evict);
      toClose = std::move(evict);
      if (connections_.empty()) cancelCleanupLocked();
      placeFreed_.notify_all();
      policiesMayFallShortLocked();
      result = std::chrono::nanoseconds(0);
    } else if (longestIdleConnection) {
      result = keepAliveDuration_ - longestIdleDuration;  // When the eldest expires.
    } else if (inUseConnectionCount > 0) {
      result = keepAliveDuration_;  // In use now; at least this long until one expires.
    } else {
      result = Task::kNoRepeat;  // Nothing left; put() schedules us again.
    }
  }
  if (toClose) toClose->closeSocket();
  return result;
}

void RealConnectionPool::connectionShutDownLocked(RealConnection& connection) {
  connection.assertPoolLockHeld(*this);
  if (connection.callsLocked().empty()) {
    scheduleCleanupLocked(std::chrono::nanoseconds(0));
  }
  policiesMayFallShortLocked();
}

void RealConnectionPool::allocationLimitChangedLocked(RealConnection& connection) {
  // The first SETTINGS come while the connection is being connected, before it is pooled.
  const bool pooled = std::find_if(connections_.begin(), connections_.end(), [&](const auto& c) {
                        return c.get() == &connection;
                      }) != connections_.end();
  if (pooled) policiesMayFallShortLocked();
}

void RealConnectionPool::scheduleCleanupLocked(std::chrono::nanoseconds delay) {
  if (!closing_) cleanupQueue_->schedule(cleanupTask_, delay);
}

void RealConnectionPool::cancelCleanupLocked() {
  // While the destructor waits for a running cleanup to finish, cleanupQueue_ is already null.
  if (!closing_) cleanupQueue_->cancelAll();
}

RealConnectionPool::Room RealConnectionPool::roomLocked(const std::string& host) {
  int forHost = reservedPerHost_.count(host) ? reservedPerHost_[host] : 0;
  for (const auto& connection : connections_) {
    forHost += connection->route().address().url().host() == host ? 1 : 0;
  }
  const int open = static_cast<int>(connections_.size()) + reserved_;
  return Room{maxConnectionsPerHost_ > 0 && forHost >= maxConnectionsPerHost_,
              maxConnections_ > 0 && open >= maxConnections_};
}

// Address policies.

void RealConnectionPool::setPolicy(const Address& address, AddressPolicy policy) {
  if (policy.minimumConcurrentCalls < 0 || policy.backoffDelay.count() < 0 ||
      policy.backoffJitter.count() < 0) {
    throw std::invalid_argument(
        "ConnectionPool.setPolicy: negative value for " + address.toString() +
        ": minimumConcurrentCalls=" + std::to_string(policy.minimumConcurrentCalls) +
        ", backoffDelay=" + std::to_string(policy.backoffDelay.count()) +
        " ms, backoffJitter=" + std::to_string(policy.backoffJitter.count()) + " ms");
  }
  if (policy.minimumConcurrentCalls > 0 && !AddressAccess::connectSettings(address)) {
    throw std::invalid_argument("ConnectionPool.setPolicy: " + address.toString() +
                                " was not made by a Client, so the pool cannot tell how to "
                                "connect to it: use Client::address(url)");
  }
  std::unique_ptr<Policy> removed;
  std::vector<std::shared_ptr<PoolConnectionUser>> toCancel;
  {
    MutexLock lock(mutex_);
    if (closing_) return;
    auto it = std::find_if(policies_.begin(), policies_.end(),
                           [&](const auto& p) { return p->address == address; });
    if (policy.minimumConcurrentCalls == 0) {
      if (it == policies_.end()) return;
      removed = std::move(*it);
      policies_.erase(it);
      removed->removed = true;
      for (const Warming& attempt : warming_) {
        if (attempt.policy == removed.get()) toCancel.push_back(attempt.user);
      }
    } else if (it != policies_.end()) {
      (*it)->address = address;
      (*it)->policy = policy;
      (*it)->queue->schedule((*it)->task, std::chrono::nanoseconds(0));
    } else {
      auto added = std::make_unique<Policy>(Policy{address, policy, false, nullptr, nullptr});
      Policy* raw = added.get();
      added->queue = taskRunner_->newQueue("tern ConnectionPool warming " + address.toString());
      added->task = Task::of("tern ConnectionPool warming " + address.toString(), true,
                             [this, raw] { return ensureMinimumConnections(*raw); });
      added->queue->schedule(added->task, std::chrono::nanoseconds(0));
      policies_.push_back(std::move(added));
    }
  }
  // Outside the lock: a warming attempt of the removed policy stops soon, and destroying its
  // queue waits for it.
  for (const auto& user : toCancel) user->cancel();
  if (!toCancel.empty()) wakeConnectWaiters();
  removed.reset();
}

std::chrono::nanoseconds RealConnectionPool::ensureMinimumConnections(Policy& policy) {
  std::optional<Address> address;
  std::shared_ptr<PoolConnectionUser> user;
  {
    MutexLock lock(mutex_);
    if (closing_ || policy.removed) return Task::kNoRepeat;
    if (capacityLocked(policy.address) >= policy.policy.minimumConcurrentCalls) {
      return Task::kNoRepeat;  // Satisfied; a drop or a lowered limit schedules us again.
    }
    const auto [hostFull, poolFull] = roomLocked(policy.address.url().host());
    if (hostFull || poolFull) return Task::kNoRepeat;  // A place given back schedules us again.
    address = policy.address;
    user = std::make_shared<PoolConnectionUser>(*this, *address);
    warming_.push_back(Warming{user, &policy});
  }

  // Connected as a call of the address's client would be: a pooled connection is never lent to
  // this user (callAcquirePooledConnection()), so the finder makes a new one and puts it in the
  // pool. The codec it makes for the exchange that never comes is dropped unused.
  const AddressConnectSettings& connect = *AddressAccess::connectSettings(*address);
  try {
    // The client's route database, or one of its own once the client is gone.
    std::shared_ptr<RouteDatabase> routeDatabase = connect.routeDatabase.lock();
    if (!routeDatabase) routeDatabase = std::make_shared<RouteDatabase>();
    ExchangeFinder finder(*this, *address, connect.settings, *routeDatabase, *user);
    finder.find(connect.connectTimeout, connect.readTimeout, connect.writeTimeout, false);
  } catch (const std::exception&) {
    // Why it failed (DNS, refused, TLS, a limit, a cancel) is of no use to anyone: there is no
    // call to fail, and the pool tries again after the backoff (or when a place is given back).
  }
  std::shared_ptr<RealConnection> connection = user->connection();
  user->releaseConnectionNoEvents();  // Idle in the pool now (or closed, if it was refused).

  MutexLock lock(mutex_);
  std::erase_if(warming_, [&](const Warming& attempt) { return attempt.user == user; });
  if (closing_ || policy.removed || user->stoppedAtLimit()) return Task::kNoRepeat;
  bool pooled = connection && std::find(connections_.begin(), connections_.end(), connection) !=
                                  connections_.end();
  if (pooled) {
    connection->assertPoolLockHeld(*this);
    pooled = !connection->noNewExchangesLocked();
  }
  // Look again at once: more may be needed. A connection that failed, or that the pool refused
  // (the server shut it down at once), waits for the backoff, so a bad server is not hammered.
  return pooled ? std::chrono::nanoseconds(0) : backoffLocked(policy.policy);
}

int RealConnectionPool::capacityLocked(const Address& address) {
  int capacity = 0;
  for (const auto& connection : connections_) {
    connection->assertPoolLockHeld(*this);
    if (connection->noNewExchangesLocked() || !(connection->route().address() == address)) continue;
    // An HTTP/2 limit may be near INT32_MAX: add without overflowing.
    capacity += std::min(connection->allocationLimitLocked(), INT32_MAX - capacity);
  }
  return capacity;
}

std::vector<const RealConnection*> RealConnectionPool::keptByPoliciesLocked() {
  std::vector<const RealConnection*> kept;
  for (const auto& policy : policies_) {
    int missing = policy->policy.minimumConcurrentCalls;
    std::vector<RealConnection*> idle;
    for (const auto& connection : connections_) {
      connection->assertPoolLockHeld(*this);
      if (connection->noNewExchangesLocked() ||
          !(connection->route().address() == policy->address)) {
        continue;
      }
      if (connection->callsLocked().empty()) {
        idle.push_back(connection.get());
      } else {
        missing -= connection->allocationLimitLocked();
      }
    }
    // The freshest are kept; an older one beyond the need idles out as any other.
    std::sort(idle.begin(), idle.end(),
              [this](RealConnection* a, RealConnection* b) TERN_REQUIRES(mutex_) {
                a->assertPoolLockHeld(*this);
                b->assertPoolLockHeld(*this);
                return a->idleAtNanosLocked() > b->idleAtNanosLocked();
              });
    for (RealConnection* connection : idle) {
      if (missing <= 0) break;
      connection->assertPoolLockHeld(*this);
      kept.push_back(connection);
      missing -= connection->allocationLimitLocked();
    }
  }
  return kept;
}

void RealConnectionPool::policiesMayFallShortLocked() {
  if (closing_) return;
  for (const auto& policy : policies_) {
    if (capacityLocked(policy->address) >= policy->policy.minimumConcurrentCalls) continue;
    // Keeps an earlier time if the task already waits for one (or runs now and repeats).
    policy->queue->schedule(policy->task, backoffLocked(policy->policy));
  }
}

std::chrono::nanoseconds RealConnectionPool::backoffLocked(const AddressPolicy& policy) {
  const int64_t jitter = policy.backoffJitter.count();
  const int64_t millis =
      policy.backoffDelay.count() +
      (jitter > 0 ? std::uniform_int_distribution<int64_t>(-jitter, jitter)(random_) : 0);
  return std::chrono::milliseconds(std::max<int64_t>(millis, 0));
}

PoolConnectionUser* RealConnectionPool::warmingUserLocked(const ConnectionUser& user) {
  for (const Warming& attempt : warming_) {
    if (attempt.user.get() == &user) return attempt.user.get();
  }
  return nullptr;
}

}  // namespace tern::internal
