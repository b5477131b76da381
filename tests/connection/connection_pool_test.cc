// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
// RealConnectionPool on a fake clock (OkHttp's ConnectionPoolTest): eviction by keep-alive and by
// the idle limit, lending, and what happens to a connection its last call releases.
#include "connection/real_connection_pool.h"

#include <gtest/gtest.h>

#include "call/real_call.h"
#include "concurrent/task.h"
#include "connection/connection_pool_access.h"
#include "connection/real_connection.h"
#include "support/call_fakes.h"
#include "support/task_faker.h"
#include "tern/client.h"

namespace tern::internal {
namespace {

using namespace std::chrono_literals;
using tern::testing::FakeDns;
using tern::testing::TaskFaker;

class ConnectionPoolTest : public ::testing::Test {
 protected:
  void makePool(int maxIdle, std::chrono::nanoseconds keepAlive) {
    pool = std::make_shared<RealConnectionPool>(faker.taskRunner(), maxIdle, keepAlive);
    client = Client::Builder().dns(dns).connectionPool(ConnectionPoolAccess::over(pool)).build();
  }

  Address address(std::string host) {
    return Address(host, 80, dns, Authenticator::none(), client.protocols());
  }

  // A call to http://`host`/ on the client, as the pool sees calls.
  std::shared_ptr<RealCall> newCall(const std::string& host = "a.test") {
    return std::dynamic_pointer_cast<RealCall>(
        client.newCall(Request::Builder().url("http://" + host + "/").build()));
  }

  // A connection to `host` in the pool, held by `call` (not connected: the pool does not care).
  std::shared_ptr<RealConnection> put(RealCall& call, const std::string& host = "a.test") {
    auto connection = std::make_shared<RealConnection>(
        *pool, Route(address(host), InetSocketAddress(InetAddress::loopbackIpv4(), 80)));
    pool->put(connection, call);
    return connection;
  }

  // `call` lets go of `connection`; closes it if the pool refuses it. Returns whether it did.
  bool release(const std::shared_ptr<RealConnection>& connection, RealCall& call) {
    std::shared_ptr<RealConnection> toClose = pool->release(connection, call);
    if (toClose) toClose->closeSocket();
    return toClose != nullptr;
  }

  // An idle connection, released at the current fake time.
  std::shared_ptr<RealConnection> idleConnection(const std::string& host = "a.test") {
    std::shared_ptr<RealCall> call = newCall(host);
    std::shared_ptr<RealConnection> connection = put(*call, host);
    release(connection, *call);
    return connection;
  }

  TaskFaker faker;
  std::shared_ptr<FakeDns> dns = std::make_shared<FakeDns>();
  std::shared_ptr<RealConnectionPool> pool;
  Client client;
};

TEST_F(ConnectionPoolTest, IdleConnectionIsEvictedAfterTheKeepAliveDuration) {
  makePool(5, 100ns);
  std::shared_ptr<RealConnection> connection = idleConnection();
  faker.runTasks();
  EXPECT_EQ(pool->connectionCount(), 1);
  faker.advanceUntil(99ns);
  EXPECT_EQ(pool->connectionCount(), 1);
  EXPECT_FALSE(connection->socket().isClosed());
  faker.advanceUntil(100ns);
  EXPECT_EQ(pool->connectionCount(), 0);
  EXPECT_TRUE(connection->socket().isClosed());
}

TEST_F(ConnectionPoolTest, CleanupReportsWhenTheEldestIdleConnectionExpires) {
  makePool(5, 100ns);
  faker.advanceUntil(50ns);
  idleConnection();  // Idle since 50 ns.
  EXPECT_EQ(pool->cleanup(60ns), 90ns);
  EXPECT_EQ(pool->cleanup(149ns), 1ns);
  EXPECT_EQ(pool->connectionCount(), 1);
  EXPECT_EQ(pool->cleanup(150ns), 0ns);  // Evicted; look again at once.
  EXPECT_EQ(pool->connectionCount(), 0);
  EXPECT_EQ(pool->cleanup(150ns), Task::kNoRepeat);
}

TEST_F(ConnectionPoolTest, ConnectionsInUseAreNeverEvicted) {
  makePool(5, 100ns);
  std::shared_ptr<RealCall> call = newCall();
  std::shared_ptr<RealConnection> connection = put(*call);
  EXPECT_EQ(pool->cleanup(1000ns), 100ns);
  faker.advanceUntil(10'000ns);
  EXPECT_EQ(pool->connectionCount(), 1);
  EXPECT_EQ(pool->idleConnectionCount(), 0);
  release(connection, *call);
  EXPECT_EQ(pool->idleConnectionCount(), 1);
  faker.advanceBy(100ns);
  EXPECT_EQ(pool->connectionCount(), 0);
}

TEST_F(ConnectionPoolTest, IdleLimitEvictsTheLongestIdleFirst) {
  makePool(1, 100ns);
  std::shared_ptr<RealConnection> first = idleConnection("a.test");
  faker.advanceUntil(10ns);
  std::shared_ptr<RealConnection> second = idleConnection("b.test");
  EXPECT_EQ(pool->cleanup(20ns), 0ns);
  EXPECT_EQ(pool->connectionCount(), 1);
  EXPECT_TRUE(first->socket().isClosed());
  EXPECT_FALSE(second->socket().isClosed());
}

TEST_F(ConnectionPoolTest, IdleLimitIsEnforcedByTheCleanupTask) {
  makePool(2, 1000ns);
  for (const char* host : {"a.test", "b.test", "c.test", "d.test"}) idleConnection(host);
  EXPECT_EQ(pool->connectionCount(), 4);
  faker.runTasks();
  EXPECT_EQ(pool->connectionCount(), 2);
  EXPECT_EQ(pool->idleConnectionCount(), 2);
}

TEST_F(ConnectionPoolTest, EvictAllClosesIdleConnectionsOnly) {
  makePool(5, 100ns);
  std::shared_ptr<RealConnection> idle = idleConnection("a.test");
  std::shared_ptr<RealCall> call = newCall("b.test");
  std::shared_ptr<RealConnection> inUse = put(*call, "b.test");
  pool->evictAll();
  EXPECT_EQ(pool->connectionCount(), 1);
  EXPECT_TRUE(idle->socket().isClosed());
  EXPECT_FALSE(inUse->socket().isClosed());
  EXPECT_FALSE(release(inUse, *call));  // Released later, it is pooled as usual.
  EXPECT_EQ(pool->idleConnectionCount(), 1);
}

TEST_F(ConnectionPoolTest, PoolWithoutIdleConnectionsClosesOnRelease) {
  makePool(0, 100ns);
  std::shared_ptr<RealCall> call = newCall();
  std::shared_ptr<RealConnection> connection = put(*call);
  EXPECT_TRUE(release(connection, *call));
  EXPECT_EQ(pool->connectionCount(), 0);
  EXPECT_TRUE(connection->socket().isClosed());
}

TEST_F(ConnectionPoolTest, ConnectionThatTakesNoNewExchangesIsClosedOnRelease) {
  makePool(5, 100ns);
  std::shared_ptr<RealCall> call = newCall();
  std::shared_ptr<RealConnection> connection = put(*call);
  connection->noNewExchanges();
  EXPECT_TRUE(release(connection, *call));
  EXPECT_EQ(pool->connectionCount(), 0);
}

TEST_F(ConnectionPoolTest, IdleConnectionsAreLentToCallsForTheSameAddress) {
  makePool(5, 100ns);
  std::shared_ptr<RealConnection> connection = idleConnection("a.test");
  std::shared_ptr<RealCall> other = newCall("b.test");
  EXPECT_EQ(pool->callAcquirePooledConnection(address("b.test"), *other), nullptr);
  std::shared_ptr<RealCall> same = newCall("a.test");
  EXPECT_EQ(pool->callAcquirePooledConnection(address("a.test"), *same), connection);
  EXPECT_EQ(pool->idleConnectionCount(), 0);
  // Lent once: a second call for the same address gets nothing (HTTP/1.1, one exchange).
  std::shared_ptr<RealCall> third = newCall("a.test");
  EXPECT_EQ(pool->callAcquirePooledConnection(address("a.test"), *third), nullptr);
}

TEST_F(ConnectionPoolTest, ConnectionsAreNotLentAcrossDnsConfigurations) {
  makePool(5, 100ns);
  idleConnection("a.test");
  std::shared_ptr<RealCall> call = newCall("a.test");
  Address otherDns("a.test", 80, std::make_shared<FakeDns>(), Authenticator::none(),
                   client.protocols());
  EXPECT_EQ(pool->callAcquirePooledConnection(otherDns, *call), nullptr);
}

TEST_F(ConnectionPoolTest, ConnectionTakingNoNewExchangesIsNotLent) {
  makePool(5, 100ns);
  std::shared_ptr<RealConnection> connection = idleConnection("a.test");
  connection->noNewExchanges();
  std::shared_ptr<RealCall> call = newCall("a.test");
  EXPECT_EQ(pool->callAcquirePooledConnection(address("a.test"), *call), nullptr);
}

TEST_F(ConnectionPoolTest, PublicPoolReportsTheDelegatesCounts) {
  makePool(5, 100ns);
  idleConnection("a.test");
  std::shared_ptr<RealCall> call = newCall("b.test");
  put(*call, "b.test");
  const std::shared_ptr<ConnectionPool>& publicPool = client.connectionPool();
  EXPECT_EQ(publicPool->connectionCount(), 2);
  EXPECT_EQ(publicPool->idleConnectionCount(), 1);
  publicPool->evictAll();
  EXPECT_EQ(publicPool->connectionCount(), 1);
}

TEST_F(ConnectionPoolTest, DestroyingThePoolClosesItsConnections) {
  makePool(5, 100ns);
  std::shared_ptr<RealConnection> connection = idleConnection();
  client = Client();  // Drops the client's reference to the pool.
  pool.reset();
  EXPECT_TRUE(connection->socket().isClosed());
}

TEST_F(ConnectionPoolTest, RejectsInvalidSettings) {
  EXPECT_THROW(RealConnectionPool(faker.taskRunner(), -1, 1s), std::invalid_argument);
  EXPECT_THROW(RealConnectionPool(faker.taskRunner(), 1, 0s), std::invalid_argument);
  EXPECT_THROW(RealConnectionPool(nullptr, 1, 1s), std::invalid_argument);
}

}  // namespace
}  // namespace tern::internal
