// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
// TaskRunner on real threads and the real clock.
#include <gtest/gtest.h>
#include <pthread.h>

#include <atomic>
#include <chrono>
#include <future>
#include <latch>
#include <string>
#include <thread>

#include "concurrent/task_runner.h"

namespace tern::internal {
namespace {

using namespace std::chrono_literals;

// Polls `condition` for up to 5 s: for effects that happen on another thread soon.
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

struct RealRunner {
  explicit RealRunner(std::chrono::nanoseconds keepAlive = 60s)
      : backend(std::make_shared<TaskRunner::RealBackend>(keepAlive)),
        runner(TaskRunner::create(backend)) {}
  ~RealRunner() {
    runner->shutdown();
    backend->shutdown();
  }
  std::shared_ptr<TaskRunner::RealBackend> backend;
  std::shared_ptr<TaskRunner> runner;
};

TEST(TaskRunnerRealTest, RunsATaskOnANamedPoolThread) {
  RealRunner real;
  std::unique_ptr<TaskQueue> queue = real.runner->newQueue("q");
  std::promise<std::pair<std::thread::id, std::string>> ran;
  queue->execute("task", 0ns, true, [&] {
    char name[16] = {};
    pthread_getname_np(pthread_self(), name, sizeof(name));
    ran.set_value({std::this_thread::get_id(), name});
  });
  std::future<std::pair<std::thread::id, std::string>> result = ran.get_future();
  ASSERT_EQ(std::future_status::ready, result.wait_for(5s));
  auto [thread, name] = result.get();
  EXPECT_NE(std::this_thread::get_id(), thread);
  EXPECT_EQ("tern TaskRunner", name);
}

TEST(TaskRunnerRealTest, DelayedTaskWaitsForItsDelay) {
  RealRunner real;
  std::unique_ptr<TaskQueue> queue = real.runner->newQueue("q");
  const auto start = std::chrono::steady_clock::now();
  std::promise<std::chrono::steady_clock::time_point> ran;
  queue->execute("later", 100ms, true, [&] { ran.set_value(std::chrono::steady_clock::now()); });
  std::future<std::chrono::steady_clock::time_point> result = ran.get_future();
  ASSERT_EQ(std::future_status::ready, result.wait_for(5s));
  EXPECT_GE(result.get() - start, 100ms);
}

TEST(TaskRunnerRealTest, EarlierTaskWakesTheSleepingCoordinator) {
  RealRunner real;
  std::unique_ptr<TaskQueue> queue = real.runner->newQueue("q");
  queue->execute("in an hour", 1h, true, [] {});
  std::this_thread::sleep_for(50ms);  // The coordinator now sleeps for an hour.
  std::promise<void> ran;
  queue->execute("soon", 10ms, true, [&] { ran.set_value(); });
  EXPECT_EQ(std::future_status::ready, ran.get_future().wait_for(5s));
}

TEST(TaskRunnerRealTest, QueuesRunInParallel) {
  RealRunner real;
  std::unique_ptr<TaskQueue> red = real.runner->newQueue("red");
  std::unique_ptr<TaskQueue> blue = real.runner->newQueue("blue");
  // Each task waits for the other to start: only two threads at once can finish them.
  std::latch bothStarted(2);
  std::atomic<int> finished{0};
  for (TaskQueue* queue : {red.get(), blue.get()}) {
    queue->execute("meet", 0ns, true, [&] {
      bothStarted.arrive_and_wait();
      ++finished;
    });
  }
  EXPECT_TRUE(eventually([&] { return finished == 2; }));
}

TEST(TaskRunnerRealTest, CanceledTaskNeverRuns) {
  RealRunner real;
  std::unique_ptr<TaskQueue> queue = real.runner->newQueue("q");
  std::atomic<bool> ran{false};
  queue->execute("canceled", 100ms, true, [&] { ran = true; });
  queue->cancelAll();
  std::promise<void> after;
  queue->execute("after", 200ms, true, [&] { after.set_value(); });
  ASSERT_EQ(std::future_status::ready, after.get_future().wait_for(5s));
  EXPECT_FALSE(ran);
}

TEST(TaskRunnerRealTest, DestroyingAQueueWaitsForItsRunningTask) {
  RealRunner real;
  std::unique_ptr<TaskQueue> queue = real.runner->newQueue("q");
  std::promise<void> started;
  std::atomic<bool> finished{false};
  queue->execute("slow", 0ns, true, [&] {
    started.set_value();
    std::this_thread::sleep_for(100ms);
    finished = true;
  });
  ASSERT_EQ(std::future_status::ready, started.get_future().wait_for(5s));
  queue.reset();
  EXPECT_TRUE(finished);  // What the task referenced may go now.
}

TEST(TaskRunnerRealTest, IdleThreadsExitAfterKeepAlive) {
  RealRunner real(50ms);
  std::unique_ptr<TaskQueue> queue = real.runner->newQueue("q");
  std::promise<void> ran;
  queue->execute("task", 0ns, true, [&] { ran.set_value(); });
  ASSERT_EQ(std::future_status::ready, ran.get_future().wait_for(5s));
  EXPECT_GE(real.backend->threadCount(), 1u);
  EXPECT_TRUE(eventually([&] { return real.backend->threadCount() == 0; }))
      << real.backend->threadCount() << " threads still alive";
  // And new work starts a thread again.
  std::promise<void> again;
  queue->execute("again", 0ns, true, [&] { again.set_value(); });
  EXPECT_EQ(std::future_status::ready, again.get_future().wait_for(5s));
}

TEST(TaskRunnerRealTest, ShutdownWaitsForRunningTasksAndStopsThreads) {
  auto backend = std::make_shared<TaskRunner::RealBackend>();
  std::shared_ptr<TaskRunner> runner = TaskRunner::create(backend);
  std::unique_ptr<TaskQueue> queue = runner->newQueue("q");
  std::promise<void> started;
  std::atomic<bool> finished{false};
  queue->execute("slow", 0ns, true, [&] {
    started.set_value();
    std::this_thread::sleep_for(100ms);
    finished = true;
  });
  queue->execute("never", 1h, false, [] {});
  ASSERT_EQ(std::future_status::ready, started.get_future().wait_for(5s));
  runner->shutdown();
  EXPECT_TRUE(finished);
  EXPECT_TRUE(queue->scheduledTasks().empty());
  backend->shutdown();
  EXPECT_EQ(0u, backend->threadCount());
}

TEST(TaskRunnerRealTest, ProcessWideInstanceRunsTasks) {
  const std::shared_ptr<TaskRunner>& runner = TaskRunner::instance();
  EXPECT_EQ(runner.get(), TaskRunner::instance().get());
  std::unique_ptr<TaskQueue> queue = runner->newQueue("instance test");
  std::promise<void> ran;
  queue->execute("task", 0ns, true, [&] { ran.set_value(); });
  EXPECT_EQ(std::future_status::ready, ran.get_future().wait_for(5s));
}

}  // namespace
}  // namespace tern::internal
