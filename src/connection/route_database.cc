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

void RouteDatabase::quicFailed(const std::string& origin, std::chrono::nanoseconds now) {
  MutexLock lock(mutex_);
  QuicBroken& broken = quicBroken_[origin];
  // 5 minutes, then 10, 20, ... up to the cap (the shift stops growing long before it overflows).
  const int doublings = std::min(broken.failures, 10);
  const auto backoff =
      std::min<std::chrono::nanoseconds>(kQuicBrokenFirst * (1 << doublings), kQuicBrokenMax);
  ++broken.failures;
  broken.until = now + backoff;
  if (quicBroken_.size() > kMaxQuicBroken) {
    auto soonest = std::min_element(
        quicBroken_.begin(), quicBroken_.end(),
        [](const auto& a, const auto& b) { return a.second.until < b.second.until; });
    quicBroken_.erase(soonest);
  }
}

void RouteDatabase::quicConnected(const std::string& origin) {
  MutexLock lock(mutex_);
  quicBroken_.erase(origin);
}

bool RouteDatabase::isQuicBroken(const std::string& origin, std::chrono::nanoseconds now) const {
  MutexLock lock(mutex_);
  auto it = quicBroken_.find(origin);
  return it != quicBroken_.end() && now < it->second.until;
}

}  // namespace tern::internal
