// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#include "concurrent/fiber_reactor.h"

#include <poll.h>
#include <pthread.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <system_error>
#include <utility>

#include "concurrent/fiber.h"

namespace tern::internal {

namespace {

// How often a scheduler whose carriers are all busy is looked at for starvation.
constexpr std::chrono::milliseconds kStarvationCheck{5};

}  // namespace

FiberReactor& FiberReactor::instance() {
  // Destroyed at exit, after main() returns: its destructor stops and joins the thread.
  static FiberReactor reactor;
  return reactor;
}

FiberReactor::FiberReactor() {
  epoll_ = ::epoll_create1(EPOLL_CLOEXEC);
  if (epoll_ < 0) throw std::system_error(errno, std::generic_category(), "epoll_create1");
  wakeup_ = ::eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
  if (wakeup_ < 0) {
    const int error = errno;
    ::close(epoll_);
    throw std::system_error(error, std::generic_category(), "eventfd");
  }
  epoll_event event{};
  event.events = EPOLLIN;
  event.data.u64 = 0;  // Id 0 is the reactor's own wake-up.
  ::epoll_ctl(epoll_, EPOLL_CTL_ADD, wakeup_, &event);
  thread_ = std::thread([this] {
    ::pthread_setname_np(::pthread_self(), "tern Reactor");
    run();
  });
}

FiberReactor::~FiberReactor() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
    wakeLocked();
  }
  if (thread_.joinable()) thread_.join();
  ::close(wakeup_);
  ::close(epoll_);
}

void FiberReactor::wakeLocked() {
  const uint64_t one = 1;
  [[maybe_unused]] ssize_t written = ::write(wakeup_, &one, sizeof one);
}

uint64_t FiberReactor::addTimer(Clock::time_point when, std::weak_ptr<Fiber> fiber,
                                uint64_t ticket) {
  std::lock_guard lock(mutex_);
  const uint64_t id = nextId_++;
  auto at = timersByTime_.emplace(when, id);
  timers_.emplace(id, std::make_pair(at, Waiter{std::move(fiber), ticket}));
  if (at == timersByTime_.begin()) wakeLocked();
  return id;
}

void FiberReactor::cancelTimer(uint64_t id) {
  std::lock_guard lock(mutex_);
  auto it = timers_.find(id);
  if (it == timers_.end()) return;
  timersByTime_.erase(it->second.first);
  timers_.erase(it);
}

void FiberReactor::watchStarvation(std::weak_ptr<FiberScheduler> scheduler) {
  std::lock_guard lock(mutex_);
  for (const auto& watched : starving_) {
    if (!watched.owner_before(scheduler) && !scheduler.owner_before(watched)) return;
  }
  const bool first = starving_.empty();
  starving_.push_back(std::move(scheduler));
  if (first) wakeLocked();
}

bool FiberReactor::awaitFd(int fd, short events, int wakeupFd,
                           std::optional<Clock::time_point> until) {
  Fiber* fiber = Fiber::parkable();
  if (fiber == nullptr) return false;
  const uint64_t ticket = fiber->prepareToPark();
  uint64_t ids[2];
  {
    std::lock_guard lock(mutex_);
    ids[0] = nextId_++;
    ids[1] = nextId_++;
    fdWaiters_.emplace(ids[0], Waiter{fiber->weak_from_this(), ticket});
    fdWaiters_.emplace(ids[1], Waiter{fiber->weak_from_this(), ticket});
  }
  epoll_event event{};
  event.events = EPOLLONESHOT | (events == POLLIN ? EPOLLIN | EPOLLRDHUP : EPOLLOUT);
  event.data.u64 = ids[0];
  bool watched = ::epoll_ctl(epoll_, EPOLL_CTL_ADD, fd, &event) == 0;
  bool wakeupWatched = false;
  if (watched) {
    epoll_event cancel{};
    cancel.events = EPOLLONESHOT | EPOLLIN;
    cancel.data.u64 = ids[1];
    wakeupWatched = ::epoll_ctl(epoll_, EPOLL_CTL_ADD, wakeupFd, &cancel) == 0;
  }
  if (watched && wakeupWatched) fiber->park(until);
  // Unwatched before the waiters go: an event already taken from epoll finds no waiter.
  if (watched) ::epoll_ctl(epoll_, EPOLL_CTL_DEL, fd, nullptr);
  if (wakeupWatched) ::epoll_ctl(epoll_, EPOLL_CTL_DEL, wakeupFd, nullptr);
  {
    std::lock_guard lock(mutex_);
    fdWaiters_.erase(ids[0]);
    fdWaiters_.erase(ids[1]);
  }
  if (!(watched && wakeupWatched)) {
    // The descriptor is watched by another waiter already (EEXIST: a reader and a writer of one
    // socket): unpark ourselves so the ticket is spent, and let the caller poll.
    fiber->unpark(ticket);
    fiber->park(std::nullopt);
    return false;
  }
  return true;
}

void FiberReactor::run() {
  std::vector<epoll_event> events(256);
  while (true) {
    int timeoutMillis = -1;
    {
      std::lock_guard lock(mutex_);
      if (stopping_) return;
      if (!timersByTime_.empty()) {
        const auto now = Clock::now();
        const auto next = timersByTime_.begin()->first;
        timeoutMillis =
            next <= now
                ? 0
                : static_cast<int>(std::min<int64_t>(
                      std::chrono::ceil<std::chrono::milliseconds>(next - now).count(), 60'000));
      }
      if (!starving_.empty()) {
        const int check = static_cast<int>(kStarvationCheck.count());
        timeoutMillis = timeoutMillis < 0 ? check : std::min(timeoutMillis, check);
      }
    }
    const int count =
        ::epoll_wait(epoll_, events.data(), static_cast<int>(events.size()), timeoutMillis);
    std::vector<std::pair<std::shared_ptr<Fiber>, uint64_t>> wake;
    std::vector<std::shared_ptr<FiberScheduler>> starving;
    {
      std::lock_guard lock(mutex_);
      for (int i = 0; i < count; ++i) {
        const uint64_t id = events[static_cast<size_t>(i)].data.u64;
        if (id == 0) {
          uint64_t drained;
          [[maybe_unused]] ssize_t n = ::read(wakeup_, &drained, sizeof drained);
          continue;
        }
        auto it = fdWaiters_.find(id);
        if (it == fdWaiters_.end()) continue;
        if (auto fiber = it->second.fiber.lock()) wake.emplace_back(fiber, it->second.ticket);
      }
      const auto now = Clock::now();
      while (!timersByTime_.empty() && timersByTime_.begin()->first <= now) {
        const uint64_t id = timersByTime_.begin()->second;
        timersByTime_.erase(timersByTime_.begin());
        auto it = timers_.find(id);
        if (it == timers_.end()) continue;
        if (auto fiber = it->second.second.fiber.lock()) {
          wake.emplace_back(fiber, it->second.second.ticket);
        }
        timers_.erase(it);
      }
      for (const auto& watched : starving_) {
        if (auto scheduler = watched.lock()) starving.push_back(std::move(scheduler));
      }
      starving_.clear();
    }
    for (auto& [fiber, ticket] : wake) fiber->unpark(ticket);
    std::vector<std::shared_ptr<FiberScheduler>> still;
    for (auto& scheduler : starving) {
      if (scheduler->checkStarved()) still.push_back(scheduler);
    }
    if (!still.empty()) {
      std::lock_guard lock(mutex_);
      for (auto& scheduler : still) starving_.push_back(scheduler);
    }
  }
}

}  // namespace tern::internal
