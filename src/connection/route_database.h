// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#pragma once

#include <chrono>
#include <map>
#include <string>
#include <vector>

#include "concurrent/mutex.h"
#include "tern/route.h"

namespace tern::internal {

// A blacklist of routes that failed recently, as OkHttp's RouteDatabase: when a connection on a
// route fails, the route selector tries that route after the others next time, until a
// connection on it succeeds again. Shared by a client and those made from it. Thread-safe.
//
// It also remembers origins whose HTTP/3 alternative failed (Chromium's "broken alternative
// services"): a network that drops UDP, or a server whose Alt-Svc names a port nothing serves,
// costs one race, not one per call. An origin is left to TCP for kQuicBrokenFirst after a failure,
// twice as long after each further failure in a row (at most kQuicBrokenMax), until a QUIC
// connection to it succeeds.
class RouteDatabase {
 public:
  // Records a failure to connect (or to complete a first exchange) on `route`.
  void failed(const Route& route);

  // Records a successful connection on `route`, forgiving earlier failures.
  void connected(const Route& route);

  // True if `route` failed recently and should be tried last.
  bool shouldPostpone(const Route& route) const;

  static constexpr std::chrono::minutes kQuicBrokenFirst{5};
  static constexpr std::chrono::hours kQuicBrokenMax{48};
  // At most this many origins are remembered; the one allowed back soonest is forgotten first.
  static constexpr std::size_t kMaxQuicBroken = 256;

  // HTTP/3 to `origin` ("host:port") failed at `now` (a monotonic time, as the pool's clock).
  void quicFailed(const std::string& origin, std::chrono::nanoseconds now);
  // HTTP/3 to `origin` succeeded: its failures are forgotten.
  void quicConnected(const std::string& origin);
  // True if HTTP/3 to `origin` failed recently and must not be tried at `now`.
  bool isQuicBroken(const std::string& origin, std::chrono::nanoseconds now) const;

 private:
  struct QuicBroken {
    int failures = 0;
    std::chrono::nanoseconds until{0};
  };

  mutable Mutex mutex_;
  std::vector<Route> failedRoutes_ TERN_GUARDED_BY(mutex_);  // Few entries, so a vector.
  std::map<std::string, QuicBroken> quicBroken_ TERN_GUARDED_BY(mutex_);
};

}  // namespace tern::internal
