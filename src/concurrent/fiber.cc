// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#include "concurrent/fiber.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <ucontext.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <iostream>
#include <stdexcept>
#include <system_error>
#include <utility>
#include <vector>

#include "concurrent/fiber_reactor.h"

// Sanitizers must be told about stack switches (AddressSanitizer's and ThreadSanitizer's fiber
// interfaces), or they report false positives and lose track of which stack is which.
#if defined(__has_feature)
#if __has_feature(address_sanitizer)
#define TERN_FIBER_ASAN 1
#endif
#if __has_feature(thread_sanitizer)
#define TERN_FIBER_TSAN 1
#endif
#endif
#if defined(__SANITIZE_ADDRESS__)
#define TERN_FIBER_ASAN 1
#endif
#if defined(__SANITIZE_THREAD__)
#define TERN_FIBER_TSAN 1
#endif

#ifdef TERN_FIBER_ASAN
#include <dlfcn.h>
extern "C" {
void __sanitizer_start_switch_fiber(void** fake_stack_save, const void* bottom, size_t size);
void __sanitizer_finish_switch_fiber(void* fake_stack_save, const void** bottom_old,
                                     size_t* size_old);
void __asan_unpoison_memory_region(void const volatile* addr, size_t size);
}
#endif
#ifdef TERN_FIBER_TSAN
extern "C" {
void* __tsan_get_current_fiber(void);
void* __tsan_create_fiber(unsigned flags);
void __tsan_destroy_fiber(void* fiber);
void __tsan_switch_to_fiber(void* fiber, unsigned flags);
}
#endif

// The C++ runtime's per-thread exception state (libstdc++'s and libc++abi's __cxa_eh_globals:
// the stack of exceptions being handled, and the count of uncaught ones). A fiber parked inside
// a catch block must take its own along, or the next fiber's catch on that thread would pop it.
namespace __cxxabiv1 {
struct __cxa_eh_globals;
extern "C" __cxa_eh_globals* __cxa_get_globals() noexcept;
}  // namespace __cxxabiv1

namespace tern::internal {

namespace {

struct EhGlobals {
  void* caughtExceptions = nullptr;
  unsigned int uncaughtExceptions = 0;
};

// Not inlined: the address of a thread's globals must be looked up on the thread that runs.
[[gnu::noinline]] EhGlobals* ehGlobals() noexcept {
  return reinterpret_cast<EhGlobals*>(__cxxabiv1::__cxa_get_globals());
}

thread_local Fiber* currentFiber = nullptr;

// swapcontext(3). Under ASan, glibc's own rather than ASan's interceptor, which writes a warning
// to stderr on its first use (a program's stderr is its output, and the tool's tests compare
// it); the switches are annotated here instead (__sanitizer_*_switch_fiber), and a stack is
// unpoisoned whenever a fiber takes it.
int switchContext(ucontext_t* from, const ucontext_t* to) noexcept {
#ifdef TERN_FIBER_ASAN
  using SwapContext = int (*)(ucontext_t*, const ucontext_t*);
  static const SwapContext real = reinterpret_cast<SwapContext>(::dlsym(RTLD_NEXT, "swapcontext"));
  if (real != nullptr) return real(from, to);
#endif
  return ::swapcontext(from, to);
}
// The scheduler whose carrier this thread is, while it runs a fiber's `then`.
thread_local const FiberScheduler* thenOf = nullptr;

[[gnu::noinline]] void setCurrentFiber(Fiber* fiber) noexcept { currentFiber = fiber; }

// Stacks are mapped with a guard page below them, and kept for reuse: a few dozen, so a burst of
// calls does not map and unmap a stack each.
class StackPool {
 public:
  static constexpr size_t kKept = 64;

  static StackPool& instance() {
    static StackPool* pool = new StackPool();  // Never destroyed: fibers may end at exit.
    return *pool;
  }

  void* take() {
    {
      std::lock_guard lock(mutex_);
      if (!free_.empty()) {
        void* stack = free_.back();
        free_.pop_back();
        return stack;
      }
    }
    const size_t guard = static_cast<size_t>(::sysconf(_SC_PAGESIZE));
    void* region = ::mmap(nullptr, Fiber::kStackSize + guard, PROT_READ | PROT_WRITE,
                          MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_STACK, -1, 0);
    if (region == MAP_FAILED) {
      throw std::system_error(errno, std::generic_category(), "mmap of a fiber stack");
    }
    if (::mprotect(region, guard, PROT_NONE) != 0) {
      const int error = errno;
      ::munmap(region, Fiber::kStackSize + guard);
      throw std::system_error(error, std::generic_category(), "mprotect of a fiber stack");
    }
    return static_cast<char*>(region) + guard;
  }

  void give(void* stack) {
    {
      std::lock_guard lock(mutex_);
      if (free_.size() < kKept) {
        free_.push_back(stack);
        return;
      }
    }
    const size_t guard = static_cast<size_t>(::sysconf(_SC_PAGESIZE));
    ::munmap(static_cast<char*>(stack) - guard, Fiber::kStackSize + guard);
  }

 private:
  std::mutex mutex_;
  std::vector<void*> free_;
};

}  // namespace

struct Fiber::Context {
  ucontext_t fiber{};
  ucontext_t carrier{};
  void* stack = nullptr;
  EhGlobals fiberEh;
  EhGlobals carrierEh;
#ifdef TERN_FIBER_ASAN
  void* fiberFakeStack = nullptr;
  void* carrierFakeStack = nullptr;
  const void* carrierBottom = nullptr;
  size_t carrierSize = 0;
#endif
#ifdef TERN_FIBER_TSAN
  void* tsanFiber = nullptr;
  void* tsanCarrier = nullptr;
#endif
};

Fiber* Fiber::current() noexcept { return currentFiber; }

Fiber* Fiber::parkable() noexcept {
  Fiber* fiber = currentFiber;
  return fiber != nullptr && fiber->pins_ == 0 ? fiber : nullptr;
}

Fiber::Pin::Pin() noexcept : fiber_(currentFiber) {
  if (fiber_ != nullptr) ++fiber_->pins_;
}

Fiber::Pin::~Pin() {
  if (fiber_ != nullptr) --fiber_->pins_;
}

Fiber::Unpin::Unpin() noexcept : fiber_(currentFiber) {
  if (fiber_ != nullptr) pins_ = std::exchange(fiber_->pins_, 0);
}

Fiber::Unpin::~Unpin() {
  if (fiber_ != nullptr) fiber_->pins_ = pins_;
}

BlockingScope::BlockingScope() noexcept {
  Fiber* fiber = currentFiber;
  if (fiber == nullptr) return;
  try {
    fiber->scheduler_->blockingBegin();
    scheduler_ = fiber->scheduler_.get();
  } catch (...) {
    // No carrier to spare: the wait holds this one, as it would on a plain thread.
  }
}

BlockingScope::~BlockingScope() {
  if (scheduler_ != nullptr) scheduler_->blockingEnd();
}

Fiber::Fiber(std::shared_ptr<FiberScheduler> scheduler, std::function<void()> body,
             std::function<void()> then)
    : scheduler_(std::move(scheduler)),
      body_(std::move(body)),
      then_(std::move(then)),
      context_(std::make_unique<Context>()) {
  context_->stack = StackPool::instance().take();
#ifdef TERN_FIBER_ASAN
  // What the last fiber on this stack left poisoned (its frames' redzones) is stale now.
  __asan_unpoison_memory_region(context_->stack, kStackSize);
#endif
  if (::getcontext(&context_->fiber) != 0) {
    StackPool::instance().give(context_->stack);
    throw std::system_error(errno, std::generic_category(), "getcontext");
  }
  context_->fiber.uc_stack.ss_sp = context_->stack;
  context_->fiber.uc_stack.ss_size = kStackSize;
  context_->fiber.uc_link = nullptr;
  const auto address = reinterpret_cast<uintptr_t>(this);
  // makecontext passes int arguments: the pointer goes in two halves.
  ::makecontext(&context_->fiber, reinterpret_cast<void (*)()>(+[](unsigned high, unsigned low) {
    entry(reinterpret_cast<Fiber*>((static_cast<uintptr_t>(high) << 32) | low));
  }),
                2, static_cast<unsigned>(address >> 32), static_cast<unsigned>(address));
#ifdef TERN_FIBER_TSAN
  context_->tsanFiber = __tsan_create_fiber(0);
#endif
}

Fiber::~Fiber() {
#ifdef TERN_FIBER_TSAN
  if (context_->tsanFiber != nullptr) __tsan_destroy_fiber(context_->tsanFiber);
#endif
  // A fiber is destroyed only after it ended (it holds itself until then), so its stack is free.
  StackPool::instance().give(context_->stack);
}

void Fiber::entry(Fiber* self) {
#ifdef TERN_FIBER_ASAN
  __sanitizer_finish_switch_fiber(nullptr, &self->context_->carrierBottom,
                                  &self->context_->carrierSize);
#endif
  try {
    self->body_();
  } catch (const std::exception& e) {
    std::cerr << "tern: uncaught exception on a fiber: " << e.what() << "\n";
  } catch (...) {
    std::cerr << "tern: uncaught exception on a fiber\n";
  }
  self->ended_ = true;
  self->suspend();
  __builtin_unreachable();
}

bool Fiber::resume() {
  Context& c = *context_;
  EhGlobals* eh = ehGlobals();
  c.carrierEh = *eh;
  *eh = c.fiberEh;
  setCurrentFiber(this);
#ifdef TERN_FIBER_ASAN
  __sanitizer_start_switch_fiber(&c.carrierFakeStack, c.stack, kStackSize);
#endif
#ifdef TERN_FIBER_TSAN
  c.tsanCarrier = __tsan_get_current_fiber();
  __tsan_switch_to_fiber(c.tsanFiber, 0);
#endif
  switchContext(&c.carrier, &c.fiber);
#ifdef TERN_FIBER_ASAN
  __sanitizer_finish_switch_fiber(c.carrierFakeStack, nullptr, nullptr);
#endif
  setCurrentFiber(nullptr);
  c.fiberEh = *eh;
  *eh = c.carrierEh;
  if (ended_) {
    body_ = nullptr;  // Here, on the carrier's stack: what it held may have deep destructors.
    return true;
  }
  return false;
}

void Fiber::suspend() {
  Context& c = *context_;
#ifdef TERN_FIBER_ASAN
  __sanitizer_start_switch_fiber(ended_ ? nullptr : &c.fiberFakeStack, c.carrierBottom,
                                 c.carrierSize);
#endif
#ifdef TERN_FIBER_TSAN
  __tsan_switch_to_fiber(c.tsanCarrier, 0);
#endif
  switchContext(&c.fiber, &c.carrier);
  // Possibly on another thread now.
#ifdef TERN_FIBER_ASAN
  __sanitizer_finish_switch_fiber(c.fiberFakeStack, &c.carrierBottom, &c.carrierSize);
#endif
}

uint64_t Fiber::prepareToPark() noexcept {
  ++ticket_;
  state_.store((ticket_ << 2) | kParking, std::memory_order_release);
  return ticket_;
}

void Fiber::park(std::optional<Clock::time_point> until) {
  if (until && *until <= Clock::now()) {
    state_.store((ticket_ << 2) | kRunning, std::memory_order_release);
    return;
  }
  if (until) timer_ = FiberReactor::instance().addTimer(*until, weak_from_this(), ticket_);
  if ((state_.load(std::memory_order_acquire) & 3) != kNotified) suspend();
  state_.store((ticket_ << 2) | kRunning, std::memory_order_release);
  if (timer_ != 0) {
    FiberReactor::instance().cancelTimer(timer_);
    timer_ = 0;
  }
}

void Fiber::unpark(uint64_t ticket) noexcept {
  uint64_t state = state_.load(std::memory_order_acquire);
  while ((state >> 2) == ticket) {
    const uint64_t phase = state & 3;
    if (phase == kParking) {
      // Not switched out yet: its carrier requeues it once it has (afterSwitchOut).
      if (state_.compare_exchange_weak(state, (ticket << 2) | kNotified,
                                       std::memory_order_acq_rel)) {
        return;
      }
    } else if (phase == kParked) {
      if (state_.compare_exchange_weak(state, (ticket << 2) | kRunning,
                                       std::memory_order_acq_rel)) {
        scheduler_->makeReady(shared_from_this());
        return;
      }
    } else {
      return;  // Already running, or already notified.
    }
  }
}

void Fiber::afterSwitchOut() {
  uint64_t state = state_.load(std::memory_order_acquire);
  while (true) {
    const uint64_t phase = state & 3;
    if (phase == kParking) {
      if (state_.compare_exchange_weak(state, (state & ~uint64_t{3}) | kParked,
                                       std::memory_order_acq_rel)) {
        return;
      }
    } else {
      // Notified while it switched out: it runs again.
      state_.store((state & ~uint64_t{3}) | kRunning, std::memory_order_release);
      scheduler_->makeReady(shared_from_this());
      return;
    }
  }
}

// FiberScheduler ---------------------------------------------------------------------------------

namespace {

// Whether thread `tid` of this process is running or waiting for a core (state R in
// /proc/self/task/<tid>/stat), rather than asleep. True when that cannot be read.
bool isRunnable(pid_t tid) {
  char path[64];
  std::snprintf(path, sizeof path, "/proc/self/task/%d/stat", static_cast<int>(tid));
  const int fd = ::open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0) return true;
  char stat[512];
  const ssize_t n = ::read(fd, stat, sizeof stat - 1);
  ::close(fd);
  if (n <= 0) return true;
  stat[n] = '\0';
  // "tid (name) S ...": the name may hold spaces and parentheses, the state follows the last ')'.
  const char* end = std::strrchr(stat, ')');
  return end == nullptr || end[1] == '\0' || end[2] == 'R';
}

}  // namespace

std::shared_ptr<FiberScheduler> FiberScheduler::create(Executor executor, int carriers) {
  FiberReactor::instance();  // Started with the first scheduler, not in the middle of a call.
  return std::shared_ptr<FiberScheduler>(new FiberScheduler(std::move(executor), carriers));
}

FiberScheduler::FiberScheduler(Executor executor, int carriers)
    : executor_(std::move(executor)), maxCarriers_(carriers < 1 ? 1 : carriers) {}

int FiberScheduler::carriers() const {
  std::lock_guard lock(mutex_);
  return carriers_;
}

void FiberScheduler::spawn(std::function<void()> body, std::function<void()> then) {
  std::shared_ptr<Fiber> fiber(new Fiber(shared_from_this(), std::move(body), std::move(then)));
  fiber->self_ = fiber;
  live_.fetch_add(1);
  bool post = false;
  bool here = false;
  {
    std::lock_guard lock(mutex_);
    ready_.push_back(fiber);
    if (thenOf == this && ready_.size() == 1) {
      here = true;  // This carrier drains the queue right after: the new fiber runs here, next.
    } else if (idle_ > 0) {
      here = true;  // A carrier waiting for work takes it.
      workReady_.notify_one();
    } else if (carriers_ < carrierLimitLocked()) {
      ++carriers_;
      post = true;
    }
  }
  if (post && !postCarrier()) {
    {
      std::lock_guard lock(mutex_);
      auto it = std::find(ready_.begin(), ready_.end(), fiber);
      // Another carrier took it meanwhile: it runs after all.
      if (it == ready_.end()) return;
      ready_.erase(it);
    }
    fiber->self_.reset();
    live_.fetch_sub(1);
    throw std::runtime_error("the executor refused a carrier");
  }
  if (!post && !here) FiberReactor::instance().watchStarvation(weak_from_this());
}

void FiberScheduler::makeReady(std::shared_ptr<Fiber> fiber) {
  bool post = false;
  {
    std::lock_guard lock(mutex_);
    ready_.push_back(std::move(fiber));
    if (idle_ > 0) {
      workReady_.notify_one();  // A carrier waiting for work takes it.
      return;
    }
    if (carriers_ < carrierLimitLocked()) {
      ++carriers_;
      post = true;
    }
  }
  // If no carrier could be posted, the reactor's starvation check tries again.
  if (!post || !postCarrier()) FiberReactor::instance().watchStarvation(weak_from_this());
}

int FiberScheduler::carrierLimitLocked() const {
  // Each carrier in a BlockingScope is made up for at once, up to maxCarriers_ of them: past
  // that, many fibers block at once (thousands of onResponse callbacks each reading a body that
  // is a moment late), and a thread for each would cost far more than the moment. But never
  // leave every carrier blocked while fibers are ready: one more may then always run.
  return std::max(maxCarriers_ + std::min(blocked_, maxCarriers_), blocked_ + 1);
}

bool FiberScheduler::postCarrier() noexcept {
  try {
    std::shared_ptr<FiberScheduler> self = shared_from_this();
    executor_([self] { self->drain(); });
    return true;
  } catch (...) {
    std::lock_guard lock(mutex_);
    --carriers_;
    return false;
  }
}

void FiberScheduler::blockingBegin() {
  bool post = false;
  {
    std::lock_guard lock(mutex_);
    ++blocked_;
    if (!ready_.empty() && carriers_ < carrierLimitLocked()) {
      ++carriers_;
      post = true;
    }
  }
  if (post && !postCarrier()) FiberReactor::instance().watchStarvation(weak_from_this());
}

void FiberScheduler::blockingEnd() noexcept {
  std::lock_guard lock(mutex_);
  --blocked_;
}

void FiberScheduler::drain() {
  // This carrier's thread, for the reactor to tell a carrier that runs from one that is stuck
  // (checkStarved).
  std::list<pid_t>::iterator carrier;
  {
    std::lock_guard lock(mutex_);
    carrier = carrierThreads_.insert(carrierThreads_.end(), static_cast<pid_t>(::gettid()));
  }
  while (true) {
    std::shared_ptr<Fiber> fiber;
    {
      std::unique_lock lock(mutex_);
      if (ready_.empty()) {
        // A moment's wait for more before the thread goes back to its pool: a carrier that left
        // and was asked for again at once would take a new thread (its own is not idle yet).
        ++idle_;
        workReady_.wait_for(lock, kCarrierLinger, [this] { return !ready_.empty(); });
        --idle_;
      }
      if (ready_.empty()) {
        --carriers_;
        carrierThreads_.erase(carrier);
        return;
      }
      fiber = std::move(ready_.front());
      ready_.pop_front();
      ++progress_;
    }
    if (fiber->resume()) {
      if (fiber->then_) {
        thenOf = this;
        try {
          fiber->then_();
        } catch (...) {
          // Its own business (the dispatcher's finish does not throw).
        }
        thenOf = nullptr;
        fiber->then_ = nullptr;
      }
      fiber->self_.reset();
      live_.fetch_sub(1);
    } else {
      fiber->afterSwitchOut();
    }
  }
}

bool FiberScheduler::checkStarved() {
  std::vector<pid_t> threads;
  {
    std::lock_guard lock(mutex_);
    if (ready_.empty()) {
      watched_ = false;
      stalledLooks_ = 0;
      return false;
    }
    threads.assign(carrierThreads_.begin(), carrierThreads_.end());
  }
  // Stuck: no fiber resumed since the last look, a check interval ago, and every carrier is
  // asleep (blocked in a wait that does not park). A carrier that runs, or waits for a core, is
  // working: in a long stretch of work (a TLS handshake), or on a loaded machine, where another
  // thread would not make it go faster. Read without the lock, which the carriers take.
  bool running = false;
  for (pid_t thread : threads) running = running || isRunnable(thread);
  bool post = false;
  {
    std::lock_guard lock(mutex_);
    if (ready_.empty()) {
      watched_ = false;
      stalledLooks_ = 0;
      return false;
    }
    // Twice in a row, so that carriers caught in a moment's sleep (a contended lock) are not
    // taken for stuck. The first look of a watch only notes where the queue stands.
    stalledLooks_ = watched_ && progress_ == progressSeen_ && !running ? stalledLooks_ + 1 : 0;
    const bool stuck = stalledLooks_ >= 2;
    if (carriers_ < carrierLimitLocked() || stuck) {
      ++carriers_;  // Beyond the limit if need be: the carriers it has are all stuck.
      post = true;
    }
    watched_ = true;
    progressSeen_ = progress_;
  }
  if (post) postCarrier();
  return true;
}

}  // namespace tern::internal
