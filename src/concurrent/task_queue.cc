// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#include "concurrent/task_queue.h"

#include <algorithm>
#include <stdexcept>

#include "concurrent/task_runner.h"

namespace tern::internal {

TaskQueue::TaskQueue(PassKey, std::shared_ptr<TaskRunner> runner, std::string name)
    : runner_(std::move(runner)), name_(std::move(name)) {}

TaskQueue::~TaskQueue() {
  std::unique_lock<std::mutex> lock(runner_->lock_);
  for (const std::shared_ptr<Task>& task : futureTasks_) {
    task->queue_ = nullptr;
  }
  futureTasks_.clear();
  shutdown_ = true;
  cancelActiveTask_ = true;
  const std::thread::id self = std::this_thread::get_id();
  // The running task may reference whoever owns this queue, which is being destroyed: wait for
  // it. Unless it is this very thread (the task destroys its own queue), which cannot wait.
  runner_->taskFinished_.wait(lock, [&] { return !activeTask_ || activeThread_ == self; });
  if (activeTask_) {
    activeTask_->queue_ = nullptr;  // afterRun() then knows the queue is gone.
  }
  runner_->removeQueue(this);
}

void TaskQueue::schedule(const std::shared_ptr<Task>& task, std::chrono::nanoseconds delay) {
  if (!task) {
    throw std::invalid_argument("TaskQueue::schedule: null task in queue " + name_);
  }
  if (delay.count() < 0) {
    throw std::invalid_argument("TaskQueue::schedule: delay < 0 for task \"" + task->name() +
                                "\": " + std::to_string(delay.count()) + "ns");
  }
  std::lock_guard<std::mutex> lock(runner_->lock_);
  if (task->queue_ != nullptr && task->queue_ != this) {
    throw std::logic_error("Task \"" + task->name() + "\" is already in queue " +
                           task->queue_->name() + ", cannot schedule it in " + name_);
  }
  if (shutdown_) {
    if (task->cancelable()) {
      return;  // As OkHttp: dropped quietly, like any canceled task.
    }
    throw std::logic_error("TaskQueue " + name_ + " is shut down; cannot run \"" + task->name() +
                           "\"");
  }
  if (scheduleAndDecide(task, runner_->nanoTime() + delay)) {
    runner_->kickCoordinatorLocked(this);
  }
}

void TaskQueue::schedule(std::string name, std::chrono::nanoseconds delay,
                         std::function<std::chrono::nanoseconds()> block) {
  schedule(Task::of(std::move(name), true, std::move(block)), delay);
}

void TaskQueue::execute(std::string name, std::chrono::nanoseconds delay, bool cancelable,
                        std::function<void()> block) {
  if (!block) {
    throw std::invalid_argument("TaskQueue::execute: empty block for \"" + name + "\"");
  }
  schedule(Task::of(std::move(name), cancelable,
                    [block = std::move(block)] {
                      block();
                      return Task::kNoRepeat;
                    }),
           delay);
}

bool TaskQueue::scheduleAndDecide(const std::shared_ptr<Task>& task,
                                  std::chrono::nanoseconds executeNanoTime) {
  task->queue_ = this;
  auto existing = std::find(futureTasks_.begin(), futureTasks_.end(), task);
  if (existing != futureTasks_.end()) {
    if (task->nextExecuteNanoTime_ <= executeNanoTime) {
      return false;  // Already sooner.
    }
    futureTasks_.erase(existing);
  }
  task->nextExecuteNanoTime_ = executeNanoTime;
  // After tasks due at the same time, so equal times run in the order they were scheduled.
  auto insertAt = std::find_if(futureTasks_.begin(), futureTasks_.end(), [&](const auto& other) {
    return other->nextExecuteNanoTime_ > executeNanoTime;
  });
  const bool first = insertAt == futureTasks_.begin();
  futureTasks_.insert(insertAt, task);
  return first;
}

bool TaskQueue::cancelAllAndDecide() {
  if (activeTask_ && activeTask_->cancelable()) {
    cancelActiveTask_ = true;
  }
  bool canceled = false;
  for (auto it = futureTasks_.begin(); it != futureTasks_.end();) {
    if ((*it)->cancelable()) {
      (*it)->queue_ = nullptr;
      it = futureTasks_.erase(it);
      canceled = true;
    } else {
      ++it;
    }
  }
  return canceled;
}

void TaskQueue::cancelAll() {
  std::lock_guard<std::mutex> lock(runner_->lock_);
  if (cancelAllAndDecide()) {
    runner_->kickCoordinatorLocked(this);
  }
}

void TaskQueue::shutdown() {
  std::lock_guard<std::mutex> lock(runner_->lock_);
  shutdown_ = true;
  if (cancelAllAndDecide()) {
    runner_->kickCoordinatorLocked(this);
  }
}

bool TaskQueue::isShutdown() const {
  std::lock_guard<std::mutex> lock(runner_->lock_);
  return shutdown_;
}

std::vector<std::shared_ptr<Task>> TaskQueue::scheduledTasks() const {
  std::lock_guard<std::mutex> lock(runner_->lock_);
  return futureTasks_;
}

std::shared_ptr<Task> TaskQueue::activeTask() const {
  std::lock_guard<std::mutex> lock(runner_->lock_);
  return activeTask_;
}

std::shared_future<void> TaskQueue::idleLatch() {
  auto promise = std::make_shared<std::promise<void>>();
  std::shared_future<void> future = promise->get_future().share();
  std::lock_guard<std::mutex> lock(runner_->lock_);
  // Idle already, or never to run anything again.
  if ((!activeTask_ && futureTasks_.empty()) || runner_->shutdown_) {
    promise->set_value();
    return future;
  }
  auto task = Task::of(name_ + " awaitIdle", false, [promise] {
    promise->set_value();
    return Task::kNoRepeat;
  });
  // Not through schedule(): a shut-down queue still runs its non-cancelable tasks, and the latch
  // must wait behind them (OkHttp does the same).
  if (scheduleAndDecide(task, runner_->nanoTime())) {
    runner_->kickCoordinatorLocked(this);
  }
  return future;
}

}  // namespace tern::internal
