// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#pragma once

#include <atomic>
#include <memory>
#include <string>

#include "tern/callback.h"
#include "tern/dispatcher.h"
#include "tern/exceptions.h"

namespace tern::internal {

class FiberScheduler;
class RealCall;

// An enqueued call waiting for, or running on, a dispatcher thread, as OkHttp's
// RealCall.AsyncCall. Shares a per-host counter with the other calls to its host, which the
// Dispatcher uses to enforce maxRequestsPerHost.
class AsyncCall : public std::enable_shared_from_this<AsyncCall> {
 public:
  AsyncCall(std::shared_ptr<RealCall> call, std::shared_ptr<Callback> callback);

  RealCall& call() const noexcept { return *call_; }
  std::shared_ptr<RealCall> sharedCall() const noexcept { return call_; }

  // The URL host, which maxRequestsPerHost counts by.
  const std::string& host() const;

  // The calls to this host running now; shared with the other AsyncCalls to the host.
  std::atomic<int>& callsPerHost() const noexcept { return *callsPerHost_; }
  void reuseCallsPerHostFrom(const AsyncCall& other) { callsPerHost_ = other.callsPerHost_; }

  // True if the call had to wait in the Dispatcher's queue (it reported dispatcherQueueStart).
  // Set by the Dispatcher under its lock when the call is enqueued; read-only after.
  bool queued() const noexcept { return queued_; }
  void setQueuedLocked(bool queued) noexcept { queued_ = queued; }

  // Hands this call to `executor`. If the executor refuses it, the call fails with
  // InterruptedIOException("executor rejected") and is finished. Dispatcher lock not held.
  void executeOn(const Dispatcher::Executor& executor);
  // Runs this call on a new fiber of `fibers` (the Dispatcher's own pool). Fails it as above if
  // no fiber can start.
  void executeOn(FiberScheduler& fibers);

  // Runs the call, reports to the callback, and finishes it (on the executor's thread).
  void run();
  // run() without the finish: on a fiber, whose carrier finishes the call after it.
  void runExchange();

  // Fails the call without running it: ends it with `e` (callFailed) and calls onFailure on this
  // thread. The caller then finishes it with the Dispatcher if it was running. Lock not held.
  void failRejected(const InterruptedIOException& e);

  // True if this thread is inside one of `dispatcher`'s calls: its interceptors, events or
  // callback (run() or failRejected() is on the stack). Dispatcher::shutdown() asks, because
  // such a thread cannot wait for its own call to end.
  static bool onCallThread(const Dispatcher& dispatcher) noexcept;

 private:
  std::shared_ptr<RealCall> call_;
  std::shared_ptr<Callback> callback_;
  std::shared_ptr<std::atomic<int>> callsPerHost_;
  bool queued_ = false;
};

}  // namespace tern::internal
