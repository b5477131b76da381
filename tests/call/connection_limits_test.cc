// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
// ConnectionPool's limits (issue 15; OkHttp refuses them in its #3907): calls beyond a limit wait
// for a connection to be released or closed and never fail for it; an idle connection makes
// room; cancel() and a raised limit wake the waiting calls.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <atomic>
#include <set>
#include <thread>
#include <vector>

#include "call/event_listener_fixture.h"

namespace tern::testing {
namespace {

using namespace std::chrono_literals;

class ConnectionLimitsTest : public EventListenerFixture {
 protected:
  void SetUp() override {
    server.setDispatcher([](const RecordedRequest&) {
      return MockResponse::Builder().headersDelay(20ms).body("ok").build();
    });
    server.start();
    pool = std::make_shared<ConnectionPool>();
    client = client.newBuilder().connectionPool(pool).build();
  }

  // The connections the server saw, by their index.
  std::set<int> connectionsSeen(int requests) {
    std::set<int> seen;
    for (int i = 0; i < requests; ++i) seen.insert(server.takeRequest().connectionIndex());
    return seen;
  }

  std::shared_ptr<ConnectionPool> pool;
};

TEST_F(ConnectionLimitsTest, LimitsStartUnsetAndRefuseNegatives) {
  EXPECT_EQ(pool->maxConnections(), 0);
  EXPECT_EQ(pool->maxConnectionsPerHost(), 0);
  EXPECT_THROW(pool->setMaxConnections(-1), std::invalid_argument);
  EXPECT_THROW(pool->setMaxConnectionsPerHost(-1), std::invalid_argument);
  pool->setMaxConnectionsPerHost(3);
  EXPECT_EQ(pool->maxConnectionsPerHost(), 3);
}

TEST_F(ConnectionLimitsTest, ConcurrentCallsShareThePerHostLimit) {
  pool->setMaxConnectionsPerHost(2);
  std::atomic<int> succeeded{0};
  std::vector<std::thread> threads;
  for (int i = 0; i < 8; ++i) {
    threads.emplace_back([&] {
      if (fetch() == "ok") ++succeeded;
    });
  }
  for (std::thread& thread : threads) thread.join();
  EXPECT_EQ(succeeded, 8);
  std::set<int> seen = connectionsSeen(8);
  EXPECT_LE(seen.size(), 2u);
  EXPECT_LE(*seen.rbegin(), 1);  // Never a third connection.
  EXPECT_LE(pool->connectionCount(), 2);
}

TEST_F(ConnectionLimitsTest, AThousandAsyncCallsUnderAPerHostLimitOfFourAllSucceed) {
  pool->setMaxConnectionsPerHost(4);
  auto dispatcher = std::make_shared<Dispatcher>();
  dispatcher->setMaxRequests(1000);
  dispatcher->setMaxRequestsPerHost(1000);
  server.setDispatcher(
      [](const RecordedRequest&) { return MockResponse::Builder().body("ok").build(); });
  Client c = client.newBuilder().dispatcher(dispatcher).build();
  auto callback = std::make_shared<RecordingCallback>();
  constexpr int kCalls = 1000;
  for (int i = 0; i < kCalls; ++i) c.newCall(get())->enqueue(callback);
  // 996 calls wait for a place, each holding a dispatcher thread (docs/calls.md), made one after
  // another as each call blocks: under TSan that ramp alone takes over 10 s.
  std::vector<RecordedResponse> responses = callback->awaitCount(kCalls, 60s);
  ASSERT_EQ(responses.size(), static_cast<size_t>(kCalls));
  int ok = 0;
  for (const RecordedResponse& response : responses) ok += response.body == "ok" ? 1 : 0;
  EXPECT_EQ(ok, kCalls);
  std::set<int> seen = connectionsSeen(kCalls);
  EXPECT_LE(*seen.rbegin(), 3);  // At most four connections, ever.
  dispatcher->shutdown();
}

TEST_F(ConnectionLimitsTest, ATotalLimitClosesAnIdleConnectionToMakeRoom) {
  pool->setMaxConnections(1);
  EXPECT_EQ(fetch(), "ok");
  EXPECT_EQ(pool->idleConnectionCount(), 1);
  // Another host name for the same server: a connection of its own, which needs the one place.
  Client other = withDns("other.test");
  EXPECT_EQ(other.newCall(Request::Builder().url(hostUrl("other.test")).build())
                ->execute()
                .body()
                ->string(),
            "ok");
  EXPECT_EQ(pool->connectionCount(), 1);
  EXPECT_EQ(connectionsSeen(2), (std::set<int>{0, 1}));
}

TEST_F(ConnectionLimitsTest, AWaitingCallIsCanceledAtOnce) {
  pool->setMaxConnectionsPerHost(1);
  Response held = execute();  // Holds the one connection until its body is closed.
  std::shared_ptr<Call> waiting = client.newCall(get());
  std::thread canceler([&] {
    std::this_thread::sleep_for(100ms);  // Let it reach the wait (if not, cancel() still wins).
    waiting->cancel();
  });
  EXPECT_THROW(waiting->execute(), InterruptedIOException);
  canceler.join();
  EXPECT_EQ(held.body()->string(), "ok");
}

TEST_F(ConnectionLimitsTest, ACallWaitingForAPlaceReusesTheReleasedConnection) {
  pool->setMaxConnectionsPerHost(1);
  std::optional<Response> held = execute();
  std::string second;
  std::atomic<bool> done{false};
  std::thread waiter([&] {
    second = fetch();
    done = true;
  });
  std::this_thread::sleep_for(100ms);
  EXPECT_FALSE(done);  // Still waiting: the host is full.
  EXPECT_EQ(held->body()->string(), "ok");
  held.reset();  // Released: the waiting call takes it.
  waiter.join();
  EXPECT_EQ(second, "ok");
  EXPECT_EQ(connectionsSeen(2), (std::set<int>{0}));
}

TEST_F(ConnectionLimitsTest, RaisingTheLimitWakesAWaitingCall) {
  pool->setMaxConnectionsPerHost(1);
  Response held = execute();
  std::string second;
  std::thread waiter([&] { second = fetch(); });
  std::this_thread::sleep_for(100ms);
  pool->setMaxConnectionsPerHost(2);  // A second connection may open now.
  waiter.join();
  EXPECT_EQ(second, "ok");
  EXPECT_EQ(held.body()->string(), "ok");
  EXPECT_EQ(connectionsSeen(2), (std::set<int>{0, 1}));
}

}  // namespace
}  // namespace tern::testing
