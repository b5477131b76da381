// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#include "connection/connection_user.h"

#include "connection/real_connection.h"

namespace tern::internal {

std::shared_ptr<RealConnection> ConnectionUser::connection() const {
  MutexLock lock(pool_->mutex());
  return connection_;
}

void ConnectionUser::connectionSucceeded() {
  MutexLock lock(pool_->mutex());
  if (connection_) {
    connection_->assertPoolLockHeld(*pool_);
    connection_->incrementSuccessCountLocked();
  }
}

std::shared_ptr<RealConnection> ConnectionUser::releaseConnectionNoEvents() {
  std::shared_ptr<RealConnection> released = connection();
  if (!released) return nullptr;
  if (std::shared_ptr<RealConnection> toClose = pool_->release(released, *this)) {
    toClose->closeSocket();
  }
  return released;
}

}  // namespace tern::internal
