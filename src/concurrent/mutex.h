// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#pragma once

#include <condition_variable>
#include <mutex>

#include "concurrent/thread_annotations.h"

namespace tern::internal {

// A std::mutex the compiler knows is a lock (TERN_CAPABILITY), so that members annotated
// TERN_GUARDED_BY(mutex_) are checked by clang's -Wthread-safety; Abseil's and Chromium's
// approach, as libstdc++'s std::mutex has no annotations. Hold it with MutexLock.
class TERN_CAPABILITY("mutex") Mutex {
 public:
  Mutex() = default;
  Mutex(const Mutex&) = delete;
  Mutex& operator=(const Mutex&) = delete;

  void lock() TERN_ACQUIRE() { mutex_.lock(); }
  void unlock() TERN_RELEASE() { mutex_.unlock(); }
  bool try_lock() TERN_TRY_ACQUIRE(true) { return mutex_.try_lock(); }

  // The std::mutex inside, for a std::condition_variable (through MutexLock::native()) and for
  // spinBeforeSleeping(). Locking it directly escapes the analysis: don't.
  std::mutex& native() noexcept { return mutex_; }

 private:
  std::mutex mutex_;
};

// Holds a Mutex for its scope, as std::unique_lock: unlock() and lock() again in between are
// tracked by the analysis.
class TERN_SCOPED_CAPABILITY MutexLock {
 public:
  explicit MutexLock(Mutex& mutex) TERN_ACQUIRE(mutex) : lock_(mutex.native()) {}
  ~MutexLock() TERN_RELEASE() = default;
  MutexLock(const MutexLock&) = delete;
  MutexLock& operator=(const MutexLock&) = delete;

  void lock() TERN_ACQUIRE() { lock_.lock(); }
  void unlock() TERN_RELEASE() { lock_.unlock(); }

  // For std::condition_variable::wait() and Timeout::waitUntilNotified(): the wait releases the
  // mutex and takes it again before it returns, so to the analysis it stays held.
  std::unique_lock<std::mutex>& native() noexcept { return lock_; }

 private:
  std::unique_lock<std::mutex> lock_;
};

}  // namespace tern::internal
