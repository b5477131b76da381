// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#include "tern/connection_pool.h"

#include <stdexcept>
#include <utility>

#include "concurrent/task_runner.h"
#include "connection/real_connection_pool.h"

namespace tern {

ConnectionPool::ConnectionPool(int maxIdleConnections, std::chrono::nanoseconds keepAliveDuration)
    : delegate_(std::make_shared<internal::RealConnectionPool>(
          internal::TaskRunner::instance(), maxIdleConnections, keepAliveDuration)) {}

ConnectionPool::ConnectionPool(std::shared_ptr<internal::RealConnectionPool> delegate)
    : delegate_(std::move(delegate)) {
  if (!delegate_) throw std::invalid_argument("ConnectionPool: delegate == null");
}

ConnectionPool::~ConnectionPool() = default;

int ConnectionPool::idleConnectionCount() const { return delegate_->idleConnectionCount(); }

int ConnectionPool::connectionCount() const { return delegate_->connectionCount(); }

void ConnectionPool::evictAll() { delegate_->evictAll(); }

void ConnectionPool::setPolicy(const Address& address, AddressPolicy policy) {
  delegate_->setPolicy(address, policy);
}

void ConnectionPool::setMaxConnections(int maxConnections) {
  delegate_->setMaxConnections(maxConnections);
}

void ConnectionPool::setMaxConnectionsPerHost(int maxConnectionsPerHost) {
  delegate_->setMaxConnectionsPerHost(maxConnectionsPerHost);
}

int ConnectionPool::maxConnections() const { return delegate_->maxConnections(); }

int ConnectionPool::maxConnectionsPerHost() const { return delegate_->maxConnectionsPerHost(); }

}  // namespace tern
