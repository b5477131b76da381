// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#pragma once

#include <condition_variable>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <vector>

#include "tern/export.h"

namespace tern::internal {
class AsyncCall;
struct DispatcherAccess;
class FiberScheduler;
class RealCall;
class ThreadPoolExecutor;
}  // namespace tern::internal

namespace tern {

class Call;

// Decides when asynchronous calls run, as OkHttp's Dispatcher: at most maxRequests() calls at
// once (64) and at most maxRequestsPerHost() to one host (5); calls beyond the limits wait in a
// queue, in order, and start as running calls finish. Calls run on an executor; by default a
// cached thread pool whose threads are made on demand, reused, and exit after 60 s idle.
//
// Synchronous calls (Call::execute()) are not limited, but are counted by runningCallsCount()
// and canceled by cancelAll().
//
// Shared by a client and the clients made from it with newBuilder(). Thread-safe.
class TERN_API Dispatcher final {
 public:
  // Runs a job on some thread, soon. May throw to refuse it: the call then fails with
  // InterruptedIOException("executor rejected").
  using Executor = std::function<void(std::function<void()> job)>;

  // A dispatcher with its own cached thread pool ("tern Dispatcher" threads).
  Dispatcher();

  // A dispatcher that runs calls on `executor` (tests use one that records jobs and runs them
  // later). Throws std::invalid_argument if it is empty.
  explicit Dispatcher(Executor executor);

  // Joins its own pool's threads (after they finish their calls). Every queued or running call
  // keeps the dispatcher alive through its client, so this runs only once no call needs it: as
  // in OkHttp, dropping the last Client neither cancels nor waits for its calls, and each still
  // gets its callback. When that last reference goes on one of the pool's own threads (at the
  // end of the last call's job), that thread is not joined: it exits on its own right after.
  ~Dispatcher();

  Dispatcher(const Dispatcher&) = delete;
  Dispatcher& operator=(const Dispatcher&) = delete;

  // The most calls that run at once. Raising it starts queued calls at once; lowering it lets
  // running calls finish. Throws std::invalid_argument("max < 1: 0") below 1.
  int maxRequests() const;
  void setMaxRequests(int maxRequests);

  // The most calls that run at once to one host (by URL host name; different IPs of one host
  // count together). Throws std::invalid_argument("max < 1: 0") below 1.
  int maxRequestsPerHost() const;
  void setMaxRequestsPerHost(int maxRequestsPerHost);

  // Called each time the dispatcher becomes idle (the number of running calls drops to zero),
  // on the thread of the call that finished last. Null for none.
  void setIdleCallback(std::function<void()> idleCallback);

  // The calls waiting to run, in order.
  std::vector<std::shared_ptr<Call>> queuedCalls() const;

  // The calls running now: asynchronous ones and those in execute().
  std::vector<std::shared_ptr<Call>> runningCalls() const;

  int queuedCallsCount() const;
  int runningCallsCount() const;

  // Cancels every queued and running call, asynchronous and synchronous (Call::cancel()), as
  // OkHttp's cancelAll(). Each still ends once: running calls fail with
  // InterruptedIOException("Canceled") on their thread; queued calls keep their place and fail
  // the same way, on a dispatcher thread, when they get their turn (at once, since a canceled
  // call does no I/O). Calls enqueued after it returns are not affected. An enqueued call that
  // waits for its turn reports EventListener::dispatcherQueueStart, then dispatcherQueueEnd when
  // it leaves the queue to run.
  void cancelAll();

  // Ends the dispatcher in an orderly way (what Client::shutdown() does to it); idempotent and
  // thread-safe:
  //  1. refuses new calls: from now on enqueue() fails the call with
  //     InterruptedIOException("client is shut down"), calling onFailure before enqueue()
  //     returns, on that thread; execute() throws it;
  //  2. cancelAll(): every queued and running call fails with "Canceled", each callback once;
  //  3. waits until every queued and running asynchronous call has ended and its callback has
  //     returned, then shuts its own pool down and joins its threads (with an executor of your
  //     own, it waits for the calls it gave that executor to end, and leaves the executor alone).
  // So once it returns, no callback of this dispatcher runs again. Synchronous calls are canceled
  // but not waited for: they end on their own threads.
  //
  // Called from inside one of its calls (an interceptor, an event listener or a callback, on a
  // dispatcher thread) it cannot wait for that call to end: it does 1 and 2 and returns at once;
  // the calls end and the pool's threads exit after the running callbacks return.
  void shutdown();

 private:
  friend class internal::AsyncCall;
  friend struct internal::DispatcherAccess;
  friend class internal::RealCall;

  // Queues `call` and starts what the limits allow.
  void enqueue(std::shared_ptr<internal::AsyncCall> call);
  // Records a synchronous call while it runs.
  void executed(internal::RealCall* call);
  // An asynchronous call ended: frees its slot and starts the next.
  void finished(const std::shared_ptr<internal::AsyncCall>& call);
  // A synchronous call ended.
  void finished(internal::RealCall* call);
  // Moves what the limits allow from ready to running and starts them. Returns true if calls
  // are still running.
  bool promoteAndExecute();
  // Moves what the limits allow from ready to running, into `executable`. Lock held.
  void promoteLocked(std::vector<std::shared_ptr<internal::AsyncCall>>& executable);
  // Starts promoted calls (reporting dispatcherQueueEnd for those that waited). Lock not held.
  void executeAll(const std::vector<std::shared_ptr<internal::AsyncCall>>& executable);
  // After a call finished: starts queued calls, or runs the idle callback if none is running.
  void afterFinished();
  int runningCallsCountLocked() const;

  std::unique_ptr<internal::ThreadPoolExecutor> ownExecutor_;  // Null with a given executor.
  Executor executor_;
  // With its own pool: calls run on fibers carried by the pool's threads, and a call waiting on
  // the network holds none (DESIGN.md, Threads). With a given executor, each call runs on one
  // of its threads from start to end.
  std::shared_ptr<internal::FiberScheduler> fibers_;

  mutable std::mutex mutex_;  // Guards everything below.
  int maxRequests_ = 64;
  int maxRequestsPerHost_ = 5;
  std::function<void()> idleCallback_;
  std::deque<std::shared_ptr<internal::AsyncCall>> readyAsyncCalls_;
  std::deque<std::shared_ptr<internal::AsyncCall>> runningAsyncCalls_;
  std::deque<internal::RealCall*> runningSyncCalls_;  // Alive: their execute() is on the stack.
  bool shutdown_ = false;
  std::condition_variable drained_;  // Signaled when no asynchronous call is queued or running.
};

}  // namespace tern
