// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#pragma once

#include <string_view>

namespace tern::testing {

// How many of this process's threads are named `name` (their /proc/self/task/*/comm), e.g.
// "tern Dispatcher" for a Dispatcher's own pool: what the thread-accounting tests count.
int threadsNamed(std::string_view name);

}  // namespace tern::testing
