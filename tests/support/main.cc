// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#include <csignal>

#include <gtest/gtest.h>

// The one main() of every suite, so suite-wide set-up lives in one place.
int main(int argc, char** argv) {
  // A peer that closes its end must surface as an IOException, never kill the test process.
  std::signal(SIGPIPE, SIG_IGN);
  testing::InitGoogleTest(&argc, argv);
  return RUN_ALL_TESTS();
}
