// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
// FastFallbackFinder with fake plans on a fake clock (OkHttp's FastFallbackExchangeFinderTest):
// when each plan is launched, which one wins, what the losers hear, and that a plan that never
// connects holds nothing back past the next launch. The clock moves only when the test says, so
// "250 ms" takes no time and a launch a moment early is caught.
#include "connection/fast_fallback_finder.h"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <deque>
#include <functional>
#include <future>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "concurrent/condition.h"
#include "concurrent/task_runner.h"
#include "connection/route_planner.h"
#include "tern/exceptions.h"

namespace tern::internal {
namespace {

using std::chrono::milliseconds;
using std::chrono::nanoseconds;
using namespace std::chrono_literals;

// A clock that moves only in advanceBy(). Knows when the finder is waiting on it, so the test can
// look at what was launched by then.
class FakeRaceClock final : public RaceClock {
 public:
  nanoseconds now() override {
    std::lock_guard lock(mutex_);
    return now_;
  }

  void waitUntil(std::unique_lock<std::mutex>& lock, Condition& changed,
                 nanoseconds deadline) override {
    {
      std::lock_guard clockLock(mutex_);
      if (now_ >= deadline) return;
      waiter_ = {lock.mutex(), &changed};
      ++waits_;
      waitsChanged_.notify_all();
    }
    changed.wait(lock);  // advanceBy() notifies holding `lock`'s mutex: no wake-up is lost.
    std::lock_guard clockLock(mutex_);
    waiter_ = {};
  }

  // Moves the clock, waking the finder if it waits.
  void advanceBy(nanoseconds duration) {
    Waiter waiter;
    {
      std::lock_guard lock(mutex_);
      now_ += duration;
      waiter = waiter_;
    }
    if (waiter.mutex != nullptr) {
      std::lock_guard lock(*waiter.mutex);
      waiter.changed->notify_all();
    }
  }

  // Blocks until the finder has started its `count`th timed wait (real time, bounded).
  bool awaitWaits(int count) {
    std::unique_lock lock(mutex_);
    return waitsChanged_.wait_for(lock, 10s, [&] { return waits_ >= count; });
  }

 private:
  struct Waiter {
    std::mutex* mutex = nullptr;
    Condition* changed = nullptr;
  };
  std::mutex mutex_;
  Condition waitsChanged_;
  nanoseconds now_{0};
  Waiter waiter_;
  int waits_ = 0;
};

// What the plans did, in order.
class Log {
 public:
  void add(std::string entry) {
    std::lock_guard lock(mutex_);
    entries_.push_back(std::move(entry));
  }
  std::vector<std::string> take() {
    std::lock_guard lock(mutex_);
    return std::exchange(entries_, {});
  }

 private:
  std::mutex mutex_;
  std::vector<std::string> entries_;
};

// How a fake plan's TCP connect ends: at once, with a failure, or never (until canceled).
enum class Tcp { kConnects, kFails, kNeverAnswers };

class FakePlan final : public RoutePlanner::Plan {
 public:
  FakePlan(Log& log, std::string name, Tcp tcp) : log_(log), name_(std::move(name)), tcp_(tcp) {}

  bool ready = false;
  // What connectTlsEtc() gives.
  std::exception_ptr tlsFailure;
  RoutePlanner::PlanPtr tlsNextPlan;

  bool isReady() const override { return ready; }
  void launched() override { log_.add(name_ + " launched"); }
  std::exception_ptr connectTcp() override {
    if (tcp_ == Tcp::kConnects) return nullptr;
    if (tcp_ == Tcp::kFails) return std::make_exception_ptr(ConnectException(name_ + " refused"));
    std::unique_lock lock(mutex_);
    canceledChanged_.wait(lock, [&] { return canceled_; });
    return std::make_exception_ptr(InterruptedIOException("Canceled"));
  }
  RoutePlanner::ConnectResult connectTlsEtc() override {
    log_.add(name_ + " TLS");
    return {tlsFailure, std::move(tlsNextPlan)};
  }
  std::shared_ptr<RealConnection> handleSuccess() override {
    log_.add(name_ + " won");
    return nullptr;  // The finder passes the connection on without looking at it.
  }
  void failed(std::exception_ptr e) override {
    try {
      std::rethrow_exception(e);
    } catch (const IOException& ioe) {
      log_.add(name_ + " failed: " + ioe.what());
    }
  }
  void cancel() override {
    std::lock_guard lock(mutex_);
    canceled_ = true;
    canceledChanged_.notify_all();
  }

 private:
  Log& log_;
  const std::string name_;
  const Tcp tcp_;
  std::mutex mutex_;
  Condition canceledChanged_;
  bool canceled_ = false;
};

// Gives its plans in order: the first from plan(), the rest from nextRacePlan().
class FakeRoutePlanner final : public RoutePlanner {
 public:
  explicit FakeRoutePlanner(Log& log) : log_(log) {}

  FakePlan& add(const std::string& name, Tcp tcp) {
    plans_.push_back(std::make_unique<FakePlan>(log_, name, tcp));
    return *plans_.back();
  }

  std::atomic<bool> canceled{false};

  bool isCanceled() const override { return canceled; }
  PlanPtr plan() override { return take(); }
  PlanPtr nextRacePlan() override { return take(); }
  bool hasNextRacePlan() override { return !plans_.empty(); }
  bool awaitingRacePlans() const override { return false; }
  void setRacePlansListener(std::function<void()>) override {}

 private:
  PlanPtr take() {
    if (plans_.empty()) throw IOException("no more plans");
    PlanPtr plan = std::move(plans_.front());
    plans_.pop_front();
    return plan;
  }

  Log& log_;
  std::deque<std::unique_ptr<FakePlan>> plans_;
};

class FastFallbackFinderTest : public ::testing::Test {
 protected:
  // Runs the finder on another thread (it blocks while it waits on the fake clock).
  std::future<void> findAsync(bool racing = true) {
    return std::async(std::launch::async, [this, racing] {
      FastFallbackFinder finder(planner_, *TaskRunner::instance(), racing, 250ms, clock_);
      finder.find();
    });
  }

  Log log_;
  FakeRoutePlanner planner_{log_};
  FakeRaceClock clock_;
};

TEST_F(FastFallbackFinderTest, AReadyPlanIsTakenWithoutConnecting) {
  planner_.add("pooled", Tcp::kConnects).ready = true;
  planner_.add("b", Tcp::kConnects);
  findAsync().get();
  EXPECT_EQ(log_.take(), std::vector<std::string>{"pooled won"});
  EXPECT_TRUE(planner_.hasNextRacePlan());  // Nothing else was launched.
}

TEST_F(FastFallbackFinderTest, TheFirstPlanThatConnectsAtOnceWinsAlone) {
  planner_.add("a", Tcp::kConnects);
  planner_.add("b", Tcp::kConnects);
  findAsync().get();
  EXPECT_EQ(log_.take(), (std::vector<std::string>{"a launched", "a TLS", "a won"}));
  EXPECT_EQ(clock_.now(), 0ns);
}

TEST_F(FastFallbackFinderTest, APlanThatNeverAnswersDelaysTheNextByTheConnectDelayOnly) {
  planner_.add("a", Tcp::kNeverAnswers);
  planner_.add("b", Tcp::kConnects);
  std::future<void> found = findAsync();

  ASSERT_TRUE(clock_.awaitWaits(1));
  EXPECT_EQ(log_.take(), std::vector<std::string>{"a launched"});
  clock_.advanceBy(249ms);  // A moment early: nothing new.
  ASSERT_TRUE(clock_.awaitWaits(2));
  EXPECT_EQ(log_.take(), std::vector<std::string>{});

  clock_.advanceBy(1ms);
  found.get();
  EXPECT_EQ(log_.take(),
            (std::vector<std::string>{"b launched", "a failed: Canceled", "b TLS", "b won"}));
  EXPECT_EQ(clock_.now(), 250ms);
}

TEST_F(FastFallbackFinderTest, EachPlanInTurnGetsTheConnectDelay) {
  planner_.add("a", Tcp::kNeverAnswers);
  planner_.add("b", Tcp::kNeverAnswers);
  planner_.add("c", Tcp::kConnects);
  std::future<void> found = findAsync();

  ASSERT_TRUE(clock_.awaitWaits(1));
  clock_.advanceBy(250ms);
  ASSERT_TRUE(clock_.awaitWaits(2));
  EXPECT_EQ(log_.take(), (std::vector<std::string>{"a launched", "b launched"}));
  clock_.advanceBy(250ms);
  found.get();
  std::vector<std::string> log = log_.take();
  ASSERT_EQ(log.size(), 5u);
  EXPECT_EQ(log[0], "c launched");
  // The two losers, in either order, then the winner's TLS.
  EXPECT_EQ((std::multiset<std::string>{log[1], log[2]}),
            (std::multiset<std::string>{"a failed: Canceled", "b failed: Canceled"}));
  EXPECT_EQ(log[3], "c TLS");
  EXPECT_EQ(log[4], "c won");
}

TEST_F(FastFallbackFinderTest, AFailureLaunchesTheNextPlanAtOnce) {
  planner_.add("a", Tcp::kFails);
  planner_.add("b", Tcp::kConnects);
  findAsync().get();
  EXPECT_EQ(log_.take(), (std::vector<std::string>{"a launched", "a failed: a refused",
                                                   "b launched", "b TLS", "b won"}));
  EXPECT_EQ(clock_.now(), 0ns);
}

TEST_F(FastFallbackFinderTest, WhenEveryPlanFailsTheFirstFailureIsThrown) {
  planner_.add("a", Tcp::kFails);
  planner_.add("b", Tcp::kFails);
  try {
    findAsync().get();
    FAIL() << "expected ConnectException";
  } catch (const ConnectException& e) {
    EXPECT_STREQ(e.what(), "a refused");
  }
  EXPECT_EQ(log_.take(), (std::vector<std::string>{"a launched", "a failed: a refused",
                                                   "b launched", "b failed: b refused"}));
}

TEST_F(FastFallbackFinderTest, ATlsFailureWithANextPlanTriesIt) {
  FakePlan& a = planner_.add("a", Tcp::kConnects);
  a.tlsFailure = std::make_exception_ptr(SSLHandshakeException("handshake failed"));
  a.tlsNextPlan = std::make_unique<FakePlan>(log_, "a-with-next-spec", Tcp::kConnects);
  findAsync().get();
  EXPECT_EQ(log_.take(),
            (std::vector<std::string>{"a launched", "a TLS", "a failed: handshake failed",
                                      "a-with-next-spec launched", "a-with-next-spec TLS",
                                      "a-with-next-spec won"}));
}

TEST_F(FastFallbackFinderTest, WithoutRacingOnlyTheFirstPlanIsTried) {
  planner_.add("a", Tcp::kFails);
  planner_.add("b", Tcp::kConnects);
  EXPECT_THROW(findAsync(false).get(), ConnectException);
  EXPECT_EQ(log_.take(), (std::vector<std::string>{"a launched", "a failed: a refused"}));
  EXPECT_TRUE(planner_.hasNextRacePlan());  // The retry logic moves on to it.
}

TEST_F(FastFallbackFinderTest, ACanceledCallLaunchesNothingMoreAndCancelsWhatIsInFlight) {
  planner_.add("a", Tcp::kNeverAnswers);
  planner_.add("b", Tcp::kConnects);
  std::future<void> found = findAsync();
  ASSERT_TRUE(clock_.awaitWaits(1));
  planner_.canceled = true;
  clock_.advanceBy(250ms);
  EXPECT_THROW(found.get(), InterruptedIOException);
  EXPECT_EQ(log_.take(), (std::vector<std::string>{"a launched", "a failed: Canceled"}));
}

}  // namespace
}  // namespace tern::internal
