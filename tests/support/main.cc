// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <set>
#include <string>
#include <system_error>

#include "concurrent/fiber_reactor.h"
#include "support/fd_count.h"

namespace {

// What each open descriptor is (a socket, pipe or file), by number.
std::set<std::string> openDescriptors() {
  std::set<std::string> descriptors;
  std::error_code error;
  for (auto it = std::filesystem::directory_iterator("/proc/self/fd", error);
       !error && it != std::filesystem::directory_iterator(); it.increment(error)) {
    std::error_code ignored;
    descriptors.insert(it->path().filename().string() + " -> " +
                       std::filesystem::read_symlink(it->path(), ignored).string());
  }
  return descriptors;
}

// Every test must end with the descriptors it started with: a socket left open is a leaked
// connection. (Threads that close sockets get a moment to finish.) A test that leaks fails the
// run with the list of what it left open.
class DescriptorLeakCheck final : public testing::EmptyTestEventListener {
 public:
  void OnTestStart(const testing::TestInfo&) override {
    before_ = tern::testing::openFileDescriptorCount();
  }
  void OnTestEnd(const testing::TestInfo& test) override {
    if (test.result()->Skipped()) return;
    if (tern::testing::fileDescriptorsReturnTo(before_, std::chrono::seconds(3))) return;
    leaked_ = true;
    std::fprintf(stderr, "%s.%s leaked file descriptors: %d open, %d before. Open now:\n",
                 test.test_suite_name(), test.name(), tern::testing::openFileDescriptorCount(),
                 before_);
    for (const std::string& descriptor : openDescriptors()) {
      std::fprintf(stderr, "  %s\n", descriptor.c_str());
    }
  }
  bool leaked() const { return leaked_; }

 private:
  int before_ = 0;
  bool leaked_ = false;
};

}  // namespace

// The one main() of every suite, so suite-wide set-up lives in one place.
int main(int argc, char** argv) {
  // SIGPIPE keeps its default action (death), as in a user's program that never heard of it: a
  // peer that closes its end must surface as an IOException, and every test proves that tern
  // and MockWebServer never raise SIGPIPE (they send with MSG_NOSIGNAL).
  testing::InitGoogleTest(&argc, argv);
  // The fiber engine's reactor holds two descriptors (its epoll and its wake-up) for the life of
  // the process, from the first Dispatcher on: opened here, before any test counts descriptors.
  tern::internal::FiberReactor::instance();
  auto* leakCheck = new DescriptorLeakCheck;  // Owned by gtest's listener list.
  testing::UnitTest::GetInstance()->listeners().Append(leakCheck);
  int result = RUN_ALL_TESTS();
  return result != 0 ? result : (leakCheck->leaked() ? 1 : 0);
}
