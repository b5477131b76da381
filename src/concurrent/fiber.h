// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#pragma once

#include <sys/types.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <functional>
#include <list>
#include <memory>
#include <mutex>
#include <optional>

namespace tern::internal {

class FiberScheduler;

// A stackful coroutine: the engine under asynchronous calls (DESIGN.md, Threads). An enqueued
// call runs on a fiber, and where it would wait on the network (a Condition, a socket) the fiber
// parks instead: its carrier thread goes on with other fibers, and whoever makes the wait end
// (the HTTP/2 reader, the FiberReactor's epoll, a timer) puts the fiber back on its scheduler's
// ready queue. Code on a fiber is ordinary blocking code; only the few waits that know about
// fibers (Condition, Socket::await) park, and any other blocking call simply holds the carrier.
//
// A parked fiber may resume on another carrier thread. What that means for code on a fiber:
//  - no thread_local may be held across a park (the few tern has are swapped per fiber, or not
//    used across a wait); the C++ runtime's caught-exception stack is swapped per fiber;
//  - a std::mutex held across a park is unlocked by another thread, which glibc allows.
//
// Lifetime: shared. The scheduler's queue, the reactor's timers and waiters hold it.
class Fiber : public std::enable_shared_from_this<Fiber> {
 public:
  using Clock = std::chrono::steady_clock;

  // The stack each fiber reserves (address space only: the kernel commits the pages the fiber
  // touches). A thread's default is 8 MiB; a call needs a few KiB, a TLS handshake tens of KiB.
  static constexpr size_t kStackSize = size_t{1} << 20;

  ~Fiber();
  Fiber(const Fiber&) = delete;
  Fiber& operator=(const Fiber&) = delete;

  // The fiber the calling code runs on, or null on a plain thread.
  static Fiber* current() noexcept;
  // The current fiber if it may park here (it is not pinned), else null: then a wait blocks
  // the thread, as on a plain thread (inside a BlockingScope).
  static Fiber* parkable() noexcept;

  // Pins the current fiber (if any) to its carrier thread while it lives: waits inside block
  // the carrier instead of parking. User code (a Callback) runs pinned, so a thread_local it
  // keeps or a lock it holds across a blocking body read stays on one thread, as it would with
  // a thread per call; the carrier it holds is made up for (BlockingScope).
  class Pin {
   public:
    Pin() noexcept;
    ~Pin();
    Pin(const Pin&) = delete;
    Pin& operator=(const Pin&) = delete;

   private:
    Fiber* fiber_;
  };

  // Lifts every Pin of the current fiber (if any) while it lasts: for tern's own code that runs
  // while the user's pinned code is suspended (a coroutine awaiting a body read), whose waits
  // may then park. The fiber may be on another carrier thread afterwards.
  class Unpin {
   public:
    Unpin() noexcept;
    ~Unpin();
    Unpin(const Unpin&) = delete;
    Unpin& operator=(const Unpin&) = delete;

   private:
    Fiber* fiber_;
    int pins_ = 0;
  };

  // Parks the current fiber until unpark(ticket) or `until`, whichever comes first. A caller
  // registers `ticket` (from prepareToPark()) with its waker before it releases the lock its
  // waker takes, so no wake-up is lost: an unpark() between prepareToPark() and park() makes
  // park() return at once. Returns like a condition variable: spuriously at times, so callers
  // check their condition again.
  uint64_t prepareToPark() noexcept;
  void park(std::optional<Clock::time_point> until);

  // Makes the fiber runnable if it is still parked (or parking) under `ticket`. Any thread.
  void unpark(uint64_t ticket) noexcept;

  // The scheduler that runs this fiber: a fiber may start siblings on it.
  FiberScheduler& scheduler() const noexcept { return *scheduler_; }

  // Per-fiber storage for AsyncCall's innermost call frame (a thread_local on plain threads).
  const void*& callFrameSlot() noexcept { return callFrame_; }

 private:
  friend class BlockingScope;
  friend class FiberScheduler;
  struct Context;

  Fiber(std::shared_ptr<FiberScheduler> scheduler, std::function<void()> body,
        std::function<void()> then);

  // The carrier side: runs the fiber until it parks or ends. Returns true once it has ended.
  bool resume();
  // The fiber side: back to the carrier.
  void suspend();
  [[noreturn]] static void entry(Fiber* self);
  // After a switch out: completes a park begun by prepareToPark(), or requeues the fiber if an
  // unpark() came meanwhile.
  void afterSwitchOut();

  // State word: (ticket << 2) | one of these.
  enum State : uint64_t { kRunning = 0, kParking = 1, kParked = 2, kNotified = 3 };

  std::shared_ptr<FiberScheduler> scheduler_;
  std::shared_ptr<Fiber> self_;  // Set from spawn() until the fiber ends: a parked fiber lives.
  std::function<void()> body_;
  std::function<void()> then_;  // Run by the carrier once the fiber ended, or null.
  std::unique_ptr<Context> context_;
  std::atomic<uint64_t> state_{0};
  uint64_t ticket_ = 0;  // Only the fiber itself changes it.
  bool ended_ = false;
  int pins_ = 0;  // Only the fiber itself changes it.
  const void* callFrame_ = nullptr;
  uint64_t timer_ = 0;  // The reactor's timer for the current park, or 0.
};

// Wraps a wait that blocks a carrier thread (a pinned fiber's, or one that cannot park): while
// it lasts the fiber's scheduler may run one more carrier, so the fibers ready meanwhile do not
// wait for it, as Java's ForkJoinPool.managedBlock (for as many blocked carriers as the
// scheduler has; beyond that, only while every carrier is blocked). On a plain thread it does
// nothing.
class BlockingScope {
 public:
  BlockingScope() noexcept;
  ~BlockingScope();
  BlockingScope(const BlockingScope&) = delete;
  BlockingScope& operator=(const BlockingScope&) = delete;

 private:
  FiberScheduler* scheduler_ = nullptr;
};

// Runs fibers on a few carrier threads taken from an executor (the Dispatcher's pool): a ready
// queue, drained by at most `carriers` jobs at once. A carrier stuck in code that blocks without
// parking (a user's callback waiting on a lock, a DNS lookup) is noticed by the FiberReactor,
// which adds another carrier while the queue makes no progress, so a fiber that blocks never
// starves the rest.
class FiberScheduler : public std::enable_shared_from_this<FiberScheduler> {
 public:
  using Executor = std::function<void(std::function<void()>)>;

  // How long a carrier with nothing to run waits for more before it gives its thread back.
  static constexpr std::chrono::milliseconds kCarrierLinger{5};

  static std::shared_ptr<FiberScheduler> create(Executor executor, int carriers);

  // Starts `body` on a new fiber, and runs `then` (if any) on the carrier thread once the fiber
  // has ended. Throws what the executor throws when it refuses a carrier (the fiber is then
  // dropped without running), or std::system_error without memory for a stack. Called from a
  // `then` of this scheduler, the new fiber runs next on that same carrier: no hand-off.
  void spawn(std::function<void()> body, std::function<void()> then = nullptr);

  // Fibers started and not yet ended.
  int liveFibers() const noexcept { return live_.load(); }
  // Carrier jobs running now.
  int carriers() const;

 private:
  friend class BlockingScope;
  friend class Fiber;
  friend class FiberReactor;
  FiberScheduler(Executor executor, int carriers);

  // A carrier blocks (BlockingScope): one more may run meanwhile.
  void blockingBegin();
  void blockingEnd() noexcept;
  // How many carriers may run now without the starvation check's say. Lock held.
  int carrierLimitLocked() const;
  // Posts a carrier job; false if the executor refused it. Lock not held.
  bool postCarrier() noexcept;

  void makeReady(std::shared_ptr<Fiber> fiber);
  void drain();
  // Called by the reactor every few milliseconds while this scheduler has fibers waiting and all
  // its carriers busy: adds a carrier if none made progress since the last look. Returns true
  // while fibers still wait for a carrier (the reactor keeps looking).
  bool checkStarved();

  const Executor executor_;
  const int maxCarriers_;
  std::atomic<int> live_{0};
  mutable std::mutex mutex_;
  std::deque<std::shared_ptr<Fiber>> ready_;  // Guarded by mutex_.
  int carriers_ = 0;                          // Guarded by mutex_.
  int blocked_ = 0;                           // Guarded by mutex_: carriers in a BlockingScope.
  int idle_ = 0;                              // Guarded by mutex_: carriers waiting for work.
  std::condition_variable workReady_;         // Idle carriers wait here (with mutex_).
  uint64_t progress_ = 0;                     // Guarded by mutex_: fibers resumed so far.
  uint64_t progressSeen_ = 0;                 // Guarded by mutex_: at the reactor's last look.
  bool watched_ = false;                      // Guarded by mutex_: looked at since it starved.
  int stalledLooks_ =
      0;  // Guarded by mutex_: looks in a row that saw no progress, carriers asleep.
  std::list<pid_t> carrierThreads_;  // Guarded by mutex_: the running carriers' thread ids.
};

}  // namespace tern::internal
