// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#include "tern/dispatcher.h"

#include <algorithm>
#include <chrono>
#include <stdexcept>
#include <string>
#include <thread>
#include <utility>

#include "call/async_call.h"
#include "call/real_call.h"
#include "concurrent/fiber.h"
#include "concurrent/thread_pool_executor.h"
#include "tern/event_listener.h"
#include "tern/exceptions.h"

namespace tern {

using internal::AsyncCall;
using internal::RealCall;

Dispatcher::Dispatcher()
    : ownExecutor_(std::make_unique<internal::ThreadPoolExecutor>("tern Dispatcher")) {
  internal::ThreadPoolExecutor* pool = ownExecutor_.get();
  executor_ = [pool](std::function<void()> job) { pool->execute(std::move(job)); };
  // A few carriers run every call's fiber; more come only while they are all stuck in code that
  // blocks without parking (FiberScheduler).
  const int cores = static_cast<int>(std::thread::hardware_concurrency());
  fibers_ = internal::FiberScheduler::create(executor_, std::max(2, cores));
}

Dispatcher::Dispatcher(Executor executor) : executor_(std::move(executor)) {
  if (!executor_) throw std::invalid_argument("Dispatcher: executor is empty");
}

Dispatcher::~Dispatcher() = default;

int Dispatcher::maxRequests() const {
  std::lock_guard lock(mutex_);
  return maxRequests_;
}

void Dispatcher::setMaxRequests(int maxRequests) {
  if (maxRequests < 1) {
    throw std::invalid_argument("max < 1: " + std::to_string(maxRequests));
  }
  {
    std::lock_guard lock(mutex_);
    maxRequests_ = maxRequests;
  }
  promoteAndExecute();
}

int Dispatcher::maxRequestsPerHost() const {
  std::lock_guard lock(mutex_);
  return maxRequestsPerHost_;
}

void Dispatcher::setMaxRequestsPerHost(int maxRequestsPerHost) {
  if (maxRequestsPerHost < 1) {
    throw std::invalid_argument("max < 1: " + std::to_string(maxRequestsPerHost));
  }
  {
    std::lock_guard lock(mutex_);
    maxRequestsPerHost_ = maxRequestsPerHost;
  }
  promoteAndExecute();
}

void Dispatcher::setIdleCallback(std::function<void()> idleCallback) {
  std::lock_guard lock(mutex_);
  idleCallback_ = std::move(idleCallback);
}

namespace {

// What a call made after shutdown() fails with.
InterruptedIOException shutDown() { return InterruptedIOException("client is shut down"); }

}  // namespace

void Dispatcher::enqueue(std::shared_ptr<AsyncCall> call) {
  std::vector<std::shared_ptr<AsyncCall>> executable;
  bool rejected = false;
  {
    // Until dispatcherQueueStart is out, another thread that promotes the call waits to report
    // dispatcherQueueEnd (and so to run it).
    std::unique_lock<std::recursive_mutex> events = call->call().lockEvents();
    bool waits = false;
    {
      std::lock_guard lock(mutex_);
      rejected = shutdown_;
      if (!rejected) {
        // Share the per-host counter with the calls to the same host already here.
        auto sameHost = [&](const std::shared_ptr<AsyncCall>& other) {
          return other->host() == call->host();
        };
        auto running = std::find_if(runningAsyncCalls_.begin(), runningAsyncCalls_.end(), sameHost);
        if (running != runningAsyncCalls_.end()) {
          call->reuseCallsPerHostFrom(**running);
        } else {
          auto ready = std::find_if(readyAsyncCalls_.begin(), readyAsyncCalls_.end(), sameHost);
          if (ready != readyAsyncCalls_.end()) call->reuseCallsPerHostFrom(**ready);
        }
        readyAsyncCalls_.push_back(call);
        promoteLocked(executable);
        waits = std::find(executable.begin(), executable.end(), call) == executable.end();
        call->setQueuedLocked(waits);
      }
    }
    if (waits) {
      call->call().event(
          [&](EventListener& listener) { listener.dispatcherQueueStart(call->call(), *this); });
    }
  }
  if (rejected) {
    // After shutdown() no dispatcher thread may take it: it fails here, promptly, as OkHttp
    // fails a call that its shut-down executor rejects.
    call->failRejected(shutDown());
    return;
  }
  executeAll(executable);
}

void Dispatcher::promoteLocked(std::vector<std::shared_ptr<AsyncCall>>& executable) {
  for (auto it = readyAsyncCalls_.begin(); it != readyAsyncCalls_.end();) {
    if (static_cast<int>(runningAsyncCalls_.size()) >= maxRequests_) break;
    if ((*it)->callsPerHost().load() >= maxRequestsPerHost_) {
      ++it;  // That host is at its limit; a later call to another host may go.
      continue;
    }
    (*it)->callsPerHost().fetch_add(1);
    executable.push_back(*it);
    runningAsyncCalls_.push_back(*it);
    it = readyAsyncCalls_.erase(it);
  }
}

void Dispatcher::executeAll(const std::vector<std::shared_ptr<AsyncCall>>& executable) {
  // Outside the lock: an executor may run the job inline, or refuse it and finish the call.
  for (const auto& call : executable) {
    if (call->queued()) {
      call->call().event(
          [&](EventListener& listener) { listener.dispatcherQueueEnd(call->call(), *this); });
    }
    if (fibers_) {
      call->executeOn(*fibers_);
    } else {
      call->executeOn(executor_);
    }
  }
}

bool Dispatcher::promoteAndExecute() {
  std::vector<std::shared_ptr<AsyncCall>> executable;
  bool isRunning;
  {
    std::lock_guard lock(mutex_);
    promoteLocked(executable);
    isRunning = runningCallsCountLocked() > 0;
  }
  executeAll(executable);
  return isRunning;
}

void Dispatcher::executed(RealCall* call) {
  std::lock_guard lock(mutex_);
  if (shutdown_) throw shutDown();
  runningSyncCalls_.push_back(call);
}

void Dispatcher::finished(const std::shared_ptr<AsyncCall>& call) {
  call->callsPerHost().fetch_sub(1);
  {
    std::lock_guard lock(mutex_);
    auto it = std::find(runningAsyncCalls_.begin(), runningAsyncCalls_.end(), call);
    if (it == runningAsyncCalls_.end()) throw std::logic_error("Call wasn't in-flight!");
    runningAsyncCalls_.erase(it);
  }
  afterFinished();
  // After the calls it let through were started, so that a shutdown() waiting for the queue to
  // drain sees them running.
  bool drained = false;
  {
    std::lock_guard lock(mutex_);
    drained = shutdown_ && readyAsyncCalls_.empty() && runningAsyncCalls_.empty();
  }
  if (drained) {
    drained_.notify_all();
    // The last call after shutdown() ended: the pool's threads may exit now (they run nothing
    // else), also when shutdown() was called from a callback and is not waiting to join them.
    if (ownExecutor_) ownExecutor_->shutdown();
  }
}

void Dispatcher::finished(RealCall* call) {
  {
    std::lock_guard lock(mutex_);
    auto it = std::find(runningSyncCalls_.begin(), runningSyncCalls_.end(), call);
    if (it == runningSyncCalls_.end()) throw std::logic_error("Call wasn't in-flight!");
    runningSyncCalls_.erase(it);
  }
  afterFinished();
}

void Dispatcher::afterFinished() {
  std::function<void()> idleCallback;
  {
    std::lock_guard lock(mutex_);
    idleCallback = idleCallback_;
  }
  bool isRunning = promoteAndExecute();
  if (!isRunning && idleCallback) idleCallback();
}

std::vector<std::shared_ptr<Call>> Dispatcher::queuedCalls() const {
  std::lock_guard lock(mutex_);
  std::vector<std::shared_ptr<Call>> result;
  for (const auto& call : readyAsyncCalls_) result.push_back(call->sharedCall());
  return result;
}

std::vector<std::shared_ptr<Call>> Dispatcher::runningCalls() const {
  std::lock_guard lock(mutex_);
  std::vector<std::shared_ptr<Call>> result;
  for (RealCall* call : runningSyncCalls_) result.push_back(call->shared_from_this());
  for (const auto& call : runningAsyncCalls_) result.push_back(call->sharedCall());
  return result;
}

int Dispatcher::queuedCallsCount() const {
  std::lock_guard lock(mutex_);
  return static_cast<int>(readyAsyncCalls_.size());
}

int Dispatcher::runningCallsCount() const {
  std::lock_guard lock(mutex_);
  return runningCallsCountLocked();
}

int Dispatcher::runningCallsCountLocked() const {
  return static_cast<int>(runningAsyncCalls_.size() + runningSyncCalls_.size());
}

void Dispatcher::cancelAll() {
  // Canceled outside the lock: cancel() reports an event, and its listener may ask this
  // dispatcher for its counts.
  std::vector<std::shared_ptr<Call>> calls = queuedCalls();
  std::vector<std::shared_ptr<Call>> running = runningCalls();
  calls.insert(calls.end(), running.begin(), running.end());
  for (const auto& call : calls) call->cancel();
}

void Dispatcher::shutdown() {
  {
    std::lock_guard lock(mutex_);
    shutdown_ = true;
  }
  // Every call that got in before the flag is queued or running now, so this reaches them all.
  // Queued ones are not failed here but run their course through the queue: each fails at once
  // (it is canceled), on a dispatcher thread as its callback expects, within the limits.
  cancelAll();
  // A thread inside one of this dispatcher's calls would wait for its own call (or join
  // itself): it leaves the rest to the calls' ends (see finished()).
  if (internal::AsyncCall::onCallThread(*this) || (ownExecutor_ && ownExecutor_->isPoolThread())) {
    return;
  }
  {
    std::unique_lock lock(mutex_);
    drained_.wait(lock, [&] { return readyAsyncCalls_.empty() && runningAsyncCalls_.empty(); });
  }
  if (ownExecutor_) {
    ownExecutor_->shutdown();
    // The threads only finish the jobs whose calls just ended: returning from run() and
    // dropping what the job held.
    while (!ownExecutor_->awaitTermination(std::chrono::hours(1))) {
    }
  }
}

}  // namespace tern
