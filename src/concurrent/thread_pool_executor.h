// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#pragma once

#include <chrono>
#include <cstddef>
#include <functional>
#include <memory>
#include <string>

namespace tern::internal {

// A cached thread pool, as Java's Executors.newCachedThreadPool() (which OkHttp's Dispatcher and
// TaskRunner use): execute() hands the job to an idle thread, or starts a new one if none is
// idle; a thread that stays idle for `keepAlive` exits. So an idle pool holds no threads, and a
// burst of N jobs runs on N threads at once. Jobs never wait in a queue behind each other (the
// Dispatcher does its own queueing and limits).
//
// Thread-safe: every method may be called from any thread, including from inside a job.
//
// A job that throws is reported on stderr ("tern: uncaught exception in <name>: <what>") and the
// thread carries on: a job is expected to catch its own failures (as AsyncCall does), so this
// is a last resort that keeps one bad job from killing the process.
//
// Destruction shuts the pool down and joins every thread, waiting for running jobs to finish. If
// the destructor runs on one of the pool's own threads (a job dropped the last reference to its
// owner), that thread is detached instead of joined; it finishes its job and exits without
// touching the destroyed pool (the threads share the pool's state through a shared_ptr).
class ThreadPoolExecutor {
 public:
  static constexpr std::chrono::seconds kDefaultKeepAlive{60};

  // `name` names the threads (pthread_setname_np, truncated to 15 bytes: "tern Dispatcher").
  // `maxThreads` bounds the threads; when all are busy, jobs wait in FIFO order. Throws
  // std::invalid_argument if keepAlive < 0 or maxThreads == 0.
  explicit ThreadPoolExecutor(std::string name,
                              std::chrono::nanoseconds keepAlive = kDefaultKeepAlive,
                              size_t maxThreads = static_cast<size_t>(-1));
  ~ThreadPoolExecutor();

  ThreadPoolExecutor(const ThreadPoolExecutor&) = delete;
  ThreadPoolExecutor& operator=(const ThreadPoolExecutor&) = delete;

  // Runs `job` on a pool thread soon. Throws std::logic_error("... has been shut down") after
  // shutdown() (Java's RejectedExecutionException), and std::system_error if no thread can be
  // started while none is idle.
  void execute(std::function<void()> job);

  // For a job's last act, such as starting the work its end makes room for: runs `job` on the
  // calling pool thread right after the current job returns, with no hand-off to another thread
  // (no wake-up, no pool-wide lock). Called from anywhere else (not one of this pool's threads,
  // or a thread that already has a next job), the same as execute(). Throws as execute() does.
  void executeNext(std::function<void()> job);

  // Refuses new jobs; jobs already given still run; idle threads exit at once. Idempotent.
  void shutdown();

  // Waits until every thread has exited after shutdown(), at most `timeout`. True if they all
  // did. Returns false at once if shutdown() was not called.
  bool awaitTermination(std::chrono::nanoseconds timeout);

  bool isShutdown() const;

  // True if the calling thread is one of this pool's (which awaitTermination() would wait for).
  bool isPoolThread() const noexcept;

  // Threads alive now (busy or idle).
  size_t threadCount() const;

  // Threads waiting for a job.
  size_t idleThreadCount() const;

  // Jobs given but not yet finished (running, waiting for a thread, or next on a thread).
  size_t activeCount() const;

 private:
  struct State;
  std::shared_ptr<State> state_;
};

}  // namespace tern::internal
