// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#pragma once

#include <mutex>

namespace tern::internal {

// Makes `mutex` spin for a moment before it puts a waiting thread to sleep (glibc's
// PTHREAD_MUTEX_ADAPTIVE_NP), as the JVM's monitors do under OkHttp's `synchronized`. For a lock
// that many threads take for a short time each, such as an HTTP/2 connection's: without it, a
// thread that finds the lock held sleeps and must be woken, two context switches for a wait
// shorter than either. A std::mutex stays a std::mutex, so std::condition_variable still works
// with it.
//
// Call once, from the owner's constructor, before any thread uses the mutex.
void spinBeforeSleeping(std::mutex& mutex);

}  // namespace tern::internal
