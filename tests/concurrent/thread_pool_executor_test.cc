// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#include "concurrent/thread_pool_executor.h"

#include <gtest/gtest.h>
#include <pthread.h>

#include <atomic>
#include <chrono>
#include <future>
#include <latch>
#include <mutex>
#include <set>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

namespace tern::internal {
namespace {

using namespace std::chrono_literals;

template <typename Condition>
bool eventually(Condition condition) {
  const auto deadline = std::chrono::steady_clock::now() + 5s;
  while (!condition()) {
    if (std::chrono::steady_clock::now() > deadline) {
      return false;
    }
    std::this_thread::sleep_for(5ms);
  }
  return true;
}

TEST(ThreadPoolExecutorTest, RunsJobsOnANamedThread) {
  ThreadPoolExecutor executor("tern Dispatcher");
  std::promise<std::string> name;
  executor.execute([&] {
    char buffer[16] = {};
    pthread_getname_np(pthread_self(), buffer, sizeof(buffer));
    name.set_value(buffer);
  });
  std::future<std::string> result = name.get_future();
  ASSERT_EQ(std::future_status::ready, result.wait_for(5s));
  EXPECT_EQ("tern Dispatche", result.get().substr(0, 14));
}

TEST(ThreadPoolExecutorTest, ReusesAnIdleThread) {
  ThreadPoolExecutor executor("pool");
  std::set<std::thread::id> threads;
  for (int i = 0; i < 5; ++i) {
    std::promise<std::thread::id> ran;
    executor.execute([&] { ran.set_value(std::this_thread::get_id()); });
    threads.insert(ran.get_future().get());
    ASSERT_TRUE(eventually([&] { return executor.idleThreadCount() == 1; }));
  }
  EXPECT_EQ(1u, threads.size());
  EXPECT_EQ(1u, executor.threadCount());
}

TEST(ThreadPoolExecutorTest, StartsAThreadPerConcurrentJob) {
  ThreadPoolExecutor executor("pool");
  constexpr int kJobs = 8;
  std::latch allRunning(kJobs);  // Completes only if all eight run at once.
  std::atomic<int> done{0};
  for (int i = 0; i < kJobs; ++i) {
    executor.execute([&] {
      allRunning.arrive_and_wait();
      ++done;
    });
  }
  EXPECT_TRUE(eventually([&] { return done == kJobs; }));
  EXPECT_EQ(static_cast<size_t>(kJobs), executor.threadCount());
}

TEST(ThreadPoolExecutorTest, MaxThreadsQueuesTheRestInOrder) {
  ThreadPoolExecutor executor("pool", 60s, 1);
  std::mutex lock;
  std::vector<int> order;
  for (int i = 0; i < 5; ++i) {
    executor.execute([&, i] {
      std::lock_guard<std::mutex> guard(lock);
      order.push_back(i);
    });
  }
  EXPECT_TRUE(eventually([&] { return executor.activeCount() == 0; }));
  EXPECT_EQ((std::vector<int>{0, 1, 2, 3, 4}), order);
  EXPECT_EQ(1u, executor.threadCount());
}

TEST(ThreadPoolExecutorTest, IdleThreadsExitAfterKeepAlive) {
  ThreadPoolExecutor executor("pool", 30ms);
  std::latch both(2);
  executor.execute([&] { both.arrive_and_wait(); });
  executor.execute([&] { both.arrive_and_wait(); });
  both.wait();
  EXPECT_TRUE(eventually([&] { return executor.threadCount() == 0; }));
  EXPECT_EQ(0u, executor.activeCount());
}

TEST(ThreadPoolExecutorTest, ShutdownRunsGivenJobsAndRejectsNewOnes) {
  ThreadPoolExecutor executor("shut pool");
  std::atomic<int> ran{0};
  for (int i = 0; i < 3; ++i) {
    executor.execute([&] {
      std::this_thread::sleep_for(20ms);
      ++ran;
    });
  }
  executor.shutdown();
  EXPECT_TRUE(executor.isShutdown());
  try {
    executor.execute([] {});
    FAIL() << "expected logic_error";
  } catch (const std::logic_error& e) {
    EXPECT_EQ("ThreadPoolExecutor \"shut pool\" has been shut down", std::string(e.what()));
  }
  EXPECT_TRUE(executor.awaitTermination(5s));
  EXPECT_EQ(3, ran);
  EXPECT_EQ(0u, executor.threadCount());
}

TEST(ThreadPoolExecutorTest, AwaitTerminationWithoutShutdownReturnsFalse) {
  ThreadPoolExecutor executor("pool");
  EXPECT_FALSE(executor.awaitTermination(10ms));
}

TEST(ThreadPoolExecutorTest, AThrowingJobIsReportedAndTheThreadCarriesOn) {
  ThreadPoolExecutor executor("pool", 60s, 1);
  ::testing::internal::CaptureStderr();
  executor.execute([] { throw std::runtime_error("job failed"); });
  std::promise<void> next;
  executor.execute([&] { next.set_value(); });
  ASSERT_EQ(std::future_status::ready, next.get_future().wait_for(5s));
  const std::string stderrText = ::testing::internal::GetCapturedStderr();
  EXPECT_NE(std::string::npos, stderrText.find("tern: uncaught exception in pool: job failed"))
      << stderrText;
}

TEST(ThreadPoolExecutorTest, DestructorJoinsThreadsAfterRunningJobs) {
  std::atomic<bool> finished{false};
  {
    ThreadPoolExecutor executor("pool");
    executor.execute([&] {
      std::this_thread::sleep_for(50ms);
      finished = true;
    });
  }
  EXPECT_TRUE(finished);
}

TEST(ThreadPoolExecutorTest, MayBeDestroyedByItsOwnJob) {
  // As when a finished call drops the last reference to its client's dispatcher.
  auto executor = std::make_shared<ThreadPoolExecutor>("pool");
  std::promise<void> destroyed;
  std::weak_ptr<ThreadPoolExecutor> weak = executor;
  executor->execute([&destroyed, owned = executor]() mutable {
    owned.reset();  // Nothing happens: the test still holds one.
    destroyed.set_value();
  });
  ASSERT_EQ(std::future_status::ready, destroyed.get_future().wait_for(5s));
  std::promise<void> done;
  ThreadPoolExecutor* raw = executor.get();
  raw->execute([&done, owned = std::move(executor)]() mutable {
    owned.reset();  // The last reference: ~ThreadPoolExecutor runs on its own thread.
    done.set_value();
  });
  ASSERT_EQ(std::future_status::ready, done.get_future().wait_for(5s));
  EXPECT_TRUE(eventually([&] { return weak.expired(); }));
}

TEST(ThreadPoolExecutorTest, ExecuteNextRunsOnTheSameThreadAfterTheJob) {
  ThreadPoolExecutor executor("pool");
  std::mutex mutex;
  std::vector<std::string> order;
  auto record = [&](const std::string& what) {
    std::lock_guard lock(mutex);
    order.push_back(what);
  };
  std::promise<std::thread::id> first;
  std::promise<std::thread::id> next;
  executor.execute([&] {
    first.set_value(std::this_thread::get_id());
    executor.executeNext([&] {
      record("next");
      next.set_value(std::this_thread::get_id());
    });
    std::this_thread::sleep_for(20ms);  // The next job must not start before this one ends.
    record("first ends");
  });
  std::future<std::thread::id> nextThread = next.get_future();
  ASSERT_EQ(std::future_status::ready, nextThread.wait_for(5s));
  EXPECT_EQ(first.get_future().get(), nextThread.get());
  std::lock_guard lock(mutex);
  EXPECT_EQ((std::vector<std::string>{"first ends", "next"}), order);
  EXPECT_EQ(1u, executor.threadCount());
}

TEST(ThreadPoolExecutorTest, ExecuteNextAwayFromThePoolIsExecute) {
  ThreadPoolExecutor executor("pool");
  ThreadPoolExecutor other("other");
  std::promise<std::thread::id> fromOutside;
  executor.executeNext([&] { fromOutside.set_value(std::this_thread::get_id()); });
  std::future<std::thread::id> outsideThread = fromOutside.get_future();
  ASSERT_EQ(std::future_status::ready, outsideThread.wait_for(5s));
  EXPECT_NE(std::this_thread::get_id(), outsideThread.get());

  // From another pool's job: runs on this pool's thread, not after the other pool's job.
  std::promise<void> ran;
  std::promise<void> release;
  std::shared_future<void> released = release.get_future().share();
  std::atomic<bool> otherJobEnded{false};
  other.execute([&] {
    executor.executeNext([&] { ran.set_value(); });
    released.wait();
    otherJobEnded = true;
  });
  std::future<void> ranFuture = ran.get_future();
  EXPECT_EQ(std::future_status::ready, ranFuture.wait_for(5s));
  EXPECT_FALSE(otherJobEnded);
  release.set_value();
  // Its job ends before `release` goes out of scope.
  other.shutdown();
  EXPECT_TRUE(other.awaitTermination(5s));
  EXPECT_TRUE(otherJobEnded);
}

TEST(ThreadPoolExecutorTest, OnlyOneNextJobPerThreadTheRestAreExecuted) {
  ThreadPoolExecutor executor("pool");
  std::promise<std::thread::id> first;
  std::promise<std::thread::id> second;
  std::promise<std::thread::id> third;
  std::promise<void> release;
  std::shared_future<void> released = release.get_future().share();
  executor.execute([&] {
    executor.executeNext([&] { second.set_value(std::this_thread::get_id()); });
    executor.executeNext([&] { third.set_value(std::this_thread::get_id()); });
    first.set_value(std::this_thread::get_id());
    released.wait();
  });
  std::future<std::thread::id> thirdThread = third.get_future();
  // The third runs on another thread while the first still runs.
  ASSERT_EQ(std::future_status::ready, thirdThread.wait_for(5s));
  std::thread::id firstThread = first.get_future().get();
  EXPECT_NE(firstThread, thirdThread.get());
  // The first is still running, and the second waits for it.
  EXPECT_TRUE(eventually([&] { return executor.activeCount() == 2; }));
  release.set_value();
  std::future<std::thread::id> secondThread = second.get_future();
  ASSERT_EQ(std::future_status::ready, secondThread.wait_for(5s));
  EXPECT_EQ(firstThread, secondThread.get());
  EXPECT_TRUE(eventually([&] { return executor.activeCount() == 0; }));
}

TEST(ThreadPoolExecutorTest, ExecuteNextAfterShutdownIsRejected) {
  ThreadPoolExecutor executor("pool");
  std::promise<std::string> rejected;
  executor.execute([&] {
    executor.shutdown();
    try {
      executor.executeNext([] {});
      rejected.set_value("accepted");
    } catch (const std::logic_error& e) {
      rejected.set_value(e.what());
    }
  });
  std::future<std::string> result = rejected.get_future();
  ASSERT_EQ(std::future_status::ready, result.wait_for(5s));
  EXPECT_EQ("ThreadPoolExecutor \"pool\" has been shut down", result.get());
  EXPECT_THROW(executor.executeNext([] {}), std::logic_error);
  EXPECT_TRUE(executor.awaitTermination(5s));
}

TEST(ThreadPoolExecutorTest, RejectsBadArguments) {
  EXPECT_THROW(ThreadPoolExecutor("pool", -1s), std::invalid_argument);
  EXPECT_THROW(ThreadPoolExecutor("pool", 1s, 0), std::invalid_argument);
  ThreadPoolExecutor executor("pool");
  EXPECT_THROW(executor.execute(nullptr), std::invalid_argument);
  EXPECT_THROW(executor.executeNext(nullptr), std::invalid_argument);
}

}  // namespace
}  // namespace tern::internal
