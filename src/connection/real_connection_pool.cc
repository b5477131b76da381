// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#include "connection/real_connection_pool.h"

#include <algorithm>
#include <stdexcept>
#include <utility>

#include "connection/connection_user.h"
#include "connection/real_connection.h"

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
  {
    MutexLock lock(mutex_);
    closing_ = true;  // No more scheduling on cleanupQueue_.
  }
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

std::shared_ptr<RealConnection> RealConnectionPool::callAcquirePooledConnection(
    const Address& address, ConnectionUser& call, const std::vector<Route>* routes,
    bool requireMultiplexed, const std::vector<std::shared_ptr<RealConnection>>& excluded) {
  MutexLock lock(mutex_);
  for (const auto& connection : connections_) {
    connection->assertPoolLockHeld(*this);
    if (requireMultiplexed && !connection->isMultiplexed()) continue;
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
}

void RealConnectionPool::setMaxConnectionsPerHost(int maxConnectionsPerHost) {
  if (maxConnectionsPerHost < 0) {
    throw std::invalid_argument("ConnectionPool: maxConnectionsPerHost < 0: " +
                                std::to_string(maxConnectionsPerHost));
  }
  MutexLock lock(mutex_);
  maxConnectionsPerHost_ = maxConnectionsPerHost;
  placeFreed_.notify_all();
}

int RealConnectionPool::maxConnections() const {
  MutexLock lock(mutex_);
  return maxConnections_;
}

int RealConnectionPool::maxConnectionsPerHost() const {
  MutexLock lock(mutex_);
  return maxConnectionsPerHost_;
}

bool RealConnectionPool::reserveNewConnection(const Address& address,
                                              const std::function<bool()>& isCanceled) {
  const std::string& host = address.url().host();
  std::shared_ptr<RealConnection> toClose;
  bool reservedNow = false;
  {
    MutexLock lock(mutex_);
    auto hostOf = [](const RealConnection& connection) -> const std::string& {
      return connection.route().address().url().host();
    };
    while (true) {
      int forHost = reservedPerHost_.count(host) ? reservedPerHost_[host] : 0;
      for (const auto& connection : connections_) forHost += hostOf(*connection) == host ? 1 : 0;
      const int open = static_cast<int>(connections_.size()) + reserved_;
      const bool hostFull = maxConnectionsPerHost_ > 0 && forHost >= maxConnectionsPerHost_;
      const bool poolFull = maxConnections_ > 0 && open >= maxConnections_;
      if (!hostFull && !poolFull) {
        ++reservedPerHost_[host];
        ++reserved_;
        reservedNow = true;
        break;
      }
      if (isCanceled()) break;
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
        placeFreed_.wait(lock.native());
        break;
      }
      idle->assertPoolLockHeld(*this);
      idle->setNoNewExchangesLocked();
      std::erase(connections_, idle);
      if (connections_.empty()) cancelCleanupLocked();
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
  if (connection->noNewExchangesLocked() || maxIdleConnections_ == 0 ||
      connection->hasUnclaimedInput()) {
    connection->setNoNewExchangesLocked();
    std::erase(connections_, connection);
    if (connections_.empty()) cancelCleanupLocked();
    return connection;
  }
  // Due when this connection's keep-alive runs out (a waiting cleanup is never later, so this
  // usually changes nothing and wakes no thread), or at once if too many connections idle.
  int idle = 0;
  for (const auto& c : connections_) {
    c->assertPoolLockHeld(*this);
    idle += c->callsLocked().empty() ? 1 : 0;
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
    if (!evicted.empty()) placeFreed_.notify_all();
  }
  for (const auto& connection : evicted) connection->closeSocket();
}

std::chrono::nanoseconds RealConnectionPool::cleanup(std::chrono::nanoseconds now) {
  std::shared_ptr<RealConnection> toClose;
  std::chrono::nanoseconds result;
  {
    MutexLock lock(mutex_);
    int inUseConnectionCount = 0;
    int idleConnectionCount = 0;
    std::shared_ptr<RealConnection> longestIdleConnection;
    std::chrono::nanoseconds longestIdleDuration{-1};
    for (const auto& connection : connections_) {
      connection->assertPoolLockHeld(*this);
      if (!connection->callsLocked().empty()) {
        ++inUseConnectionCount;
        continue;
      }
      ++idleConnectionCount;
      std::chrono::nanoseconds idleDuration = now - connection->idleAtNanosLocked();
      // Idle and taking no new exchanges (an HTTP/2 connection that shut down or failed): of no
      // use to anyone, it goes first.
      if (connection->noNewExchangesLocked()) idleDuration = std::chrono::nanoseconds::max();
      if (idleDuration > longestIdleDuration) {
        longestIdleDuration = idleDuration;
        longestIdleConnection = connection;
      }
    }

    if (longestIdleConnection &&
        (longestIdleDuration >= keepAliveDuration_ || idleConnectionCount > maxIdleConnections_)) {
      // Evict the connection that idled longest, then look again at once.
      longestIdleConnection->assertPoolLockHeld(*this);
      longestIdleConnection->setNoNewExchangesLocked();
      std::erase(connections_, longestIdleConnection);
      toClose = std::move(longestIdleConnection);
      if (connections_.empty()) cancelCleanupLocked();
      placeFreed_.notify_all();
      result = std::chrono::nanoseconds(0);
    } else if (idleConnectionCount > 0) {
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
}

void RealConnectionPool::scheduleCleanupLocked(std::chrono::nanoseconds delay) {
  if (!closing_) cleanupQueue_->schedule(cleanupTask_, delay);
}

void RealConnectionPool::cancelCleanupLocked() {
  // While the destructor waits for a running cleanup to finish, cleanupQueue_ is already null.
  if (!closing_) cleanupQueue_->cancelAll();
}

}  // namespace tern::internal
