// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#pragma once

#include <chrono>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <thread>
#include <unordered_map>
#include <vector>

namespace tern::internal {

class Fiber;
class FiberScheduler;

// The one thread that wakes parked fibers for what no other thread reports: deadlines (a park
// with a timeout), sockets becoming ready (epoll, for HTTP/1.1 and for connects), and carriers
// that stopped making progress (FiberScheduler::checkStarved). Started on first use; stopped and
// joined at exit.
class FiberReactor {
 public:
  using Clock = std::chrono::steady_clock;

  static FiberReactor& instance();

  // Unparks `fiber` under `ticket` at `when`. Returns an id for cancelTimer().
  uint64_t addTimer(Clock::time_point when, std::weak_ptr<Fiber> fiber, uint64_t ticket);
  void cancelTimer(uint64_t id);

  // Parks the current fiber until `fd` is ready for `events` (POLLIN or POLLOUT), `wakeupFd` is
  // readable (a cancel), or `until`. Returns false without parking if the descriptors cannot be
  // watched (the caller then polls on its thread).
  bool awaitFd(int fd, short events, int wakeupFd, std::optional<Clock::time_point> until);

  // Asks for checkStarved() calls on `scheduler` while it has fibers waiting for a carrier.
  void watchStarvation(std::weak_ptr<FiberScheduler> scheduler);

  ~FiberReactor();

 private:
  FiberReactor();
  void run();
  void wakeLocked();

  struct Waiter {
    std::weak_ptr<Fiber> fiber;
    uint64_t ticket;
  };

  int epoll_ = -1;
  int wakeup_ = -1;  // eventfd: timers and starvation watches changed.
  std::mutex mutex_;
  bool stopping_ = false;
  uint64_t nextId_ = 1;
  std::multimap<Clock::time_point, uint64_t> timersByTime_;
  std::unordered_map<uint64_t,
                     std::pair<std::multimap<Clock::time_point, uint64_t>::iterator, Waiter>>
      timers_;
  std::unordered_map<uint64_t, Waiter> fdWaiters_;
  std::vector<std::weak_ptr<FiberScheduler>> starving_;
  std::thread thread_;
};

}  // namespace tern::internal
