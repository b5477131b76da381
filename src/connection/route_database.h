// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#pragma once

#include <vector>

#include "concurrent/mutex.h"
#include "tern/route.h"

namespace tern::internal {

// A blacklist of routes that failed recently, as OkHttp's RouteDatabase: when a connection on a
// route fails, the route selector tries that route after the others next time, until a
// connection on it succeeds again. Shared by a client and those made from it. Thread-safe.
class RouteDatabase {
 public:
  // Records a failure to connect (or to complete a first exchange) on `route`.
  void failed(const Route& route);

  // Records a successful connection on `route`, forgiving earlier failures.
  void connected(const Route& route);

  // True if `route` failed recently and should be tried last.
  bool shouldPostpone(const Route& route) const;

 private:
  mutable Mutex mutex_;
  std::vector<Route> failedRoutes_ TERN_GUARDED_BY(mutex_);  // Few entries, so a vector.
};

}  // namespace tern::internal
