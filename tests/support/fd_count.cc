// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#include "support/fd_count.h"

#include <filesystem>
#include <system_error>
#include <thread>

namespace tern::testing {

int openFileDescriptorCount() {
  std::error_code error;
  std::filesystem::directory_iterator entries("/proc/self/fd", error);
  if (error) return -1;
  int count = 0;
  for (auto it = entries; it != std::filesystem::directory_iterator(); it.increment(error)) {
    if (error) return -1;
    ++count;
  }
  return count - 1;  // Not the descriptor the listing itself holds open.
}

bool fileDescriptorsReturnTo(int baseline, std::chrono::milliseconds wait) {
  if (baseline < 0) return true;
  auto deadline = std::chrono::steady_clock::now() + wait;
  while (true) {
    int count = openFileDescriptorCount();
    if (count <= baseline) return true;
    if (std::chrono::steady_clock::now() >= deadline) return false;
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
}

}  // namespace tern::testing
