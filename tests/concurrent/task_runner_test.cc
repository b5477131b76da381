// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
// TaskRunner on a fake clock (OkHttp's TaskRunnerTest in spirit): tasks run on this thread, at
// exactly their scheduled time, without sleeping.
#include "concurrent/task_runner.h"

#include <gtest/gtest.h>

#include <chrono>
#include <future>
#include <stdexcept>
#include <string>
#include <vector>

#include "support/task_faker.h"

namespace tern::internal {
namespace {

using namespace std::chrono_literals;
using tern::testing::TaskFaker;

class TaskRunnerTest : public ::testing::Test {
 protected:
  // Logs "<what>@<nanoTime in ms>" so tests see both order and time.
  void log(const std::string& what) {
    log_.push_back(
        what + "@" +
        std::to_string(
            std::chrono::duration_cast<std::chrono::milliseconds>(faker_.nanoTime()).count()));
  }

  std::function<void()> logs(const std::string& what) {
    return [this, what] { log(what); };
  }

  TaskFaker faker_;
  std::unique_ptr<TaskQueue> red_ = faker_.taskRunner()->newQueue("red");
  std::unique_ptr<TaskQueue> blue_ = faker_.taskRunner()->newQueue("blue");
  std::vector<std::string> log_;
};

using Log = std::vector<std::string>;

TEST_F(TaskRunnerTest, ExecutesATaskWithoutDelayWhenTasksRun) {
  red_->execute("task", 0ns, true, logs("run"));
  EXPECT_EQ(Log{}, log_);  // Nothing runs until the faker runs tasks.
  faker_.runTasks();
  EXPECT_EQ(Log{"run@0"}, log_);
  EXPECT_EQ(nullptr, red_->activeTask());
  EXPECT_TRUE(red_->scheduledTasks().empty());
}

TEST_F(TaskRunnerTest, DelayedTaskRunsAtItsTimeNotBefore) {
  red_->execute("task", 100ms, true, logs("run"));
  faker_.advanceUntil(99ms);
  EXPECT_EQ(Log{}, log_);
  faker_.advanceUntil(100ms);
  EXPECT_EQ(Log{"run@100"}, log_);
  faker_.advanceUntil(1s);
  EXPECT_EQ(Log{"run@100"}, log_);
}

TEST_F(TaskRunnerTest, RepeatingTaskRunsAgainAfterTheDelayItReturns) {
  int runs = 0;
  red_->schedule("repeat", 100ms, [&] {
    log("run");
    return ++runs < 3 ? std::chrono::nanoseconds(50ms) : Task::kNoRepeat;
  });
  faker_.advanceUntil(1s);
  EXPECT_EQ((Log{"run@100", "run@150", "run@200"}), log_);
}

TEST_F(TaskRunnerTest, TasksRunInTimeOrderAcrossQueuesAndFifoAtEqualTimes) {
  red_->execute("a", 300ms, true, logs("red 300"));
  blue_->execute("b", 100ms, true, logs("blue 100"));
  red_->execute("c", 200ms, true, logs("red 200 first"));
  red_->execute("d", 200ms, true, logs("red 200 second"));
  faker_.advanceUntil(1s);
  EXPECT_EQ((Log{"blue 100@100", "red 200 first@200", "red 200 second@200", "red 300@300"}), log_);
}

TEST_F(TaskRunnerTest, SchedulingAWaitingTaskEarlierMovesIt) {
  auto task = Task::of("task", true, [&] {
    log("run");
    return Task::kNoRepeat;
  });
  red_->schedule(task, 200ms);
  red_->schedule(task, 100ms);
  ASSERT_EQ(1u, red_->scheduledTasks().size());
  faker_.advanceUntil(1s);
  EXPECT_EQ(Log{"run@100"}, log_);
}

TEST_F(TaskRunnerTest, SchedulingAWaitingTaskLaterKeepsTheEarlierTime) {
  auto task = Task::of("task", true, [&] {
    log("run");
    return Task::kNoRepeat;
  });
  red_->schedule(task, 100ms);
  red_->schedule(task, 200ms);
  faker_.advanceUntil(1s);
  EXPECT_EQ(Log{"run@100"}, log_);
}

TEST_F(TaskRunnerTest, CancelAllDropsCancelableTasksOnly) {
  red_->execute("cancelable", 100ms, true, logs("cancelable"));
  red_->execute("must run", 100ms, false, logs("not cancelable"));
  red_->cancelAll();
  ASSERT_EQ(1u, red_->scheduledTasks().size());
  EXPECT_EQ("must run", red_->scheduledTasks()[0]->name());
  faker_.advanceUntil(1s);
  EXPECT_EQ(Log{"not cancelable@100"}, log_);
}

TEST_F(TaskRunnerTest, CancelAllWhileRunningStopsTheTaskRepeating) {
  int runs = 0;
  red_->schedule("repeat", 100ms, [&] {
    log("run");
    if (++runs == 2) {
      red_->cancelAll();
    }
    return std::chrono::nanoseconds(100ms);
  });
  faker_.advanceUntil(1s);
  EXPECT_EQ((Log{"run@100", "run@200"}), log_);
}

TEST_F(TaskRunnerTest, ShutdownDropsCancelableAndRefusesNonCancelable) {
  red_->execute("before", 100ms, false, logs("scheduled before shutdown"));
  red_->shutdown();
  EXPECT_TRUE(red_->isShutdown());
  red_->execute("cancelable", 0ns, true, logs("dropped"));
  try {
    red_->execute("important", 0ns, false, logs("refused"));
    FAIL() << "expected logic_error";
  } catch (const std::logic_error& e) {
    EXPECT_EQ("TaskQueue red is shut down; cannot run \"important\"", std::string(e.what()));
  }
  faker_.advanceUntil(1s);
  EXPECT_EQ(Log{"scheduled before shutdown@100"}, log_);
}

TEST_F(TaskRunnerTest, ShutdownStopsARepeatingTask) {
  red_->schedule("repeat", 0ns, [&] {
    log("run");
    return std::chrono::nanoseconds(100ms);
  });
  faker_.advanceUntil(150ms);
  red_->shutdown();
  faker_.advanceUntil(1s);
  EXPECT_EQ((Log{"run@0", "run@100"}), log_);
}

TEST_F(TaskRunnerTest, TaskMayScheduleWork) {
  red_->execute("first", 100ms, true, [&] {
    log("first");
    blue_->execute("second", 50ms, true, logs("second"));
    red_->execute("third", 0ns, true, logs("third"));
  });
  faker_.advanceUntil(1s);
  EXPECT_EQ((Log{"first@100", "third@100", "second@150"}), log_);
}

TEST_F(TaskRunnerTest, TaskSeesTheFakeClockAtItsScheduledTime) {
  std::chrono::nanoseconds seen{-1};
  red_->execute("clock", 250ms, true, [&] { seen = faker_.taskRunner()->nanoTime(); });
  faker_.advanceBy(10s);
  EXPECT_EQ(std::chrono::nanoseconds(250ms), seen);
  EXPECT_EQ(std::chrono::nanoseconds(10s), faker_.nanoTime());
}

TEST_F(TaskRunnerTest, ThrowingTaskDoesNotRepeatAndOthersStillRun) {
  red_->schedule("throws", 100ms,
                 []() -> std::chrono::nanoseconds { throw std::runtime_error("boom"); });
  red_->execute("after", 200ms, true, logs("after"));
  ::testing::internal::CaptureStderr();
  faker_.advanceUntil(1s);
  const std::string stderrText = ::testing::internal::GetCapturedStderr();
  EXPECT_EQ(Log{"after@200"}, log_);
  EXPECT_NE(std::string::npos, stderrText.find("task \"throws\" threw: boom")) << stderrText;
}

TEST_F(TaskRunnerTest, DestroyingAQueueDropsItsTasks) {
  red_->execute("gone", 100ms, false, logs("red"));
  blue_->execute("stays", 100ms, true, logs("blue"));
  red_.reset();
  faker_.advanceUntil(1s);
  EXPECT_EQ(Log{"blue@100"}, log_);
}

TEST_F(TaskRunnerTest, TaskMayDestroyItsOwnQueue) {
  red_->schedule("self-destruct", 100ms, [&] {
    log("run");
    red_.reset();
    return std::chrono::nanoseconds(100ms);  // Its queue is gone: no repeat.
  });
  faker_.advanceUntil(1s);
  EXPECT_EQ(Log{"run@100"}, log_);
  EXPECT_TRUE(faker_.taskRunner()->activeQueues().empty());
}

TEST_F(TaskRunnerTest, ATaskIsInOneQueueAtATime) {
  auto task = Task::of("shared", true, [] { return Task::kNoRepeat; });
  red_->schedule(task, 100ms);
  EXPECT_THROW(blue_->schedule(task, 100ms), std::logic_error);
  faker_.advanceUntil(1s);
  EXPECT_NO_THROW(blue_->schedule(task, 100ms));  // Done in red: blue may have it now.
}

TEST_F(TaskRunnerTest, RejectsNegativeDelaysAndNullTasks) {
  EXPECT_THROW(red_->execute("negative", -1ns, true, [] {}), std::invalid_argument);
  EXPECT_THROW(red_->schedule(nullptr), std::invalid_argument);
  EXPECT_THROW(red_->execute("empty", 0ns, true, nullptr), std::invalid_argument);
}

TEST_F(TaskRunnerTest, ActiveQueuesAndScheduledTasksReflectWork) {
  EXPECT_TRUE(faker_.taskRunner()->activeQueues().empty());
  red_->execute("r1", 200ms, true, [] {});
  red_->execute("r0", 100ms, true, [] {});
  std::vector<std::shared_ptr<Task>> scheduled = red_->scheduledTasks();
  ASSERT_EQ(2u, scheduled.size());
  EXPECT_EQ("r0", scheduled[0]->name());
  EXPECT_EQ("r1", scheduled[1]->name());
  faker_.runTasks();  // Lets a coordinator see them.
  EXPECT_EQ(std::vector<TaskQueue*>{red_.get()}, faker_.taskRunner()->activeQueues());
  std::shared_ptr<Task> seenActive;
  blue_->execute("b", 0ns, true, [&] { seenActive = blue_->activeTask(); });
  faker_.runTasks();
  ASSERT_NE(nullptr, seenActive);
  EXPECT_EQ("b", seenActive->name());
  faker_.advanceUntil(1s);
  EXPECT_TRUE(faker_.taskRunner()->activeQueues().empty());
}

TEST_F(TaskRunnerTest, IdleLatchCompletesOnceTasksDueNowHaveRun) {
  EXPECT_EQ(std::future_status::ready, red_->idleLatch().wait_for(0s));  // Idle already.
  red_->execute("now", 0ns, true, logs("now"));
  std::shared_future<void> latch = red_->idleLatch();
  EXPECT_EQ(std::future_status::timeout, latch.wait_for(0s));
  faker_.runTasks();
  EXPECT_EQ(std::future_status::ready, latch.wait_for(0s));
  EXPECT_EQ(Log{"now@0"}, log_);
}

TEST_F(TaskRunnerTest, QueuesGetDefaultNames) {
  std::unique_ptr<TaskQueue> first = faker_.taskRunner()->newQueue();
  std::unique_ptr<TaskQueue> second = faker_.taskRunner()->newQueue();
  EXPECT_EQ("Q10000", first->name());
  EXPECT_EQ("Q10001", second->name());
  EXPECT_EQ("red", red_->name());
  EXPECT_EQ(faker_.taskRunner().get(), &red_->taskRunner());
}

TEST_F(TaskRunnerTest, RunnerCancelAllCancelsEveryQueue) {
  red_->execute("r", 100ms, true, logs("red"));
  blue_->execute("b", 100ms, true, logs("blue"));
  blue_->execute("keep", 100ms, false, logs("blue kept"));
  faker_.taskRunner()->cancelAll();
  faker_.advanceUntil(1s);
  EXPECT_EQ(Log{"blue kept@100"}, log_);
}

TEST_F(TaskRunnerTest, RunnerShutdownDropsEverythingAndRefusesMore) {
  red_->execute("r", 100ms, false, logs("red"));
  faker_.taskRunner()->shutdown();
  EXPECT_TRUE(faker_.taskRunner()->isShutdown());
  red_->execute("dropped", 0ns, true, logs("dropped"));
  EXPECT_THROW(red_->execute("refused", 0ns, false, logs("refused")), std::logic_error);
  std::unique_ptr<TaskQueue> late = faker_.taskRunner()->newQueue("late");
  EXPECT_TRUE(late->isShutdown());
  faker_.advanceUntil(1s);
  EXPECT_EQ(Log{}, log_);
}

TEST_F(TaskRunnerTest, TheCoordinatorWaitsOncePerDistinctWakeUp) {
  red_->execute("a", 1h, true, logs("a"));
  faker_.advanceUntil(1h);
  EXPECT_EQ(Log{"a@3600000"}, log_);
  // A real backend would have slept once, for the hour; the fake never blocks.
  EXPECT_EQ(1, faker_.coordinatorWaitCount());
}

TEST_F(TaskRunnerTest, AdvanceUntilThePastIsMisuse) {
  faker_.advanceUntil(100ms);
  EXPECT_THROW(faker_.advanceUntil(50ms), std::invalid_argument);
}

}  // namespace
}  // namespace tern::internal
