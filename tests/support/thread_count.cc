// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#include "support/thread_count.h"

#include <filesystem>
#include <fstream>
#include <string>
#include <system_error>

namespace tern::testing {

int threadsNamed(std::string_view name) {
  int count = 0;
  std::error_code error;
  for (auto it = std::filesystem::directory_iterator("/proc/self/task", error);
       !error && it != std::filesystem::directory_iterator(); it.increment(error)) {
    std::ifstream comm(it->path() / "comm");
    std::string line;
    std::getline(comm, line);
    if (line == name) ++count;
  }
  return count;
}

}  // namespace tern::testing
