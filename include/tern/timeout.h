// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#pragma once

#include <chrono>
#include <condition_variable>
#include <mutex>
#include <optional>

#include "tern/exceptions.h"
#include "tern/export.h"

namespace tern {

// How long a blocking I/O operation may wait, as Okio's Timeout: a per-operation timeout (each
// read, write or wait may block this long) and an optional deadline (a point in time after which
// every operation fails). Both unset means "wait forever". A timeout of zero means none.
//
// Every Source and Sink has one; the socket layer turns it into poll() waits (see waitDeadline()
// and pollTimeoutMillis()), and code that waits on a condition variable uses waitUntilNotified().
//
// Not thread-safe: configure it before the operation, on the thread that performs it. Copying is
// disabled because subclasses (Timeout::none(), forwarding timeouts) would be sliced.
class TERN_API Timeout {
 public:
  using Clock = std::chrono::steady_clock;

  Timeout() = default;
  virtual ~Timeout() = default;
  Timeout(const Timeout&) = delete;
  Timeout& operator=(const Timeout&) = delete;

  // The shared timeout that never fires and ignores every setter (Okio's Timeout.NONE). Used by
  // Buffer and by sources that never block. Safe to use from any thread.
  static Timeout& none();

  // Each blocking operation may wait at most `timeout`; zero clears it. Throws
  // std::invalid_argument if `timeout` is negative. Returns *this for chaining.
  virtual Timeout& timeout(std::chrono::nanoseconds timeout);

  // The per-operation timeout, or zero when there is none.
  virtual std::chrono::nanoseconds timeoutNanos() const;

  // True if a deadline is set.
  virtual bool hasDeadline() const;

  // The deadline. Throws std::logic_error if none is set (check hasDeadline() first).
  virtual Clock::time_point deadlineNanoTime() const;

  // Sets the deadline: operations fail once `deadline` has passed. Returns *this.
  virtual Timeout& deadline(Clock::time_point deadline);

  // Sets the deadline to `duration` from now. Throws std::invalid_argument unless duration > 0.
  Timeout& deadline(std::chrono::nanoseconds duration);

  // Removes the per-operation timeout. Returns *this.
  virtual Timeout& clearTimeout();

  // Removes the deadline. Returns *this.
  virtual Timeout& clearDeadline();

  // Throws InterruptedIOException("deadline reached") if the deadline has passed. Sources and
  // sinks that cannot be interrupted while blocked (files) call this before each operation.
  virtual void throwIfReached();

  // The latest time a blocking operation that starts at `now` may wait until: the earlier of
  // now + timeoutNanos() and the deadline, or std::nullopt if neither is set (wait forever).
  std::optional<Clock::time_point> waitDeadline(Clock::time_point now = Clock::now()) const;

  // The timeout argument for poll() when waiting until `waitDeadline` (from waitDeadline()):
  // -1 for no deadline, 0 if it has passed, else the remaining milliseconds rounded up (so poll
  // never returns before the deadline) and capped at INT_MAX.
  static int pollTimeoutMillis(std::optional<Clock::time_point> waitDeadline,
                               Clock::time_point now = Clock::now());

  // Waits on `condition` (whose mutex `lock` holds) until notified or until waitDeadline()
  // passes, as Okio's waitUntilNotified. Throws SocketTimeoutException("timeout") if the wait
  // timed out. Like any condition wait it may return spuriously: callers loop on their
  // condition, and each call restarts the per-operation timeout (the deadline stays fixed).
  void waitUntilNotified(std::condition_variable& condition, std::unique_lock<std::mutex>& lock);

  // Waits on `condition` until `ready()` returns true, bounded by one waitDeadline() computed at
  // the start (so spurious wakeups do not extend it). Throws SocketTimeoutException("timeout") if
  // the time runs out with ready() still false.
  template <typename Predicate>
  void waitUntilNotified(std::condition_variable& condition, std::unique_lock<std::mutex>& lock,
                         Predicate ready) {
    std::optional<Clock::time_point> until = waitDeadline(Clock::now());
    if (!until) {
      condition.wait(lock, ready);
    } else if (!condition.wait_until(lock, *until, ready)) {
      throw SocketTimeoutException("timeout");
    }
  }

 private:
  std::chrono::nanoseconds timeout_{0};
  std::optional<Clock::time_point> deadline_;
};

}  // namespace tern
