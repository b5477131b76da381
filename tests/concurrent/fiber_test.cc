// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
// Fibers, their scheduler and Condition (the engine under enqueued calls): parked fibers hold no
// carrier, no wake-up is lost, timeouts end a park, and what a fiber carries across a park (its
// caught exception, its pin to a thread) stays its own.
#include "concurrent/fiber.h"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <future>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "concurrent/condition.h"
#include "concurrent/thread_pool_executor.h"

namespace tern::internal {
namespace {

using namespace std::chrono_literals;

class FiberTest : public ::testing::Test {
 protected:
  ~FiberTest() override {
    pool.shutdown();
    pool.awaitTermination(10s);
  }

  std::shared_ptr<FiberScheduler> scheduler(int carriers) {
    return FiberScheduler::create(
        [this](std::function<void()> job) { pool.execute(std::move(job)); }, carriers);
  }

  // Waits up to 10 s for `done`.
  static bool eventually(const std::function<bool()>& done) {
    for (int i = 0; i < 2000 && !done(); ++i) std::this_thread::sleep_for(5ms);
    return done();
  }

  ThreadPoolExecutor pool{"tern FiberTest"};
};

TEST_F(FiberTest, AThousandParkedFibersHoldNoThread) {
  auto fibers = scheduler(2);
  std::mutex mutex;
  Condition changed;
  bool go = false;
  std::atomic<int> waiting{0};
  std::atomic<int> woke{0};
  for (int i = 0; i < 1000; ++i) {
    fibers->spawn([&] {
      std::unique_lock lock(mutex);
      ++waiting;
      changed.wait(lock, [&] { return go; });
      ++woke;
    });
  }
  ASSERT_TRUE(eventually([&] { return waiting == 1000; }));
  // Every fiber is parked: no carrier and no pool thread is held. (The pool made a few threads:
  // two carriers, and one more whenever the reactor saw the queue stall on a loaded machine.)
  EXPECT_TRUE(eventually([&] { return fibers->carriers() == 0 && pool.activeCount() == 0; }));
  EXPECT_LE(pool.threadCount(), 8u);
  EXPECT_EQ(fibers->liveFibers(), 1000);
  {
    std::lock_guard lock(mutex);
    go = true;
  }
  changed.notify_all();
  EXPECT_TRUE(eventually([&] { return woke == 1000 && fibers->liveFibers() == 0; }));
  EXPECT_LE(pool.threadCount(), 8u);
}

TEST_F(FiberTest, AWaitWithADeadlineTimesOut) {
  auto fibers = scheduler(2);
  std::promise<std::pair<std::cv_status, std::chrono::milliseconds>> result;
  fibers->spawn([&] {
    std::mutex mutex;
    Condition never;
    std::unique_lock lock(mutex);
    const auto start = std::chrono::steady_clock::now();
    std::cv_status status = never.wait_for(lock, 100ms);
    result.set_value({status, std::chrono::duration_cast<std::chrono::milliseconds>(
                                  std::chrono::steady_clock::now() - start)});
  });
  auto [status, waited] = result.get_future().get();
  EXPECT_EQ(status, std::cv_status::timeout);
  EXPECT_GE(waited, 100ms);
}

TEST_F(FiberTest, NoWakeUpIsLostBetweenAThreadAndFibers) {
  // A ping-pong: each side waits for the other's turn, 2,000 times per fiber, so a notify that
  // came just before a park (or during the switch out) and got lost would hang the test.
  auto fibers = scheduler(2);
  constexpr int kFibers = 4;
  constexpr int kRounds = 2000;
  struct Court {
    std::mutex mutex;
    Condition changed;
    int turn = 0;  // Even: the fiber's; odd: the thread's.
  };
  std::vector<std::unique_ptr<Court>> courts;
  for (int i = 0; i < kFibers; ++i) courts.push_back(std::make_unique<Court>());
  std::atomic<int> done{0};
  for (int i = 0; i < kFibers; ++i) {
    Court& court = *courts[static_cast<size_t>(i)];
    fibers->spawn([&court, &done] {
      for (int round = 0; round < kRounds; ++round) {
        std::unique_lock lock(court.mutex);
        court.changed.wait(lock, [&] { return court.turn % 2 == 0; });
        ++court.turn;
        court.changed.notify_all();
      }
      ++done;
    });
  }
  std::vector<std::thread> threads;
  for (int i = 0; i < kFibers; ++i) {
    threads.emplace_back([&court = *courts[static_cast<size_t>(i)]] {
      for (int round = 0; round < kRounds; ++round) {
        std::unique_lock lock(court.mutex);
        ASSERT_TRUE(court.changed.wait_for(lock, 10s, [&] { return court.turn % 2 == 1; }))
            << "lost wake-up at round " << round;
        ++court.turn;
        court.changed.notify_one();
      }
    });
  }
  for (std::thread& thread : threads) thread.join();
  EXPECT_TRUE(eventually([&] { return done == kFibers; }));
}

TEST_F(FiberTest, ACaughtExceptionStaysWithItsFiberAcrossAPark) {
  // Two fibers on one carrier each park inside a catch block; each rethrows its own exception.
  auto fibers = scheduler(1);
  std::mutex mutex;
  Condition changed;
  int parked = 0;
  std::vector<std::string> rethrown(2);
  std::atomic<int> done{0};
  for (int i = 0; i < 2; ++i) {
    fibers->spawn([&, i] {
      try {
        try {
          throw std::runtime_error("fiber " + std::to_string(i));
        } catch (const std::exception&) {
          std::unique_lock lock(mutex);
          ++parked;
          changed.notify_all();
          changed.wait(lock, [&] { return parked == 2; });
          lock.unlock();
          throw;
        }
      } catch (const std::exception& e) {
        rethrown[static_cast<size_t>(i)] = e.what();
      }
      ++done;
    });
  }
  ASSERT_TRUE(eventually([&] { return done == 2; }));
  EXPECT_EQ(rethrown[0], "fiber 0");
  EXPECT_EQ(rethrown[1], "fiber 1");
  EXPECT_EQ(std::uncaught_exceptions(), 0);
}

TEST_F(FiberTest, APinnedFiberBlocksItsCarrierAndAnotherTakesOver) {
  // One carrier; its fiber is pinned and waits on a Condition (which then blocks the thread).
  // The scheduler runs a second carrier meanwhile, so the fiber that sends the signal runs.
  auto fibers = scheduler(1);
  std::mutex mutex;
  Condition changed;
  bool signaled = false;
  std::promise<std::pair<std::thread::id, std::thread::id>> pinned;
  fibers->spawn([&] {
    Fiber::Pin pin;
    const std::thread::id before = std::this_thread::get_id();
    {
      std::unique_lock lock(mutex);
      changed.wait(lock, [&] { return signaled; });
    }
    // With the lock given back: once the test sees the value it destroys the mutex.
    pinned.set_value({before, std::this_thread::get_id()});
  });
  fibers->spawn([&] {
    std::lock_guard lock(mutex);
    signaled = true;
    changed.notify_all();
  });
  std::future<std::pair<std::thread::id, std::thread::id>> result = pinned.get_future();
  ASSERT_EQ(result.wait_for(10s), std::future_status::ready);
  auto [before, after] = result.get();
  EXPECT_EQ(before, after);
  EXPECT_TRUE(eventually([&] { return fibers->liveFibers() == 0; }));  // Before the locals go.
}

TEST_F(FiberTest, AFiberStuckInCodeThatDoesNotParkGetsAnotherCarrierBeside) {
  // A fiber that blocks its carrier without telling anyone (a user's lock, a sleep): the reactor
  // sees the ready queue make no progress and adds a carrier.
  auto fibers = scheduler(1);
  std::promise<void> release;
  std::shared_future<void> released = release.get_future().share();
  std::promise<void> ran;
  fibers->spawn([&] { released.wait(); });
  fibers->spawn([&] { ran.set_value(); });
  EXPECT_EQ(ran.get_future().wait_for(10s), std::future_status::ready);
  release.set_value();
  EXPECT_TRUE(eventually([&] { return fibers->liveFibers() == 0; }));
}

}  // namespace
}  // namespace tern::internal
