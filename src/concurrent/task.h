// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#pragma once

#include <chrono>
#include <functional>
#include <memory>
#include <string>

namespace tern::internal {

class TaskQueue;

// A unit of background work for a TaskQueue, as OkHttp's Task: connection pool cleanup,
// WebSocket pings, cache journal rebuilds. runOnce() returns when to run again, so one task
// object can repeat (the pool's cleanup runs again when the next idle connection expires).
//
// A task is in at most one queue at a time: scheduling it on a second queue while it waits or
// runs in the first throws std::logic_error. Scheduling it again on its own queue while it
// waits moves it earlier, never later (OkHttp's rule), so repeated "run cleanup now" requests
// collapse into one run.
//
// Cancelable tasks are dropped by TaskQueue::cancelAll() and shutdown(); non-cancelable ones
// (a journal that must be written) still run after cancelAll(), and are refused by shutdown().
// Both kinds are dropped when their queue is destroyed.
class Task {
 public:
  // runOnce()'s answer for "do not run again".
  static constexpr std::chrono::nanoseconds kNoRepeat{-1};

  explicit Task(std::string name, bool cancelable = true)
      : name_(std::move(name)), cancelable_(cancelable) {}
  virtual ~Task() = default;
  Task(const Task&) = delete;
  Task& operator=(const Task&) = delete;

  const std::string& name() const noexcept { return name_; }
  bool cancelable() const noexcept { return cancelable_; }

  // Does the work, on a TaskRunner thread (never two runs of one queue at once). Returns the
  // delay until it should run again (zero: as soon as possible), or kNoRepeat. An exception is
  // reported on stderr and counts as kNoRepeat.
  virtual std::chrono::nanoseconds runOnce() = 0;

  // A task that calls `block` (OkHttp's schedule(name) { ... } lambda form).
  static std::shared_ptr<Task> of(std::string name, bool cancelable,
                                  std::function<std::chrono::nanoseconds()> block);

 private:
  friend class TaskQueue;
  friend class TaskRunner;

  // The rest is guarded by the TaskRunner's lock.
  const std::string name_;
  const bool cancelable_;
  TaskQueue* queue_ = nullptr;                        // While scheduled or running.
  std::chrono::nanoseconds nextExecuteNanoTime_{-1};  // TaskRunner::nanoTime() of the next run.
};

}  // namespace tern::internal
