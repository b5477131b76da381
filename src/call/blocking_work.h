// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#pragma once

#include <functional>

namespace tern::internal {

// Runs `job`, which may block (a body read waiting on the network), off the calling thread: the
// one place the coroutine API (tern/coro.h's readAsync, stringAsync, bytesAsync) hands blocking
// work to, so the engine behind it can change without touching the API. Today a cached pool of
// threads named "tern Async Body", shared by the process: a blocked job holds a thread, jobs
// never queue behind each other. Returns at once; `job` runs once, and must catch its own
// failures. Thread-safe. Throws std::logic_error after the pool was shut down (at exit).
void runBlocking(std::function<void()> job);

}  // namespace tern::internal
