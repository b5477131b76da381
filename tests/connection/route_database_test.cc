// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
// RouteDatabase's memory of origins whose HTTP/3 alternative failed: left to TCP for five
// minutes, twice as long after each further failure (at most two days), forgiven by a success,
// and bounded.
#include "connection/route_database.h"

#include <gtest/gtest.h>

#include <chrono>
#include <string>

namespace tern::internal {
namespace {

using namespace std::chrono_literals;

TEST(RouteDatabaseQuicTest, AFailureLeavesTheOriginToTcpForFiveMinutes) {
  RouteDatabase database;
  const std::chrono::nanoseconds t0 = 1h;
  EXPECT_FALSE(database.isQuicBroken("example.com:443", t0));
  database.quicFailed("example.com:443", t0);
  EXPECT_TRUE(database.isQuicBroken("example.com:443", t0));
  EXPECT_TRUE(database.isQuicBroken("example.com:443", t0 + 5min - 1ns));
  EXPECT_FALSE(database.isQuicBroken("example.com:443", t0 + 5min));
  EXPECT_FALSE(database.isQuicBroken("example.com:8443", t0));  // Per origin.
  EXPECT_FALSE(database.isQuicBroken("other.test:443", t0));
}

TEST(RouteDatabaseQuicTest, EachFailureInARowDoublesTheWaitUpToTwoDays) {
  RouteDatabase database;
  std::chrono::nanoseconds now = 1h;
  std::chrono::nanoseconds expected = 5min;
  for (int failure = 0; failure < 12; ++failure) {
    database.quicFailed("example.com:443", now);
    EXPECT_TRUE(database.isQuicBroken("example.com:443", now + expected - 1ns)) << failure;
    EXPECT_FALSE(database.isQuicBroken("example.com:443", now + expected)) << failure;
    now += expected;
    expected = std::min<std::chrono::nanoseconds>(expected * 2, 48h);
  }
  EXPECT_EQ(expected, 48h);
}

TEST(RouteDatabaseQuicTest, ASuccessForgivesTheFailures) {
  RouteDatabase database;
  database.quicFailed("example.com:443", 0ns);
  database.quicFailed("example.com:443", 0ns);
  database.quicConnected("example.com:443");
  EXPECT_FALSE(database.isQuicBroken("example.com:443", 0ns));
  database.quicFailed("example.com:443", 0ns);  // Five minutes again, not twenty.
  EXPECT_FALSE(database.isQuicBroken("example.com:443", 5min));
}

TEST(RouteDatabaseQuicTest, RemembersABoundedNumberOfOrigins) {
  RouteDatabase database;
  // The first origin is the one allowed back soonest: it is forgotten when the table is full.
  database.quicFailed("first.test:443", 0ns);
  for (size_t i = 0; i < RouteDatabase::kMaxQuicBroken; ++i) {
    database.quicFailed("host" + std::to_string(i) + ".test:443", 1min);
  }
  EXPECT_FALSE(database.isQuicBroken("first.test:443", 1min));
  EXPECT_TRUE(database.isQuicBroken("host0.test:443", 1min));
  EXPECT_TRUE(database.isQuicBroken(
      "host" + std::to_string(RouteDatabase::kMaxQuicBroken - 1) + ".test:443", 1min));
}

}  // namespace
}  // namespace tern::internal
