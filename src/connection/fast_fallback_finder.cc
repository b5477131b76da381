// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#include "connection/fast_fallback_finder.h"

#include <algorithm>
#include <deque>
#include <functional>
#include <mutex>
#include <stdexcept>
#include <utility>
#include <vector>

#include "concurrent/condition.h"
#include "concurrent/fiber.h"
#include "concurrent/mutex.h"
#include "concurrent/task_queue.h"
#include "concurrent/task_runner.h"
#include "tern/exceptions.h"

namespace tern::internal {

namespace {

class SystemRaceClock final : public RaceClock {
 public:
  std::chrono::nanoseconds now() override {
    return std::chrono::steady_clock::now().time_since_epoch();
  }
  void waitUntil(std::unique_lock<std::mutex>& lock, Condition& changed,
                 std::chrono::nanoseconds deadline) override {
    changed.wait_until(
        lock, std::chrono::steady_clock::time_point(
                  std::chrono::duration_cast<std::chrono::steady_clock::duration>(deadline)));
  }
};

}  // namespace

RaceClock& RaceClock::system() {
  static SystemRaceClock clock;
  return clock;
}

FastFallbackFinder::FastFallbackFinder(RoutePlanner& planner, TaskRunner& taskRunner, bool racing,
                                       std::chrono::nanoseconds connectDelay, RaceClock& clock)
    : planner_(planner),
      taskRunner_(taskRunner),
      racing_(racing),
      connectDelay_(connectDelay),
      clock_(clock) {}

namespace {

// A launched plan, and for a race the queue its TCP connect runs on.
// A connect running on a fiber of its own, beside the call's: its end, for the call to wait on.
struct FiberConnect {
  std::mutex mutex;
  Condition ended;
  bool done = false;  // Guarded by mutex.

  void end() {
    std::lock_guard lock(mutex);
    done = true;
    ended.notify_all();
  }
  void join() {
    std::unique_lock lock(mutex);
    ended.wait(lock, [this] { return done; });
  }
};

struct Attempt {
  explicit Attempt(RoutePlanner::PlanPtr plan) : plan(std::move(plan)) {}
  ~Attempt() { join(); }

  // Waits for a TCP connect still running (canceled first).
  void join() {
    queue.reset();
    if (fiber) fiber->join();
  }

  RoutePlanner::PlanPtr plan;
  std::unique_ptr<TaskQueue> queue;     // Null: connected on the call's thread or a fiber.
  std::shared_ptr<FiberConnect> fiber;  // Set when the connect runs on a fiber.
  std::exception_ptr tcpFailure;        // Set by the connect, before the attempt is finished.
};

}  // namespace

std::shared_ptr<RealConnection> FastFallbackFinder::find() {
  RoutePlanner::PlanPtr first = planner_.plan();
  if (first->isReady()) return first->handleSuccess();
  // HTTP/3 is always raced against TCP (a network may drop UDP); other connects only with
  // fast fallback on.
  const bool racing = racing_ || first->isQuic();

  struct Race {
    Mutex mutex;
    Condition changed;  // An attempt finished, or race plans may have come.
    std::deque<Attempt*> finished TERN_GUARDED_BY(mutex);
  };
  // Shared with the planner's listener, which may be called late (a DNS answer after the race).
  auto race = std::make_shared<Race>();
  // After `race`, so the attempts (whose tasks report into it) are destroyed first.
  std::vector<std::unique_ptr<Attempt>> inFlight;
  std::exception_ptr firstFailure;
  std::chrono::nanoseconds nextLaunch = clock_.now();

  auto finish = [race](Attempt* attempt) {
    MutexLock lock(race->mutex);
    race->finished.push_back(attempt);
    race->changed.notify_all();
  };
  auto launch = [&](RoutePlanner::PlanPtr plan) {
    auto attempt = std::make_unique<Attempt>(std::move(plan));
    Attempt* raw = attempt.get();
    raw->plan->launched();
    inFlight.push_back(std::move(attempt));
    nextLaunch = clock_.now() + connectDelay_;
    if (racing && Fiber::parkable() != nullptr) {
      // An enqueued call on the fiber engine: the connect is a fiber beside it, which parks
      // while the socket connects, rather than a TaskRunner thread per attempt.
      auto connect = std::make_shared<FiberConnect>();
      try {
        Fiber::parkable()->scheduler().spawn([raw, finish, connect] {
          raw->tcpFailure = raw->plan->connectTcp();
          finish(raw);
          connect->end();
        });
        raw->fiber = std::move(connect);
        return;
      } catch (...) {
        // No fiber could start (the dispatcher is shutting down): a TaskRunner thread, below.
      }
    }
    if (racing) {
      try {
        raw->queue = taskRunner_.newQueue("tern connect");
        raw->queue->execute("connect", std::chrono::nanoseconds(0), false, [raw, finish] {
          raw->tcpFailure = raw->plan->connectTcp();
          finish(raw);
        });
        return;
      } catch (const std::logic_error&) {
        raw->queue.reset();  // The TaskRunner is shut down: connect here instead.
      }
    }
    raw->tcpFailure = raw->plan->connectTcp();
    finish(raw);
  };
  auto remove = [&](Attempt* attempt) {
    auto it = std::find_if(inFlight.begin(), inFlight.end(),
                           [attempt](const auto& a) { return a.get() == attempt; });
    std::unique_ptr<Attempt> removed = std::move(*it);
    inFlight.erase(it);
    removed->join();
    return removed;
  };
  auto fail = [&](std::unique_ptr<Attempt> attempt, std::exception_ptr e) {
    attempt->plan->failed(e);
    if (!firstFailure) firstFailure = e;
  };
  // Cancels every attempt in flight but `keep`, waits for each, and reports it failed.
  auto cancelOthers = [&](Attempt* keep) {
    for (const auto& attempt : inFlight) {
      if (attempt.get() != keep) attempt->plan->cancel();
    }
    while (inFlight.size() > (keep ? 1u : 0u)) {
      Attempt* loser = nullptr;
      for (const auto& attempt : inFlight) {
        if (attempt.get() != keep) loser = attempt.get();
      }
      std::unique_ptr<Attempt> removed = remove(loser);  // Waits for its connect to end.
      {
        MutexLock lock(race->mutex);
        std::erase(race->finished, loser);
      }
      std::exception_ptr e = removed->tcpFailure
                                 ? removed->tcpFailure
                                 : std::make_exception_ptr(InterruptedIOException("Canceled"));
      fail(std::move(removed), e);
    }
  };
  struct CancelOnExit {
    std::function<void()> cancel;
    ~CancelOnExit() { cancel(); }
  } cancelOnExit{[&] {
    if (racing) planner_.setRacePlansListener(nullptr);
    cancelOthers(nullptr);
  }};
  if (racing) {
    planner_.setRacePlansListener([race] {
      MutexLock lock(race->mutex);
      race->changed.notify_all();
    });
  }

  launch(std::move(first));
  while (true) {
    Attempt* done = nullptr;
    {
      MutexLock lock(race->mutex);
      while (race->finished.empty()) {
        // Another plan is launched when the last has had its time, or at once when none is in
        // flight (a race only).
        const bool canLaunch = racing && planner_.hasNextRacePlan();
        if (canLaunch && (inFlight.empty() || clock_.now() >= nextLaunch)) break;
        if (inFlight.empty()) {
          // Nothing in flight and nothing to launch yet: wait for the rest of the host's
          // addresses (looking at the call's cancel now and then), or give up.
          if (!racing || !planner_.awaitingRacePlans() || planner_.isCanceled()) break;
          race->changed.wait_for(lock.native(), std::chrono::milliseconds(50));
        } else if (canLaunch) {
          clock_.waitUntil(lock.native(), race->changed, nextLaunch);
        } else {
          race->changed.wait(lock.native());
        }
      }
      if (!race->finished.empty()) {
        done = race->finished.front();
        race->finished.pop_front();
      }
    }
    if (!done) {
      if (planner_.isCanceled()) throw InterruptedIOException("Canceled");
      if (racing && planner_.hasNextRacePlan()) {
        launch(planner_.nextRacePlan());
        continue;
      }
      std::rethrow_exception(firstFailure);  // Every plan failed, and none is left.
    }

    if (!done->tcpFailure) {
      // The first TCP connection: the others lose. TLS and HTTP/2 on this thread.
      cancelOthers(done);
      RoutePlanner::ConnectResult result = done->plan->connectTlsEtc();
      std::unique_ptr<Attempt> ended = remove(done);
      if (!result.failure && !result.nextPlan) return ended->plan->handleSuccess();
      if (result.failure) fail(std::move(ended), result.failure);
      if (result.nextPlan) {
        if (planner_.isCanceled()) throw InterruptedIOException("Canceled");
        launch(std::move(result.nextPlan));
        continue;
      }
    } else {
      std::exception_ptr e = done->tcpFailure;
      fail(remove(done), e);
    }

    // A failure: go on with the attempts in flight; with none, the next plan is launched at
    // once (or, with none left, the first failure thrown).
    if (planner_.isCanceled()) throw InterruptedIOException("Canceled");
  }
}

}  // namespace tern::internal
