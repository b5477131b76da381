// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#pragma once

#include <chrono>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>

#include "concurrent/task_runner.h"

namespace tern::testing {

// A TaskRunner on a fake clock, as OkHttp's TaskFaker: tasks run on the test's thread when the
// test advances time, so tests of timed behaviour (pool eviction after keep-alive, ping
// intervals) are fast and deterministic. The clock starts at zero and moves only when told.
//
//   TaskFaker faker;
//   auto queue = faker.taskRunner()->newQueue("cleanup");
//   queue->execute("evict", 5min, true, [&] { ... });
//   faker.advanceUntil(5min);  // runs it now, at nanoTime() == 5 min
//
// Tasks may be scheduled from any thread; they run only inside runTasks()/advance*().
class TaskFaker {
 public:
  TaskFaker();
  ~TaskFaker();
  TaskFaker(const TaskFaker&) = delete;
  TaskFaker& operator=(const TaskFaker&) = delete;

  const std::shared_ptr<internal::TaskRunner>& taskRunner() const { return runner_; }

  // The fake clock.
  std::chrono::nanoseconds nanoTime() const;

  // Runs every task due at the current time, including ones they schedule for now.
  void runTasks();

  // Moves the clock forward to `time`, stopping at each scheduled task's time to run it there
  // (so each task sees nanoTime() == its scheduled time), then runs what is due at `time`.
  // Throws std::invalid_argument if `time` is in the past.
  void advanceUntil(std::chrono::nanoseconds time);

  // advanceUntil(nanoTime() + duration).
  void advanceBy(std::chrono::nanoseconds duration);

  // How many times the coordinator asked to sleep (each would be a real wait).
  int coordinatorWaitCount() const;

 private:
  class FakeBackend;
  std::shared_ptr<FakeBackend> backend_;
  std::shared_ptr<internal::TaskRunner> runner_;
};

}  // namespace tern::testing
