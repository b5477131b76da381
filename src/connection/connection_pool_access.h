// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#pragma once

#include <memory>

#include "connection/real_connection_pool.h"
#include "tern/connection_pool.h"

namespace tern::internal {

// The ConnectionPool's implementation, for the layers below the API (and tests, which make a
// pool on a fake clock). ConnectionPool keeps these private, so its public face shows no
// internal:: type.
struct ConnectionPoolAccess {
  static RealConnectionPool& delegate(const ConnectionPool& pool) noexcept {
    return *pool.delegate_;
  }

  // A public pool over `delegate`. Throws std::invalid_argument if null.
  static std::shared_ptr<ConnectionPool> over(std::shared_ptr<RealConnectionPool> delegate) {
    // Not make_shared: the constructor is private to this friend.
    return std::shared_ptr<ConnectionPool>(new ConnectionPool(std::move(delegate)));
  }
};

}  // namespace tern::internal
