// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
// Regression tests, added by the engine branch: a task that is running and waiting in its queue
// at once (rescheduled while it runs, as the connection pool's cleanup task is) must survive
// cancelAll(), shutdown() and the queue's destruction. Before the fix, those forgot which queue
// the running task belonged to, so the queue stayed busy forever and its destructor hung.
#include <gtest/gtest.h>

#include <chrono>
#include <memory>

#include "concurrent/task_queue.h"
#include "concurrent/task_runner.h"
#include "support/task_faker.h"

namespace tern::internal {
namespace {

using namespace std::chrono_literals;
using tern::testing::TaskFaker;

TEST(TaskQueueRescheduleTest, CancelAllWhileARescheduledTaskRunsLeavesTheQueueIdle) {
  TaskFaker faker;
  std::unique_ptr<TaskQueue> queue = faker.taskRunner()->newQueue("cleanup");
  std::shared_ptr<Task> task;
  int runs = 0;
  task = Task::of("task", true, [&] {
    ++runs;
    queue->schedule(task, 10ms);  // Waiting and running at once...
    queue->cancelAll();           // ...then canceled.
    return Task::kNoRepeat;
  });
  queue->schedule(task);
  faker.runTasks();
  EXPECT_EQ(runs, 1);
  EXPECT_EQ(queue->activeTask(), nullptr);
  EXPECT_TRUE(queue->scheduledTasks().empty());
  queue->schedule(task);  // The task can be scheduled again, and runs.
  faker.runTasks();
  EXPECT_EQ(runs, 2);
  queue.reset();  // Hung before the fix.
}

TEST(TaskQueueRescheduleTest, DestroyingTheQueueFromARescheduledTaskDoesNotHang) {
  TaskFaker faker;
  std::unique_ptr<TaskQueue> queue = faker.taskRunner()->newQueue("self");
  std::shared_ptr<Task> task;
  task = Task::of("task", true, [&] {
    queue->schedule(task, 10ms);
    queue.reset();  // The task destroys its own queue while also waiting in it.
    return Task::kNoRepeat;
  });
  queue->schedule(task);
  faker.runTasks();
  EXPECT_EQ(queue, nullptr);
}

TEST(TaskQueueRescheduleTest, ShutdownWhileARescheduledTaskRunsLeavesTheQueueIdle) {
  TaskFaker faker;
  std::unique_ptr<TaskQueue> queue = faker.taskRunner()->newQueue("cleanup");
  std::shared_ptr<Task> task;
  task = Task::of("task", true, [&] {
    queue->schedule(task, 10ms);
    queue->shutdown();
    return Task::kNoRepeat;
  });
  queue->schedule(task);
  faker.runTasks();
  EXPECT_EQ(queue->activeTask(), nullptr);
  queue.reset();
}

}  // namespace
}  // namespace tern::internal
