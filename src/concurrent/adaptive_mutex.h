// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#pragma once

#include "concurrent/mutex.h"
#include "concurrent/thread_annotations.h"

namespace tern::internal {

// A Mutex that spins for a moment before it puts a waiting thread to sleep (glibc's
// PTHREAD_MUTEX_ADAPTIVE_NP), as the JVM's monitors do under OkHttp's `synchronized`. For a lock
// that many threads take for a short time each, such as an HTTP/2 connection's: without it, a
// thread that finds the lock held sleeps and must be woken, two context switches for a wait
// shorter than either. It is a Mutex (a capability to the analysis, held with MutexLock), and
// its native() a std::mutex, so std::condition_variable still works with it.
class TERN_CAPABILITY("mutex") AdaptiveMutex final : public Mutex {
 public:
  AdaptiveMutex();
};

}  // namespace tern::internal
