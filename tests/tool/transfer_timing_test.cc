// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
// curl's -w times from a call's events.
#include "transfer_timing.h"

#include <gtest/gtest.h>

namespace tern::tool {
namespace {

using namespace std::chrono_literals;

CallTrace traceOf(std::initializer_list<std::pair<const char*, int>> events) {
  CallTrace trace;
  trace.start = Clock::now();
  for (const auto& [name, ms] : events) {
    trace.events.push_back({name, "", trace.start + std::chrono::milliseconds(ms)});
  }
  return trace;
}

TEST(TransferTimingTest, FreshCleartextConnection) {
  TransferTimes times = transferTimes(traceOf({{"callStart", 1},
                                               {"dnsStart", 2},
                                               {"dnsEnd", 10},
                                               {"connectStart", 11},
                                               {"connectEnd", 30},
                                               {"connectionAcquired", 30},
                                               {"requestHeadersStart", 31},
                                               {"responseHeadersStart", 80},
                                               {"callEnd", 90}}));
  EXPECT_EQ(times.namelookup, 10ms);
  EXPECT_EQ(times.connect, 30ms);
  EXPECT_EQ(times.appconnect, 0ms);
  EXPECT_EQ(times.pretransfer, 31ms);
  EXPECT_EQ(times.starttransfer, 80ms);
}

TEST(TransferTimingTest, TlsSplitsConnectFromAppConnect) {
  TransferTimes times = transferTimes(traceOf({{"callStart", 0},
                                               {"connectStart", 1},
                                               {"secureConnectStart", 20},
                                               {"secureConnectEnd", 50},
                                               {"connectEnd", 51},
                                               {"requestHeadersStart", 52},
                                               {"responseHeadersStart", 90}}));
  EXPECT_EQ(times.namelookup, 0ms);
  EXPECT_EQ(times.connect, 20ms);
  EXPECT_EQ(times.appconnect, 50ms);
  EXPECT_EQ(times.pretransfer, 52ms);
}

TEST(TransferTimingTest, PooledConnectionHasNoLookupOrConnect) {
  TransferTimes times = transferTimes(traceOf({{"callStart", 0},
                                               {"connectionAcquired", 1},
                                               {"requestHeadersStart", 2},
                                               {"responseHeadersStart", 7}}));
  EXPECT_EQ(times.namelookup, 0ms);
  EXPECT_EQ(times.connect, 0ms);
  EXPECT_EQ(times.pretransfer, 2ms);
  EXPECT_EQ(times.starttransfer, 7ms);
}

TEST(TransferTimingTest, FirstResponseCountsForStartTransfer) {
  TransferTimes times = transferTimes(traceOf({{"callStart", 0},
                                               {"requestHeadersStart", 5},
                                               {"responseHeadersStart", 10},
                                               {"followUpDecision", 11},
                                               {"requestHeadersStart", 12},
                                               {"responseHeadersStart", 40}}));
  EXPECT_EQ(times.pretransfer, 5ms);
  EXPECT_EQ(times.starttransfer, 10ms);
}

TEST(TransferTimingTest, FailedConnectLeavesLaterTimesZero) {
  TransferTimes times = transferTimes(
      traceOf({{"callStart", 0}, {"connectStart", 1}, {"connectFailed", 9}, {"callFailed", 9}}));
  EXPECT_EQ(times.connect, 0ms);
  EXPECT_EQ(times.pretransfer, 0ms);
  EXPECT_EQ(times.starttransfer, 0ms);
}

}  // namespace
}  // namespace tern::tool
