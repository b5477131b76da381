// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#include "connection/route_database.h"

#include <algorithm>

namespace tern::internal {

void RouteDatabase::failed(const Route& route) {
  MutexLock lock(mutex_);
  if (std::find(failedRoutes_.begin(), failedRoutes_.end(), route) == failedRoutes_.end()) {
    failedRoutes_.push_back(route);
  }
}

void RouteDatabase::connected(const Route& route) {
  MutexLock lock(mutex_);
  std::erase(failedRoutes_, route);
}

bool RouteDatabase::shouldPostpone(const Route& route) const {
  MutexLock lock(mutex_);
  return std::find(failedRoutes_.begin(), failedRoutes_.end(), route) != failedRoutes_.end();
}

}  // namespace tern::internal
