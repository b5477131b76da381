// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#include "concurrent/task_runner.h"

#include <openssl/crypto.h>

#include <algorithm>
#include <cstdio>
#include <exception>
#include <stdexcept>
#include <thread>

#include "concurrent/thread_pool_executor.h"

namespace tern::internal {
namespace {

// Longer waits are cut to this, so a far-off task cannot overflow the clock arithmetic; the
// coordinator simply looks again.
constexpr std::chrono::hours kMaxCoordinatorWait{24};

template <typename T>
void removeFrom(std::vector<T*>& list, T* item) {
  list.erase(std::remove(list.begin(), list.end(), item), list.end());
}

template <typename T>
void addIfAbsent(std::vector<T*>& list, T* item) {
  if (std::find(list.begin(), list.end(), item) == list.end()) {
    list.push_back(item);
  }
}

}  // namespace

// RealBackend ------------------------------------------------------------------------------------

TaskRunner::RealBackend::RealBackend(std::chrono::nanoseconds keepAlive)
    : executor_(std::make_unique<ThreadPoolExecutor>("tern TaskRunner", keepAlive)) {}

TaskRunner::RealBackend::~RealBackend() = default;

std::chrono::nanoseconds TaskRunner::RealBackend::nanoTime() {
  return std::chrono::steady_clock::now().time_since_epoch();
}

void TaskRunner::RealBackend::coordinatorNotify(TaskRunner&) { coordinator_.notify_one(); }

bool TaskRunner::RealBackend::coordinatorWait(TaskRunner&, std::unique_lock<std::mutex>& lock,
                                              std::chrono::nanoseconds nanos) {
  coordinator_.wait_for(lock, std::min<std::chrono::nanoseconds>(nanos, kMaxCoordinatorWait));
  return true;
}

void TaskRunner::RealBackend::execute(TaskRunner&, std::function<void()> runnable) {
  executor_->execute(std::move(runnable));
}

void TaskRunner::RealBackend::shutdown() {
  executor_->shutdown();
  executor_->awaitTermination(std::chrono::hours(24 * 365));
}

size_t TaskRunner::RealBackend::threadCount() const { return executor_->threadCount(); }

// TaskRunner -------------------------------------------------------------------------------------

std::shared_ptr<TaskRunner> TaskRunner::create(std::shared_ptr<Backend> backend) {
  if (!backend) {
    throw std::invalid_argument("TaskRunner::create: null backend");
  }
  return std::make_shared<TaskRunner>(PassKey{}, std::move(backend));
}

const std::shared_ptr<TaskRunner>& TaskRunner::instance() {
  // OpenSSL first: its exit-time cleanup is registered before the runner's, so it runs after the
  // runner's threads are joined (cleanups run in reverse), while it can still free the
  // per-thread state those threads made (TLS on pooled connections, a WebSocket's random mask
  // keys, hashes). Otherwise every program whose first use of OpenSSL came after the runner
  // started would leak that state at exit.
  static const bool openSslFirst = OPENSSL_init_crypto(0, nullptr) == 1;
  (void)openSslFirst;
  static const std::shared_ptr<RealBackend> backend = std::make_shared<RealBackend>();
  static const std::shared_ptr<TaskRunner> runner = create(backend);
  // Destroyed before `runner` (static locals die in reverse order of construction): no task
  // may run while the program's other static objects are destroyed, and no pool thread may
  // outlive main() holding the runner.
  static const struct ShutdownAtExit {
    ~ShutdownAtExit() {
      runner->shutdown();
      backend->shutdown();
    }
  } guard;
  return runner;
}

TaskRunner::TaskRunner(PassKey, std::shared_ptr<Backend> backend) : backend_(std::move(backend)) {}

TaskRunner::~TaskRunner() = default;  // Every queue holds the runner, so none is left.

std::unique_ptr<TaskQueue> TaskRunner::newQueue(std::string name) {
  std::lock_guard<std::mutex> lock(lock_);
  if (name.empty()) {
    name = "Q" + std::to_string(nextQueueName_++);
  }
  auto queue = std::make_unique<TaskQueue>(TaskQueue::PassKey{}, shared_from_this(), name);
  if (shutdown_) {
    queue->shutdown_ = true;
  }
  allQueues_.push_back(queue.get());
  return queue;
}

std::vector<TaskQueue*> TaskRunner::activeQueues() const {
  std::lock_guard<std::mutex> lock(lock_);
  std::vector<TaskQueue*> result = busyQueues_;
  result.insert(result.end(), readyQueues_.begin(), readyQueues_.end());
  return result;
}

void TaskRunner::cancelAll() {
  std::lock_guard<std::mutex> lock(lock_);
  for (TaskQueue* queue : allQueues_) {
    if (queue->cancelAllAndDecide()) {
      kickCoordinatorLocked(queue);
    }
  }
}

void TaskRunner::shutdown() {
  std::unique_lock<std::mutex> lock(lock_);
  shutdown_ = true;
  for (TaskQueue* queue : allQueues_) {
    for (const std::shared_ptr<Task>& task : queue->futureTasks_) {
      // A running task rescheduled meanwhile keeps its queue until afterRun() has seen it.
      if (task != queue->activeTask_) task->queue_ = nullptr;
    }
    queue->futureTasks_.clear();
    queue->shutdown_ = true;
    queue->cancelActiveTask_ = true;
  }
  readyQueues_.clear();
  if (coordinatorWaiting_) {
    backend_->coordinatorNotify(*this);
  }
  const std::thread::id self = std::this_thread::get_id();
  taskFinished_.wait(lock, [&] {
    return std::all_of(busyQueues_.begin(), busyQueues_.end(),
                       [&](TaskQueue* queue) { return queue->activeThread_ == self; });
  });
}

bool TaskRunner::isShutdown() const {
  std::lock_guard<std::mutex> lock(lock_);
  return shutdown_;
}

void TaskRunner::kickCoordinator() {
  std::lock_guard<std::mutex> lock(lock_);
  kickCoordinatorLocked(nullptr);
}

void TaskRunner::kickCoordinatorLocked(TaskQueue* queue) {
  if (queue != nullptr && !queue->activeTask_) {
    if (queue->futureTasks_.empty()) {
      removeFrom(readyQueues_, queue);
    } else {
      addIfAbsent(readyQueues_, queue);
    }
  }
  if (coordinatorWaiting_) {
    backend_->coordinatorNotify(*this);
  } else {
    startAnotherThread();
  }
}

void TaskRunner::startAnotherThread() {
  // One requested thread that has not started yet will look at every queue when it does.
  if (shutdown_ || pendingWorkers_ > 0 || readyQueues_.empty()) {
    return;
  }
  ++pendingWorkers_;
  try {
    backend_->execute(*this, [weak = weak_from_this()] {
      // A runner that is gone has no work left; nor any owner to report to.
      if (std::shared_ptr<TaskRunner> runner = weak.lock()) {
        runner->runWorker();
      }
    });
  } catch (const std::exception& e) {
    // No thread now (EAGAIN); the next schedule() or finished task tries again.
    --pendingWorkers_;
    std::fprintf(stderr, "tern: TaskRunner cannot start a thread: %s\n", e.what());
  }
}

void TaskRunner::runWorker() {
  std::unique_lock<std::mutex> lock(lock_);
  if (pendingWorkers_ > 0) {
    --pendingWorkers_;
  }
  while (std::shared_ptr<Task> task = awaitTaskToRun(lock)) {
    lock.unlock();
    std::chrono::nanoseconds delay = Task::kNoRepeat;
    try {
      delay = task->runOnce();
    } catch (const std::exception& e) {
      // A task reports its own failures; this is the last resort, as a thread's uncaught
      // exception handler is in Java. It does not repeat.
      std::fprintf(stderr, "tern: task \"%s\" threw: %s\n", task->name().c_str(), e.what());
    } catch (...) {
      std::fprintf(stderr, "tern: task \"%s\" threw\n", task->name().c_str());
    }
    // Whatever OpenSSL keeps per thread (the error queue a TLS read or write makes) goes now:
    // a runner thread may idle for a minute, or still be parked when the program's leak checks
    // run. OpenSSL makes it again when the thread next needs it; without any, this is cheap.
    OPENSSL_thread_stop();
    lock.lock();
    afterRun(task, delay);
  }
}

std::shared_ptr<Task> TaskRunner::awaitTaskToRun(std::unique_lock<std::mutex>& lock) {
  while (true) {
    if (readyQueues_.empty()) {
      return nullptr;  // Nothing to do: this thread goes back.
    }

    const std::chrono::nanoseconds now = backend_->nanoTime();
    std::chrono::nanoseconds minDelay = std::chrono::nanoseconds::max();
    std::shared_ptr<Task> readyTask;
    bool multipleReadyTasks = false;
    for (TaskQueue* queue : readyQueues_) {
      const std::shared_ptr<Task>& candidate = queue->futureTasks_.front();
      const auto delay =
          std::max(std::chrono::nanoseconds(0), candidate->nextExecuteNanoTime_ - now);
      if (delay.count() > 0) {
        minDelay = std::min(minDelay, delay);
      } else if (readyTask) {
        multipleReadyTasks = true;
        break;
      } else {
        readyTask = candidate;
      }
    }

    if (readyTask) {
      beforeRun(readyTask);
      // Another thread for the other due tasks, unless the coordinator is free to find them.
      if (multipleReadyTasks || (!coordinatorWaiting_ && !readyQueues_.empty())) {
        startAnotherThread();
      }
      return readyTask;
    }

    if (coordinatorWaiting_) {
      // Another thread coordinates; wake it if it sleeps past our earliest task.
      if (minDelay < coordinatorWakeUpAt_ - now) {
        backend_->coordinatorNotify(*this);
      }
      return nullptr;
    }

    // This thread coordinates: sleep until the first task is due (or someone kicks us).
    coordinatorWaiting_ = true;
    coordinatorWakeUpAt_ = now + std::min<std::chrono::nanoseconds>(minDelay, kMaxCoordinatorWait);
    const bool keepCoordinating = backend_->coordinatorWait(*this, lock, minDelay);
    coordinatorWaiting_ = false;
    if (!keepCoordinating) {
      return nullptr;
    }
  }
}

void TaskRunner::beforeRun(const std::shared_ptr<Task>& task) {
  TaskQueue* queue = task->queue_;
  queue->futureTasks_.erase(queue->futureTasks_.begin());
  removeFrom(readyQueues_, queue);
  queue->activeTask_ = task;
  queue->activeThread_ = std::this_thread::get_id();
  busyQueues_.push_back(queue);
}

void TaskRunner::afterRun(const std::shared_ptr<Task>& task, std::chrono::nanoseconds delay) {
  TaskQueue* queue = task->queue_;
  if (queue == nullptr) {
    // The queue was destroyed by this very task (see ~TaskQueue); it is already unlisted.
    taskFinished_.notify_all();
    return;
  }
  const bool cancelActiveTask = queue->cancelActiveTask_;
  queue->cancelActiveTask_ = false;
  queue->activeTask_ = nullptr;
  queue->activeThread_ = std::thread::id();
  removeFrom(busyQueues_, queue);

  const bool rescheduled = std::find(queue->futureTasks_.begin(), queue->futureTasks_.end(),
                                     task) != queue->futureTasks_.end();
  if (delay != Task::kNoRepeat && delay.count() >= 0 && !cancelActiveTask && !queue->shutdown_) {
    queue->scheduleAndDecide(task, backend_->nanoTime() + delay);
  } else if (!rescheduled) {
    task->queue_ = nullptr;
  }
  if (!queue->futureTasks_.empty()) {
    addIfAbsent(readyQueues_, queue);
  }
  taskFinished_.notify_all();
}

void TaskRunner::removeQueue(TaskQueue* queue) {
  removeFrom(readyQueues_, queue);
  removeFrom(busyQueues_, queue);
  removeFrom(allQueues_, queue);
}

}  // namespace tern::internal
