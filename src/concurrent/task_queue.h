// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#pragma once

#include <chrono>
#include <functional>
#include <future>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "concurrent/task.h"

namespace tern::internal {

class TaskRunner;

// A named, serial queue of tasks on a TaskRunner, as OkHttp's TaskQueue: its tasks run one at a
// time in order of their scheduled time (different queues run in parallel). Each component
// that does background work owns one (the connection pool's "tern ConnectionPool" queue).
//
// Made by TaskRunner::newQueue(); owned by its component. Destroying it drops every scheduled
// task and waits for a running one to finish (unless the destructor runs inside that task), so
// a component that destroys its queue first can let its tasks reference it freely.
//
// Thread-safe: every method may be called from any thread, including from its own tasks. All
// state is guarded by the TaskRunner's one lock.
class TaskQueue {
 public:
  ~TaskQueue();
  TaskQueue(const TaskQueue&) = delete;
  TaskQueue& operator=(const TaskQueue&) = delete;

  const std::string& name() const noexcept { return name_; }
  TaskRunner& taskRunner() const noexcept { return *runner_; }

  // Runs `task` after `delay` (zero: as soon as a thread is free). If the task already waits
  // in this queue, it keeps the earlier of its two times. After shutdown() a cancelable task is
  // dropped silently and a non-cancelable one throws std::logic_error (OkHttp's
  // RejectedExecutionException). Throws std::invalid_argument if delay < 0, std::logic_error
  // if the task waits or runs in another queue.
  void schedule(const std::shared_ptr<Task>& task,
                std::chrono::nanoseconds delay = std::chrono::nanoseconds(0));

  // Schedules a cancelable task named `name` that runs `block`, which returns the delay until
  // it runs again or Task::kNoRepeat.
  void schedule(std::string name, std::chrono::nanoseconds delay,
                std::function<std::chrono::nanoseconds()> block);

  // Schedules a one-shot task named `name` that runs `block` once.
  void execute(std::string name, std::chrono::nanoseconds delay, bool cancelable,
               std::function<void()> block);

  // Drops every waiting cancelable task, and keeps a running cancelable task from repeating.
  // Non-cancelable tasks still run. Does not wait for a running task.
  void cancelAll();

  // cancelAll(), and from now on schedule() drops cancelable tasks and refuses the others.
  // Waiting non-cancelable tasks still run. Idempotent.
  void shutdown();

  bool isShutdown() const;

  // The tasks waiting to run, earliest first (not the running one).
  std::vector<std::shared_ptr<Task>> scheduledTasks() const;

  // The task running now, or nullptr.
  std::shared_ptr<Task> activeTask() const;

  // A future that becomes ready once every task due now (scheduled with a time up to this
  // moment) has run: it schedules a non-cancelable "<name> awaitIdle" task at delay zero
  // (OkHttp's idleLatch()). Ready at once if nothing waits or runs. If the queue is destroyed
  // first, get() throws std::future_error (broken_promise).
  std::shared_future<void> idleLatch();

  // Only TaskRunner can make a key, so only newQueue() can call the constructor (which
  // make_unique needs to be public).
  class PassKey {
    friend class TaskRunner;
    PassKey() = default;
  };
  TaskQueue(PassKey, std::shared_ptr<TaskRunner> runner, std::string name);

 private:
  friend class TaskRunner;

  // Inserts `task` to run at `executeNanoTime`, or moves it there if it waits for a later time.
  // Returns true if it became the first task (the coordinator must look again). Caller holds
  // the runner's lock.
  bool scheduleAndDecide(const std::shared_ptr<Task>& task,
                         std::chrono::nanoseconds executeNanoTime);
  // Drops waiting cancelable tasks; returns true if any went. Caller holds the runner's lock.
  bool cancelAllAndDecide();

  const std::shared_ptr<TaskRunner> runner_;  // Keeps the runner alive as long as this queue.
  const std::string name_;

  // Guarded by the runner's lock.
  std::vector<std::shared_ptr<Task>> futureTasks_;  // Sorted by nextExecuteNanoTime_.
  std::shared_ptr<Task> activeTask_;
  std::thread::id activeThread_;  // The thread running activeTask_.
  bool cancelActiveTask_ = false;
  bool shutdown_ = false;
};

}  // namespace tern::internal
