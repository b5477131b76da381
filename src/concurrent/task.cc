// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#include "concurrent/task.h"

#include <stdexcept>

namespace tern::internal {
namespace {

class LambdaTask final : public Task {
 public:
  LambdaTask(std::string name, bool cancelable, std::function<std::chrono::nanoseconds()> block)
      : Task(std::move(name), cancelable), block_(std::move(block)) {}

  std::chrono::nanoseconds runOnce() override { return block_(); }

 private:
  const std::function<std::chrono::nanoseconds()> block_;
};

}  // namespace

std::shared_ptr<Task> Task::of(std::string name, bool cancelable,
                               std::function<std::chrono::nanoseconds()> block) {
  if (!block) {
    throw std::invalid_argument("Task::of: empty block for task \"" + name + "\"");
  }
  return std::make_shared<LambdaTask>(std::move(name), cancelable, std::move(block));
}

}  // namespace tern::internal
