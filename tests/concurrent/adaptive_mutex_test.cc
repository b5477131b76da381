// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#include "concurrent/adaptive_mutex.h"

#include <gtest/gtest.h>
#include <pthread.h>

#include <chrono>
#include <condition_variable>
#include <thread>
#include <vector>

namespace tern::internal {
namespace {

TEST(AdaptiveMutexTest, BecomesAnAdaptiveMutex) {
  AdaptiveMutex mutex;
  // glibc keeps the type in the mutex itself.
  EXPECT_EQ(PTHREAD_MUTEX_ADAPTIVE_NP, mutex.native().native_handle()->__data.__kind);
}

TEST(AdaptiveMutexTest, StillExcludesOtherThreads) {
  AdaptiveMutex mutex;
  long counter = 0;  // Not atomic: only the mutex keeps the increments apart.
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&] {
      for (int i = 0; i < 100000; ++i) {
        MutexLock lock(mutex);
        ++counter;
      }
    });
  }
  for (std::thread& thread : threads) thread.join();
  EXPECT_EQ(400000, counter);
}

TEST(AdaptiveMutexTest, WorksWithAConditionVariable) {
  AdaptiveMutex mutex;
  std::condition_variable changed;
  bool ready = false;
  std::thread notifier([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    MutexLock lock(mutex);
    ready = true;
    changed.notify_all();
  });
  MutexLock lock(mutex);
  EXPECT_TRUE(changed.wait_for(lock.native(), std::chrono::seconds(5), [&] { return ready; }));
  lock.unlock();
  notifier.join();
}

}  // namespace
}  // namespace tern::internal
