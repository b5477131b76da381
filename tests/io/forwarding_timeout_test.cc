// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#include "io/forwarding_timeout.h"

#include <gtest/gtest.h>

#include <chrono>

#include "tern/exceptions.h"

namespace tern::internal {
namespace {

using namespace std::chrono_literals;

TEST(ForwardingTimeoutTest, ForwardsSettersAndGettersToTheDelegate) {
  Timeout delegate;
  ForwardingTimeout forwarding(delegate);
  auto deadline = Timeout::Clock::now() + 1h;
  EXPECT_EQ(&forwarding.timeout(3s).deadline(deadline), &forwarding);
  EXPECT_EQ(delegate.timeoutNanos(), 3s);
  EXPECT_EQ(delegate.deadlineNanoTime(), deadline);
  EXPECT_EQ(forwarding.timeoutNanos(), 3s);
  EXPECT_TRUE(forwarding.hasDeadline());
  EXPECT_EQ(forwarding.waitDeadline(deadline - 2h), deadline - 2h + 3s);
  forwarding.clearTimeout().clearDeadline();
  EXPECT_EQ(delegate.timeoutNanos(), 0ns);
  EXPECT_FALSE(delegate.hasDeadline());
}

TEST(ForwardingTimeoutTest, ThrowIfReachedUsesTheDelegatesDeadline) {
  Timeout delegate;
  ForwardingTimeout forwarding(delegate);
  delegate.deadline(Timeout::Clock::now() - 1ms);
  EXPECT_THROW(forwarding.throwIfReached(), InterruptedIOException);
}

// The HTTP/1 codec's detachTimeout(): once a body is done, its timeout stops affecting the
// socket, and the socket's timeout is reset for the next exchange.
TEST(ForwardingTimeoutTest, DetachingLeavesTheOldDelegateAlone) {
  Timeout socketTimeout;
  socketTimeout.timeout(10s);
  ForwardingTimeout bodyTimeout(socketTimeout);
  bodyTimeout.setDelegate(Timeout::none());
  bodyTimeout.timeout(1s).deadline(Timeout::Clock::now() - 1s);
  EXPECT_EQ(&bodyTimeout.delegate(), &Timeout::none());
  EXPECT_EQ(socketTimeout.timeoutNanos(), 10s);
  EXPECT_FALSE(socketTimeout.hasDeadline());
  EXPECT_NO_THROW(bodyTimeout.throwIfReached());
}

}  // namespace
}  // namespace tern::internal
