// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#include "call/blocking_work.h"

#include <utility>

#include "concurrent/thread_pool_executor.h"

namespace tern::internal {

void runBlocking(std::function<void()> job) {
  // Destroyed at exit, after main(): shuts down and joins the threads, so none outlives the
  // program's other static objects.
  static ThreadPoolExecutor pool("tern Async Body");
  pool.execute(std::move(job));
}

}  // namespace tern::internal
