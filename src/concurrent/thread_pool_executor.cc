// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#include "concurrent/thread_pool_executor.h"

#include <pthread.h>

#include <atomic>
#include <condition_variable>
#include <cstdio>
#include <deque>
#include <exception>
#include <list>
#include <mutex>
#include <stdexcept>
#include <thread>
#include <vector>

namespace tern::internal {

// Shared by the executor and its threads, so a thread that outlives the executor object (its
// destructor ran on that thread) still has the state to finish with.
struct ThreadPoolExecutor::State {
  State(std::string name, std::chrono::nanoseconds keepAlive, size_t maxThreads)
      : name(std::move(name)), keepAlive(keepAlive), maxThreads(maxThreads) {}

  const std::string name;
  const std::chrono::nanoseconds keepAlive;
  const size_t maxThreads;

  mutable std::mutex lock;
  std::condition_variable jobAvailable;  // Idle threads wait here.
  std::condition_variable threadExited;  // awaitTermination() waits here.
  std::deque<std::function<void()>> jobs;
  std::list<std::thread> threads;       // Live threads, and exited ones not yet joined.
  std::vector<std::thread::id> exited;  // Threads that left the loop, to be joined.
  size_t liveThreads = 0;               // Threads in the loop.
  size_t idleThreads = 0;               // Threads waiting for a job.
  std::atomic<size_t> activeJobs = 0;   // Given and not finished.
  std::atomic<bool> shutdown = false;   // Written under `lock`; executeNext() reads it without.

  // Joins threads that have exited, so they do not pile up. Caller holds `lock`; joining one is
  // quick because it has nothing left to do but return.
  void reapExited(std::unique_lock<std::mutex>& held) {
    if (exited.empty()) {
      return;
    }
    std::vector<std::thread> toJoin;
    for (std::thread::id id : exited) {
      for (auto it = threads.begin(); it != threads.end(); ++it) {
        if (it->get_id() == id) {
          toJoin.push_back(std::move(*it));
          threads.erase(it);
          break;
        }
      }
    }
    exited.clear();
    held.unlock();
    for (std::thread& thread : toJoin) {
      thread.join();
    }
    held.lock();
  }

  // A pool thread: runs jobs until idle for keepAlive or shut down.
  static void workerLoop(const std::shared_ptr<State>& state);

  // Runs one job, reporting what it throws (see the class comment), and counts it finished.
  void run(std::function<void()>& job);
};

namespace {

// The pool a pool thread belongs to, and the job executeNext() gave it to run after this one.
struct WorkerSlot {
  const void* pool = nullptr;
  std::function<void()> next;
};
thread_local WorkerSlot workerSlot;

}  // namespace

ThreadPoolExecutor::ThreadPoolExecutor(std::string name, std::chrono::nanoseconds keepAlive,
                                       size_t maxThreads) {
  if (keepAlive.count() < 0) {
    throw std::invalid_argument(
        "ThreadPoolExecutor: keepAlive < 0: " + std::to_string(keepAlive.count()) + "ns");
  }
  if (maxThreads == 0) {
    throw std::invalid_argument("ThreadPoolExecutor: maxThreads == 0");
  }
  state_ = std::make_shared<State>(std::move(name), keepAlive, maxThreads);
}

ThreadPoolExecutor::~ThreadPoolExecutor() {
  shutdown();
  std::unique_lock<std::mutex> lock(state_->lock);
  const std::thread::id self = std::this_thread::get_id();
  bool onOwnThread = false;
  for (std::thread& thread : state_->threads) {
    onOwnThread |= thread.get_id() == self;
  }
  // Wait for running jobs and idle threads (woken by shutdown()) to leave the loop; the thread
  // running this destructor cannot, so it is left out and detached below.
  state_->threadExited.wait(lock, [&] { return state_->liveThreads == (onOwnThread ? 1 : 0); });
  std::list<std::thread> threads = std::move(state_->threads);
  state_->exited.clear();
  lock.unlock();
  for (std::thread& thread : threads) {
    if (thread.get_id() == self) {
      thread.detach();  // It holds state_ and exits on its own after its job.
    } else {
      thread.join();
    }
  }
}

void ThreadPoolExecutor::execute(std::function<void()> job) {
  if (!job) {
    throw std::invalid_argument("ThreadPoolExecutor::execute: empty job");
  }
  std::unique_lock<std::mutex> lock(state_->lock);
  if (state_->shutdown) {
    throw std::logic_error("ThreadPoolExecutor \"" + state_->name + "\" has been shut down");
  }
  state_->reapExited(lock);
  state_->jobs.push_back(std::move(job));
  ++state_->activeJobs;
  // As a SynchronousQueue hand-off: an idle thread takes it, else a new thread does.
  if (state_->jobs.size() <= state_->idleThreads) {
    state_->jobAvailable.notify_one();
    return;
  }
  if (state_->liveThreads >= state_->maxThreads) {
    return;  // It waits for a busy thread.
  }
  try {
    ++state_->liveThreads;
    state_->threads.emplace_back([state = state_] { State::workerLoop(state); });
  } catch (...) {
    --state_->liveThreads;
    state_->jobs.pop_back();
    --state_->activeJobs;
    throw;
  }
}

void ThreadPoolExecutor::executeNext(std::function<void()> job) {
  if (workerSlot.pool != state_.get() || workerSlot.next) {
    execute(std::move(job));
    return;
  }
  if (!job) {
    throw std::invalid_argument("ThreadPoolExecutor::executeNext: empty job");
  }
  if (state_->shutdown) {
    throw std::logic_error("ThreadPoolExecutor \"" + state_->name + "\" has been shut down");
  }
  ++state_->activeJobs;
  workerSlot.next = std::move(job);
}

void ThreadPoolExecutor::shutdown() {
  std::lock_guard<std::mutex> lock(state_->lock);
  state_->shutdown = true;
  state_->jobAvailable.notify_all();
}

bool ThreadPoolExecutor::awaitTermination(std::chrono::nanoseconds timeout) {
  std::unique_lock<std::mutex> lock(state_->lock);
  if (!state_->shutdown) {
    return false;
  }
  return state_->threadExited.wait_for(lock, timeout, [&] { return state_->liveThreads == 0; });
}

bool ThreadPoolExecutor::isShutdown() const {
  std::lock_guard<std::mutex> lock(state_->lock);
  return state_->shutdown;
}

bool ThreadPoolExecutor::isPoolThread() const noexcept { return workerSlot.pool == state_.get(); }

size_t ThreadPoolExecutor::threadCount() const {
  std::lock_guard<std::mutex> lock(state_->lock);
  return state_->liveThreads;
}

size_t ThreadPoolExecutor::idleThreadCount() const {
  std::lock_guard<std::mutex> lock(state_->lock);
  return state_->idleThreads;
}

size_t ThreadPoolExecutor::activeCount() const {
  std::lock_guard<std::mutex> lock(state_->lock);
  return state_->activeJobs;
}

void ThreadPoolExecutor::State::workerLoop(const std::shared_ptr<State>& state) {
  // Linux limits thread names to 15 bytes.
  pthread_setname_np(pthread_self(), state->name.substr(0, 15).c_str());
  workerSlot.pool = state.get();
  std::unique_lock<std::mutex> lock(state->lock);
  while (true) {
    if (state->jobs.empty()) {
      if (state->shutdown) {
        break;
      }
      ++state->idleThreads;
      const bool gotJob = state->jobAvailable.wait_for(
          lock, state->keepAlive, [&] { return !state->jobs.empty() || state->shutdown; });
      --state->idleThreads;
      if (!gotJob) {
        break;  // Idle for keepAlive: exit, as a cached pool does.
      }
      continue;
    }
    std::function<void()> job = std::move(state->jobs.front());
    state->jobs.pop_front();
    lock.unlock();
    state->run(job);
    // The job may have given this thread its next one; run those without the lock.
    while (workerSlot.next) {
      std::function<void()> next = std::move(workerSlot.next);
      workerSlot.next = nullptr;
      state->run(next);
    }
    lock.lock();
  }
  --state->liveThreads;
  state->exited.push_back(std::this_thread::get_id());
  state->threadExited.notify_all();
}

void ThreadPoolExecutor::State::run(std::function<void()>& job) {
  try {
    job();
  } catch (const std::exception& e) {
    // Last resort (see the class comment): report and keep the thread.
    std::fprintf(stderr, "tern: uncaught exception in %s: %s\n", name.c_str(), e.what());
  } catch (...) {
    std::fprintf(stderr, "tern: uncaught exception in %s\n", name.c_str());
  }
  job = nullptr;  // Destroy what the job captured before it counts as finished.
  --activeJobs;
}

}  // namespace tern::internal
