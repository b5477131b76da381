// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#include "tern/timeout.h"

#include <gtest/gtest.h>

#include <chrono>
#include <climits>
#include <condition_variable>
#include <mutex>
#include <stdexcept>
#include <thread>

#include "tern/exceptions.h"

namespace tern {
namespace {

using namespace std::chrono_literals;
using Clock = Timeout::Clock;

TEST(TimeoutTest, NewTimeoutHasNeitherTimeoutNorDeadline) {
  Timeout timeout;
  EXPECT_EQ(timeout.timeoutNanos(), 0ns);
  EXPECT_FALSE(timeout.hasDeadline());
  EXPECT_EQ(timeout.waitDeadline(), std::nullopt);
  EXPECT_NO_THROW(timeout.throwIfReached());
}

TEST(TimeoutTest, SettersChainAndGettersReflectThem) {
  Timeout timeout;
  Clock::time_point deadline = Clock::now() + 1h;
  EXPECT_EQ(&timeout.timeout(5s).deadline(deadline), &timeout);
  EXPECT_EQ(timeout.timeoutNanos(), 5s);
  EXPECT_TRUE(timeout.hasDeadline());
  EXPECT_EQ(timeout.deadlineNanoTime(), deadline);
}

TEST(TimeoutTest, ClearTimeoutAndClearDeadline) {
  Timeout timeout;
  timeout.timeout(5s).deadline(Clock::now() + 1h);
  timeout.clearTimeout();
  EXPECT_EQ(timeout.timeoutNanos(), 0ns);
  EXPECT_TRUE(timeout.hasDeadline());
  timeout.clearDeadline();
  EXPECT_FALSE(timeout.hasDeadline());
  timeout.timeout(0ns);  // Zero also means none.
  EXPECT_EQ(timeout.waitDeadline(), std::nullopt);
}

TEST(TimeoutTest, RejectsNegativeTimeoutsAndNonPositiveRelativeDeadlines) {
  Timeout timeout;
  EXPECT_THROW(timeout.timeout(-1ns), std::invalid_argument);
  EXPECT_THROW(timeout.deadline(0ns), std::invalid_argument);
  EXPECT_THROW(timeout.deadline(-5ms), std::invalid_argument);
  EXPECT_EQ(timeout.timeoutNanos(), 0ns);
  EXPECT_FALSE(timeout.hasDeadline());
}

TEST(TimeoutTest, DeadlineNanoTimeWithoutADeadlineIsMisuse) {
  Timeout timeout;
  EXPECT_THROW(timeout.deadlineNanoTime(), std::logic_error);
}

TEST(TimeoutTest, RelativeDeadlineIsMeasuredFromNow) {
  Timeout timeout;
  Clock::time_point before = Clock::now();
  timeout.deadline(10s);
  Clock::time_point after = Clock::now();
  EXPECT_GE(timeout.deadlineNanoTime(), before + 10s);
  EXPECT_LE(timeout.deadlineNanoTime(), after + 10s);
}

TEST(TimeoutTest, ThrowIfReachedThrowsOnceTheDeadlinePassed) {
  Timeout timeout;
  timeout.deadline(Clock::now() - 1ms);
  try {
    timeout.throwIfReached();
    FAIL() << "expected InterruptedIOException";
  } catch (const InterruptedIOException& e) {
    EXPECT_STREQ(e.what(), "deadline reached");
  }
}

TEST(TimeoutTest, ThrowIfReachedIgnoresTheDeadlineAheadAndThePerOperationTimeout) {
  Timeout timeout;
  timeout.deadline(1h).timeout(1ns);
  EXPECT_NO_THROW(timeout.throwIfReached());
}

TEST(TimeoutTest, WaitDeadlineIsTheEarlierOfTimeoutAndDeadline) {
  Clock::time_point now = Clock::now();
  Timeout timeout;
  timeout.timeout(5s);
  EXPECT_EQ(timeout.waitDeadline(now), now + 5s);
  timeout.deadline(now + 2s);
  EXPECT_EQ(timeout.waitDeadline(now), now + 2s);
  timeout.deadline(now + 9s);
  EXPECT_EQ(timeout.waitDeadline(now), now + 5s);
  timeout.clearTimeout();
  EXPECT_EQ(timeout.waitDeadline(now), now + 9s);
}

TEST(TimeoutTest, WaitDeadlineOfAHugeTimeoutMeansForever) {
  Timeout timeout;
  timeout.timeout(std::chrono::nanoseconds::max());
  EXPECT_EQ(timeout.waitDeadline(), std::nullopt);
  Clock::time_point deadline = Clock::now() + 1s;
  timeout.deadline(deadline);
  EXPECT_EQ(timeout.waitDeadline(), deadline);
}

TEST(TimeoutTest, PollTimeoutMillisRoundsUpAndClamps) {
  Clock::time_point now = Clock::now();
  EXPECT_EQ(Timeout::pollTimeoutMillis(std::nullopt, now), -1);
  EXPECT_EQ(Timeout::pollTimeoutMillis(now, now), 0);
  EXPECT_EQ(Timeout::pollTimeoutMillis(now - 1s, now), 0);
  EXPECT_EQ(Timeout::pollTimeoutMillis(now + 1ns, now), 1);
  EXPECT_EQ(Timeout::pollTimeoutMillis(now + 1ms, now), 1);
  EXPECT_EQ(Timeout::pollTimeoutMillis(now + 1001us, now), 2);
  EXPECT_EQ(Timeout::pollTimeoutMillis(now + 24h * 365, now), INT_MAX);
}

TEST(TimeoutTest, WaitUntilNotifiedTimesOutWithSocketTimeoutException) {
  std::mutex mutex;
  std::condition_variable condition;
  std::unique_lock<std::mutex> lock(mutex);
  Timeout timeout;
  timeout.timeout(10ms);
  try {
    // Spurious wakeups return normally; loop as real callers do.
    while (true) {
      timeout.waitUntilNotified(condition, lock);
    }
  } catch (const SocketTimeoutException& e) {
    EXPECT_STREQ(e.what(), "timeout");
  }
}

TEST(TimeoutTest, WaitUntilNotifiedAfterTheDeadlineThrowsAtOnce) {
  std::mutex mutex;
  std::condition_variable condition;
  std::unique_lock<std::mutex> lock(mutex);
  Timeout timeout;
  timeout.deadline(Clock::now() - 1ms);
  EXPECT_THROW(timeout.waitUntilNotified(condition, lock), SocketTimeoutException);
}

TEST(TimeoutTest, WaitUntilNotifiedReturnsWhenNotified) {
  std::mutex mutex;
  std::condition_variable condition;
  bool ready = false;
  Timeout timeout;
  timeout.timeout(60s);
  std::thread notifier([&] {
    std::lock_guard<std::mutex> guard(mutex);
    ready = true;
    condition.notify_all();
  });
  {
    std::unique_lock<std::mutex> lock(mutex);
    while (!ready) {
      timeout.waitUntilNotified(condition, lock);
    }
  }
  notifier.join();
  EXPECT_TRUE(ready);
}

TEST(TimeoutTest, WaitUntilPredicateReturnsOnceReady) {
  std::mutex mutex;
  std::condition_variable condition;
  int value = 0;
  Timeout timeout;
  timeout.timeout(60s);
  std::thread producer([&] {
    for (int i = 0; i < 3; ++i) {
      std::lock_guard<std::mutex> guard(mutex);
      ++value;
      condition.notify_all();
    }
  });
  {
    std::unique_lock<std::mutex> lock(mutex);
    timeout.waitUntilNotified(condition, lock, [&] { return value == 3; });
    EXPECT_EQ(value, 3);
  }
  producer.join();
}

TEST(TimeoutTest, WaitUntilPredicateTimesOutWhenNeverReady) {
  std::mutex mutex;
  std::condition_variable condition;
  std::unique_lock<std::mutex> lock(mutex);
  Timeout timeout;
  timeout.timeout(10ms);
  EXPECT_THROW(timeout.waitUntilNotified(condition, lock, [] { return false; }),
               SocketTimeoutException);
}

TEST(TimeoutTest, WaitUntilPredicateAlreadyReadyReturnsEvenPastTheDeadline) {
  std::mutex mutex;
  std::condition_variable condition;
  std::unique_lock<std::mutex> lock(mutex);
  Timeout timeout;
  timeout.deadline(Clock::now() - 1s);
  EXPECT_NO_THROW(timeout.waitUntilNotified(condition, lock, [] { return true; }));
}

TEST(TimeoutTest, WaitWithoutAnyTimeoutWaitsForTheNotification) {
  std::mutex mutex;
  std::condition_variable condition;
  bool ready = false;
  Timeout timeout;
  std::thread notifier([&] {
    std::this_thread::sleep_for(20ms);
    std::lock_guard<std::mutex> guard(mutex);
    ready = true;
    condition.notify_all();
  });
  {
    std::unique_lock<std::mutex> lock(mutex);
    timeout.waitUntilNotified(condition, lock, [&] { return ready; });
  }
  notifier.join();
  EXPECT_TRUE(ready);
}

TEST(TimeoutTest, NoneIgnoresSettersAndNeverFires) {
  Timeout& none = Timeout::none();
  EXPECT_EQ(&none, &Timeout::none());
  none.timeout(1ns).deadline(Clock::now() - 1s);
  none.deadline(5s);
  EXPECT_EQ(none.timeoutNanos(), 0ns);
  EXPECT_FALSE(none.hasDeadline());
  EXPECT_EQ(none.waitDeadline(), std::nullopt);
  EXPECT_NO_THROW(none.throwIfReached());
}

}  // namespace
}  // namespace tern
