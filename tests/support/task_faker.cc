// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#include "support/task_faker.h"

#include <stdexcept>
#include <string>

namespace tern::testing {

// Never blocks and never starts a thread: execute() keeps the runnable for runTasks(), and a
// coordinator that would sleep records when it wanted to wake and returns instead.
class TaskFaker::FakeBackend final : public internal::TaskRunner::Backend {
 public:
  std::chrono::nanoseconds nanoTime() override {
    std::lock_guard<std::mutex> lock(lock_);
    return now_;
  }

  void coordinatorNotify(internal::TaskRunner&) override {}

  bool coordinatorWait(internal::TaskRunner&, std::unique_lock<std::mutex>&,
                       std::chrono::nanoseconds nanos) override {
    std::lock_guard<std::mutex> lock(lock_);
    ++coordinatorWaitCount_;
    const std::chrono::nanoseconds wakeAt = now_ + nanos;
    if (!wakeAt_ || wakeAt < *wakeAt_) {
      wakeAt_ = wakeAt;
    }
    return false;
  }

  void execute(internal::TaskRunner&, std::function<void()> runnable) override {
    std::lock_guard<std::mutex> lock(lock_);
    runnables_.push_back(std::move(runnable));
  }

  // Runs queued runnables (each runs every due task, then returns) until none is left.
  void runRunnables() {
    while (true) {
      std::function<void()> runnable;
      {
        std::lock_guard<std::mutex> lock(lock_);
        if (runnables_.empty()) {
          return;
        }
        runnable = std::move(runnables_.front());
        runnables_.pop_front();
      }
      runnable();
    }
  }

  // Takes the earliest wake-up time a coordinator asked for, if it is at or before `limit`.
  std::optional<std::chrono::nanoseconds> takeWakeUpBefore(std::chrono::nanoseconds limit) {
    std::lock_guard<std::mutex> lock(lock_);
    if (!wakeAt_ || *wakeAt_ > limit) {
      return std::nullopt;
    }
    std::optional<std::chrono::nanoseconds> result = wakeAt_;
    wakeAt_.reset();
    return result;
  }

  void setTime(std::chrono::nanoseconds time) {
    std::lock_guard<std::mutex> lock(lock_);
    now_ = time;
    // A wake-up in the past has happened; the coordinator that asked will be asked again.
    if (wakeAt_ && *wakeAt_ <= now_) {
      wakeAt_.reset();
    }
  }

  int coordinatorWaitCount() const {
    std::lock_guard<std::mutex> lock(lock_);
    return coordinatorWaitCount_;
  }

 private:
  mutable std::mutex lock_;
  std::chrono::nanoseconds now_{0};
  std::optional<std::chrono::nanoseconds> wakeAt_;
  std::deque<std::function<void()>> runnables_;
  int coordinatorWaitCount_ = 0;
};

TaskFaker::TaskFaker()
    : backend_(std::make_shared<FakeBackend>()), runner_(internal::TaskRunner::create(backend_)) {}

TaskFaker::~TaskFaker() = default;

std::chrono::nanoseconds TaskFaker::nanoTime() const { return backend_->nanoTime(); }

void TaskFaker::runTasks() {
  // A coordinator that gave up must look again (now may be later than when it did).
  runner_->kickCoordinator();
  backend_->runRunnables();
}

void TaskFaker::advanceUntil(std::chrono::nanoseconds time) {
  if (time < nanoTime()) {
    throw std::invalid_argument("TaskFaker::advanceUntil: " + std::to_string(time.count()) +
                                "ns is before now, " + std::to_string(nanoTime().count()) + "ns");
  }
  runTasks();
  while (std::optional<std::chrono::nanoseconds> wakeAt = backend_->takeWakeUpBefore(time)) {
    backend_->setTime(*wakeAt);
    runTasks();
  }
  backend_->setTime(time);
  runTasks();
}

void TaskFaker::advanceBy(std::chrono::nanoseconds duration) {
  advanceUntil(nanoTime() + duration);
}

int TaskFaker::coordinatorWaitCount() const { return backend_->coordinatorWaitCount(); }

}  // namespace tern::testing
