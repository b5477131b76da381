// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#include "concurrent/condition.h"

#include <utility>
#include <vector>

#include "concurrent/fiber.h"

namespace tern::internal {

void Condition::notify_one() noexcept {
  threads_.notify_one();
  // A thread and a fiber may both wake: a spurious wake-up for one of them, which callers allow.
  if (fiberWaiters_.load(std::memory_order_acquire) > 0) wakeFibers(false);
}

void Condition::notify_all() noexcept {
  threads_.notify_all();
  if (fiberWaiters_.load(std::memory_order_acquire) > 0) wakeFibers(true);
}

void Condition::wakeFibers(bool all) noexcept {
  // Woken outside the lock; each holds its fiber, which may end as soon as it is unlinked.
  std::shared_ptr<Fiber> one;
  uint64_t oneTicket = 0;
  std::vector<std::pair<std::shared_ptr<Fiber>, uint64_t>> many;
  {
    std::lock_guard lock(waitersMutex_);
    while (head_ != nullptr) {
      Waiter& waiter = *head_;
      unlinkLocked(waiter);
      if (!all) {
        one = waiter.fiber->shared_from_this();
        oneTicket = waiter.ticket;
        break;
      }
      many.emplace_back(waiter.fiber->shared_from_this(), waiter.ticket);
    }
  }
  if (one) one->unpark(oneTicket);
  for (auto& [fiber, ticket] : many) fiber->unpark(ticket);
}

void Condition::unlinkLocked(Waiter& waiter) noexcept {
  if (!waiter.linked) return;
  if (waiter.previous != nullptr) {
    waiter.previous->next = waiter.next;
  } else {
    head_ = waiter.next;
  }
  if (waiter.next != nullptr) {
    waiter.next->previous = waiter.previous;
  } else {
    tail_ = waiter.previous;
  }
  waiter.linked = false;
  fiberWaiters_.fetch_sub(1, std::memory_order_release);
}

std::cv_status Condition::parkUntil(Fiber& fiber, std::unique_lock<std::mutex>& lock,
                                    const Clock::time_point* until) {
  Waiter waiter{&fiber, fiber.prepareToPark()};
  {
    std::lock_guard waiters(waitersMutex_);
    waiter.previous = tail_;
    if (tail_ != nullptr) {
      tail_->next = &waiter;
    } else {
      head_ = &waiter;
    }
    tail_ = &waiter;
    waiter.linked = true;
    fiberWaiters_.fetch_add(1, std::memory_order_release);
  }
  lock.unlock();
  fiber.park(until != nullptr ? std::optional<Clock::time_point>(*until) : std::nullopt);
  {
    std::lock_guard waiters(waitersMutex_);
    unlinkLocked(waiter);
  }
  lock.lock();
  return until != nullptr && Clock::now() >= *until ? std::cv_status::timeout
                                                    : std::cv_status::no_timeout;
}

void Condition::wait(std::unique_lock<std::mutex>& lock) {
  if (Fiber* fiber = Fiber::parkable()) {
    parkUntil(*fiber, lock, nullptr);
    return;
  }
  BlockingScope blocking;
  threads_.wait(lock);
}

std::cv_status Condition::wait_until(std::unique_lock<std::mutex>& lock, Clock::time_point until) {
  if (Fiber* fiber = Fiber::parkable()) return parkUntil(*fiber, lock, &until);
  BlockingScope blocking;
  return threads_.wait_until(lock, until);
}

}  // namespace tern::internal
