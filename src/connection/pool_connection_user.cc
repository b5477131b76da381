// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#include "connection/pool_connection_user.h"

#include <utility>

#include "connection/real_connection.h"

namespace tern::internal {

PoolConnectionUser::PoolConnectionUser(RealConnectionPool& pool, Address address)
    : ConnectionUser(pool), address_(std::move(address)) {}

PoolConnectionUser::~PoolConnectionUser() = default;

void PoolConnectionUser::cancel() {
  canceled_ = true;
  std::vector<std::shared_ptr<RealConnection>> connections;
  {
    MutexLock lock(mutex_);
    connections = connectionsToCancel_;
  }
  for (const auto& connection : connections) connection->cancel();
}

void PoolConnectionUser::stopAtLimit() noexcept {
  // Only flags: the attempt has not started connecting (the pool reserves a place before it
  // connects), so there is no socket to break.
  atLimit_ = true;
  canceled_ = true;
}

void PoolConnectionUser::addConnectionToCancel(std::shared_ptr<RealConnection> connection) {
  {
    MutexLock lock(mutex_);
    connectionsToCancel_.push_back(connection);
  }
  if (canceled_) connection->cancel();
}

void PoolConnectionUser::removeConnectionToCancel(
    const std::shared_ptr<RealConnection>& connection) {
  MutexLock lock(mutex_);
  std::erase(connectionsToCancel_, connection);
}

std::exception_ptr PoolConnectionUser::messageDone(Exchange&, bool, bool, std::exception_ptr e) {
  return e;  // Never called: this user makes no exchange.
}

std::string PoolConnectionUser::toLoggableString() const {
  return "connection pool warming " + address_.toString();
}

}  // namespace tern::internal
