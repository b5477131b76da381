// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <utility>

#include "concurrent/thread_annotations.h"

namespace tern::internal {

class Fiber;

// A std::condition_variable that a fiber waits on by parking (concurrent/fiber.h), so an
// asynchronous call that waits for a response holds no thread; a plain thread waits as on a
// std::condition_variable. Every wait may wake spuriously, as std::condition_variable's may:
// callers check their condition in a loop (the predicate forms do).
//
// Thread-safe. notify_*() may be called with or without the waiters' mutex held.
class Condition {
 public:
  using Clock = std::chrono::steady_clock;

  Condition() = default;
  Condition(const Condition&) = delete;
  Condition& operator=(const Condition&) = delete;

  void notify_one() noexcept;
  void notify_all() noexcept;

  void wait(std::unique_lock<std::mutex>& lock);
  std::cv_status wait_until(std::unique_lock<std::mutex>& lock, Clock::time_point until);

  template <class Duration>
  std::cv_status wait_until(std::unique_lock<std::mutex>& lock,
                            std::chrono::time_point<Clock, Duration> until) {
    return wait_until(lock, std::chrono::time_point_cast<Clock::duration>(until));
  }
  template <class Rep, class Period>
  std::cv_status wait_for(std::unique_lock<std::mutex>& lock,
                          std::chrono::duration<Rep, Period> duration) {
    return wait_until(lock, Clock::now() + std::chrono::ceil<Clock::duration>(duration));
  }

  // The predicate forms run `ready` with the caller's lock held, as std::condition_variable's
  // do; clang's analysis cannot see that lock through the std::unique_lock.
  template <class Predicate>
  void wait(std::unique_lock<std::mutex>& lock, Predicate ready) TERN_NO_THREAD_SAFETY_ANALYSIS {
    while (!ready()) wait(lock);
  }
  template <class Duration, class Predicate>
  bool wait_until(std::unique_lock<std::mutex>& lock,
                  std::chrono::time_point<Clock, Duration> until,
                  Predicate ready) TERN_NO_THREAD_SAFETY_ANALYSIS {
    while (!ready()) {
      if (wait_until(lock, until) == std::cv_status::timeout) return ready();
    }
    return true;
  }
  template <class Rep, class Period, class Predicate>
  bool wait_for(std::unique_lock<std::mutex>& lock, std::chrono::duration<Rep, Period> duration,
                Predicate ready) TERN_NO_THREAD_SAFETY_ANALYSIS {
    return wait_until(lock, Clock::now() + std::chrono::ceil<Clock::duration>(duration),
                      std::move(ready));
  }

 private:
  struct Waiter {
    Fiber* fiber;
    uint64_t ticket;
    Waiter* next = nullptr;
    Waiter* previous = nullptr;
    bool linked = false;
  };

  std::cv_status parkUntil(Fiber& fiber, std::unique_lock<std::mutex>& lock,
                           const Clock::time_point* until);
  void unlinkLocked(Waiter& waiter) noexcept;
  void wakeFibers(bool all) noexcept;

  std::condition_variable threads_;
  std::mutex waitersMutex_;
  Waiter* head_ = nullptr;  // Guarded by waitersMutex_.
  Waiter* tail_ = nullptr;  // Guarded by waitersMutex_.
  std::atomic<int> fiberWaiters_{0};
};

}  // namespace tern::internal
