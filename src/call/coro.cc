// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#include "tern/coro.h"

#include <utility>

#include "call/blocking_work.h"

namespace tern::detail {

void runBlocking(std::function<void()> job) { internal::runBlocking(std::move(job)); }

}  // namespace tern::detail
