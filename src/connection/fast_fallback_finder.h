// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#pragma once

#include <chrono>
#include <memory>
#include <mutex>

#include "concurrent/condition.h"
#include "connection/route_planner.h"

namespace tern::internal {

class RealConnection;
class TaskRunner;

// The clock a FastFallbackFinder times its attempts by: steady_clock, or a fake in tests.
class RaceClock {
 public:
  virtual ~RaceClock() = default;

  virtual std::chrono::nanoseconds now() = 0;

  // Waits on `changed` (holding `lock`) until notified or until now() reaches `deadline`; waking
  // early is fine.
  virtual void waitUntil(std::unique_lock<std::mutex>& lock, Condition& changed,
                         std::chrono::nanoseconds deadline) = 0;

  // steady_clock.
  static RaceClock& system();
};

// Carries out a RoutePlanner's plans, as OkHttp 5's FastFallbackExchangeFinder (RFC 8305): a
// reuse plan at once; otherwise connect plans raced, a new one launched every `connectDelay`
// while none has connected, or at once when every one in flight failed. TCP connects run on
// `taskRunner`; everything else (events, TLS, HTTP/2) on the call's thread, so events come in a
// fixed order: connectStart as each plan is launched, connectFailed for each one that fails or
// loses (canceled), connectEnd for the winner. Without racing, one plan at a time on the call's
// thread.
class FastFallbackFinder {
 public:
  // `racing`: fast fallback on. `clock`: RaceClock::system() but in tests.
  FastFallbackFinder(RoutePlanner& planner, TaskRunner& taskRunner, bool racing,
                     std::chrono::nanoseconds connectDelay, RaceClock& clock = RaceClock::system());

  // The connection of the first plan that succeeds, which the call now holds. Throws the first
  // plan's failure if all fail (the cancel if the call is canceled), or what plan() throws.
  std::shared_ptr<RealConnection> find();

 private:
  RoutePlanner& planner_;
  TaskRunner& taskRunner_;
  const bool racing_;
  const std::chrono::nanoseconds connectDelay_;
  RaceClock& clock_;
};

}  // namespace tern::internal
