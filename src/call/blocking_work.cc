// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#include "call/blocking_work.h"

#include <algorithm>
#include <memory>
#include <stdexcept>
#include <thread>
#include <utility>

#include "concurrent/fiber.h"
#include "concurrent/thread_pool_executor.h"

namespace tern::internal {

void runBlocking(std::function<void()> job) {
  // Already on a fiber (a coroutine resumed by an enqueued call's callback): the job runs here,
  // its waits parking this fiber, and the coroutine goes on without a hand-off to another
  // thread. The coroutine is suspended in the await that asked for the job, so nothing of the
  // user's runs here that its pin protects.
  if (Fiber::current() != nullptr) {
    Fiber::Unpin unpin;
    job();
    return;
  }
  // Destroyed at exit, after main(): shuts down and joins the threads, so none outlives the
  // program's other static objects. The scheduler goes first, then the pool its carriers run on.
  static ThreadPoolExecutor pool("tern Async Body");
  static const std::shared_ptr<FiberScheduler> fibers = FiberScheduler::create(
      [](std::function<void()> carrier) { pool.execute(std::move(carrier)); },
      std::max(2, static_cast<int>(std::thread::hardware_concurrency())));
  try {
    fibers->spawn(std::move(job));
  } catch (const std::exception& e) {
    throw std::logic_error(std::string("runBlocking: ") + e.what());
  }
}

}  // namespace tern::internal
