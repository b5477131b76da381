// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#pragma once

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "concurrent/task.h"
#include "concurrent/task_queue.h"

namespace tern::internal {

class ThreadPoolExecutor;

// Runs background tasks on a few threads, as OkHttp's TaskRunner: tasks wait in named serial
// TaskQueues; one thread at a time is the coordinator, which sleeps until the earliest task is
// due, then runs it (starting another thread first if more tasks are due). Threads come from
// the Backend, so tests swap in a fake clock and run tasks on the test thread without sleeping
// (tests/support/task_faker.h).
//
// Thread-safe. One mutex (lock_) guards the runner and all its queues and tasks; it is never
// held while a task runs, and Backend methods called under it must not call back into the
// runner.
//
// Lifetime: made by create() and shared: each TaskQueue holds the runner, and worker threads
// hold it (weakly when not running) while they run. shutdown() stops it for good.
class TaskRunner : public std::enable_shared_from_this<TaskRunner> {
 public:
  // Where the runner gets its clock and its threads.
  class Backend {
   public:
    virtual ~Backend() = default;

    // A monotonic clock (any epoch), as System.nanoTime().
    virtual std::chrono::nanoseconds nanoTime() = 0;

    // Wakes the coordinator from coordinatorWait() early (a task became due sooner). Called with
    // the runner's lock held.
    virtual void coordinatorNotify(TaskRunner& runner) = 0;

    // Called by the coordinator, holding `lock` (the runner's), when the next task is `nanos`
    // away. Waits that long or until coordinatorNotify(), releasing the lock meanwhile; waking
    // early is fine. Returns true to keep coordinating, or false to make this thread stop and
    // return (a fake that cannot sleep; it calls kickCoordinator() after moving its clock).
    virtual bool coordinatorWait(TaskRunner& runner, std::unique_lock<std::mutex>& lock,
                                 std::chrono::nanoseconds nanos) = 0;

    // Runs `runnable` on another thread, soon (a fake may run it later, on the test's thread).
    // Called with the runner's lock held: must not run it inline.
    virtual void execute(TaskRunner& runner, std::function<void()> runnable) = 0;
  };

  // Real threads from a ThreadPoolExecutor named "tern TaskRunner" (idle threads exit after
  // `keepAlive`), and std::chrono::steady_clock.
  class RealBackend final : public Backend {
   public:
    explicit RealBackend(std::chrono::nanoseconds keepAlive = std::chrono::seconds(60));
    ~RealBackend() override;
    std::chrono::nanoseconds nanoTime() override;
    void coordinatorNotify(TaskRunner& runner) override;
    bool coordinatorWait(TaskRunner& runner, std::unique_lock<std::mutex>& lock,
                         std::chrono::nanoseconds nanos) override;
    void execute(TaskRunner& runner, std::function<void()> runnable) override;

    // Stops the thread pool and waits for its threads to exit (after the runner's shutdown(),
    // which makes them return). Later execute() calls throw std::logic_error.
    void shutdown();

    // The pool's live threads, for tests that check none leak.
    size_t threadCount() const;

   private:
    std::condition_variable coordinator_;  // Waited on with the runner's lock.
    std::unique_ptr<ThreadPoolExecutor> executor_;
  };

  // A runner on `backend`. Throws std::invalid_argument if backend is null.
  static std::shared_ptr<TaskRunner> create(std::shared_ptr<Backend> backend);

  // The process-wide runner on a RealBackend, made on first use. At exit a static guard calls
  // shutdown() (dropping waiting tasks, waiting for running ones) and then stops the pool and
  // waits for its threads to exit, so no task runs and no pool thread holds the runner while
  // the program's static objects are destroyed. The threads are joined when the runner goes
  // (at once, unless a leaked TaskQueue still holds it; then they have exited and are only
  // never joined).
  static const std::shared_ptr<TaskRunner>& instance();

  ~TaskRunner();
  TaskRunner(const TaskRunner&) = delete;
  TaskRunner& operator=(const TaskRunner&) = delete;

  // A new queue named `name` ("Q10000", "Q10001", ... if empty).
  std::unique_ptr<TaskQueue> newQueue(std::string name = {});

  // Queues with a task waiting or running.
  std::vector<TaskQueue*> activeQueues() const;

  // cancelAll() on every queue.
  void cancelAll();

  // Drops every waiting task of every queue (non-cancelable too), refuses new ones as a shut-
  // down queue does, wakes the coordinator, and waits for running tasks to finish (except one
  // running on the calling thread). Idempotent.
  void shutdown();

  bool isShutdown() const;

  // The backend's clock.
  std::chrono::nanoseconds nanoTime() const { return backend_->nanoTime(); }

  Backend& backend() const noexcept { return *backend_; }

  // Makes the runner look at its queues again: wakes the coordinator, or starts a thread if
  // none coordinates. Fake backends call it after advancing their clock.
  void kickCoordinator();

  // Only create() can make a key (make_shared needs a public constructor).
  class PassKey {
    friend class TaskRunner;
    PassKey() = default;
  };
  TaskRunner(PassKey, std::shared_ptr<Backend> backend);

 private:
  friend class TaskQueue;

  // All below: caller holds lock_.
  void kickCoordinatorLocked(TaskQueue* queue);  // queue: whose tasks changed, or nullptr.
  void startAnotherThread();
  std::shared_ptr<Task> awaitTaskToRun(std::unique_lock<std::mutex>& lock);
  void beforeRun(const std::shared_ptr<Task>& task);
  void afterRun(const std::shared_ptr<Task>& task, std::chrono::nanoseconds delay);
  void removeQueue(TaskQueue* queue);  // From readyQueues_ and busyQueues_.

  // A worker thread's loop: runs tasks until none is due, or coordinates until one is.
  void runWorker();

  const std::shared_ptr<Backend> backend_;

  mutable std::mutex lock_;
  std::condition_variable taskFinished_;  // Notified after every task; queue destructors wait.
  std::vector<TaskQueue*> readyQueues_;   // Queues with waiting tasks and none running.
  std::vector<TaskQueue*> busyQueues_;    // Queues with a task running.
  std::vector<TaskQueue*> allQueues_;     // Every live queue, for cancelAll() and shutdown().
  bool coordinatorWaiting_ = false;
  std::chrono::nanoseconds coordinatorWakeUpAt_{0};
  int pendingWorkers_ = 0;  // execute() calls whose runnable has not started yet.
  int nextQueueName_ = 10000;
  bool shutdown_ = false;
};

}  // namespace tern::internal
