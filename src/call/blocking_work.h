// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#pragma once

#include <functional>

namespace tern::internal {

// Runs `job`, which may block (a body read waiting on the network), off the calling thread: the
// one place the coroutine API (tern/coro.h's readAsync, stringAsync, bytesAsync) hands blocking
// work to. Each job runs on a fiber (concurrent/fiber.h) carried by a pool of threads named
// "tern Async Body", shared by the process: a read waiting on an HTTP/2 stream or a socket parks
// and holds no thread; any other wait holds one, and the scheduler lends another meanwhile.
// Called on a fiber already (a coroutine resumed by an enqueued call's callback, or by an
// earlier job), it runs `job` there and then, unpinned (its waits park that fiber), with no
// hand-off. Otherwise returns at once. `job` runs once, and must catch its own failures; code it
// runs for the user (a coroutine it resumes) must be pinned (Fiber::Pin). Thread-safe. Throws
// std::logic_error after the pool was shut down (at exit).
void runBlocking(std::function<void()> job);

}  // namespace tern::internal
