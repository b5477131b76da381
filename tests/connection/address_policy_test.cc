// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
// ConnectionPool::setPolicy() on a fake clock (OkHttp 5.0.0-alpha's ConnectionPoolTest of
// AddressPolicy): a policy opens connections to a MockWebServer before any call, counts an HTTP/2
// connection for its MAX_CONCURRENT_STREAMS, opens dropped ones again after its backoff, keeps
// them past maxIdleConnections but not past keep-alive, respects the pool's limits, and goes away
// with minimumConcurrentCalls == 0.
#include "tern/connection_pool.h"

#include <gtest/gtest.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <chrono>
#include <memory>
#include <set>
#include <thread>
#include <vector>

#include "connection/connection_pool_access.h"
#include "connection/real_connection.h"
#include "connection/real_connection_pool.h"
#include "support/task_faker.h"
#include "support/tls_certificates.h"
#include "tern/client.h"
#include "tern/mockwebserver/mock_web_server.h"

namespace tern::testing {
namespace {

using namespace std::chrono_literals;
using internal::ConnectionPoolAccess;
using internal::MutexLock;
using internal::RealConnectionPool;
using mockwebserver::Http2Settings;
using mockwebserver::MockResponse;
using mockwebserver::MockWebServer;

class AddressPolicyTest : public ::testing::Test {
 protected:
  // Starts the server (configure it first), and makes a pool on the fake clock and a client on
  // it. Fast fallback is off: it races TCP connects
  // on the TaskRunner, which on the fake clock runs only when the test advances it, while the
  // policy's warming (itself a task) waits for them.
  void makePool(int maxIdle = 5, std::chrono::nanoseconds keepAlive = 5min) {
    server.start();
    delegate = std::make_shared<RealConnectionPool>(faker.taskRunner(), maxIdle, keepAlive);
    pool = ConnectionPoolAccess::over(delegate);
    client = Client::Builder()
                 .connectionPool(pool)
                 .proxy(Proxy::direct())
                 .fastFallback(false)
                 .connectTimeout(5s)
                 .readTimeout(5s)
                 .writeTimeout(5s)
                 .build();
  }

  Address address() { return client.address(server.url("/")); }

  // The connections the server saw the next `requests` requests on.
  std::set<int> connectionsSeen(MockWebServer& on, int requests) {
    std::set<int> seen;
    for (int i = 0; i < requests; ++i) seen.insert(on.takeRequest().connectionIndex());
    return seen;
  }

  std::string fetch(MockWebServer& on) {
    return client.newCall(Request::Builder().url(on.url("/")).build())->execute().body()->string();
  }

  MockWebServer server;
  TaskFaker faker;
  std::shared_ptr<RealConnectionPool> delegate;
  std::shared_ptr<ConnectionPool> pool;
  Client client;
};

TEST_F(AddressPolicyTest, PolicyOpensConnectionsBeforeAnyCall) {
  makePool();
  pool->setPolicy(address(), {.minimumConcurrentCalls = 3});
  EXPECT_EQ(pool->connectionCount(), 0);  // On the TaskRunner, not on the caller's thread.
  faker.runTasks();
  EXPECT_EQ(pool->connectionCount(), 3);
  EXPECT_EQ(pool->idleConnectionCount(), 3);
  EXPECT_EQ(server.requestCount(), 0);

  // Three calls at once take the three warm connections: no call connects.
  for (int i = 0; i < 3; ++i) server.enqueue(MockResponse::Builder().body("ok").build());
  std::vector<Response> open;
  for (int i = 0; i < 3; ++i) {
    open.push_back(client.newCall(Request::Builder().url(server.url("/")).build())->execute());
  }
  EXPECT_EQ(pool->connectionCount(), 3);
  EXPECT_EQ(pool->idleConnectionCount(), 0);
  EXPECT_EQ(connectionsSeen(server, 3), (std::set<int>{0, 1, 2}));
  for (Response& response : open) EXPECT_EQ(response.body()->string(), "ok");
  EXPECT_EQ(pool->idleConnectionCount(), 3);
}

TEST_F(AddressPolicyTest, WarmConnectionIsAlreadyTlsAndHttp2) {
  TestCertificates certificates;
  server.useHttps(certificates.server());
  makePool();
  client = client.newBuilder().handshakeCertificates(certificates.clientTrust()).build();
  pool->setPolicy(address(), {.minimumConcurrentCalls = 1});
  faker.runTasks();
  ASSERT_EQ(pool->connectionCount(), 1);

  server.enqueue(MockResponse::Builder().body("secure").build());
  Response response = client.newCall(Request::Builder().url(server.url("/")).build())->execute();
  EXPECT_EQ(response.protocol(), Protocol::HTTP_2);
  EXPECT_TRUE(response.handshake().has_value());
  EXPECT_EQ(response.body()->string(), "secure");
  EXPECT_EQ(server.takeRequest().connectionIndex(), 0);
  EXPECT_EQ(pool->connectionCount(), 1);
}

TEST_F(AddressPolicyTest, Http2ConnectionCountsForItsMaxConcurrentStreams) {
  server.setProtocols({Protocol::H2_PRIOR_KNOWLEDGE});
  makePool();
  client = client.newBuilder().protocols({Protocol::H2_PRIOR_KNOWLEDGE}).build();
  pool->setPolicy(address(),
                  {.minimumConcurrentCalls = 5, .backoffDelay = 1s, .backoffJitter = 0ms});
  faker.runTasks();
  // The server set no MAX_CONCURRENT_STREAMS: one connection carries any number of calls.
  EXPECT_EQ(pool->connectionCount(), 1);

  // Now it allows 2 streams: the connection carries 2 of the 5 calls, so after the backoff the
  // policy opens another (whose server again sets no limit).
  Http2Settings settings;
  settings.maxConcurrentStreams = 2;
  server.enqueue(MockResponse::Builder().settings(settings).body("a").build());
  EXPECT_EQ(fetch(server), "a");
  // The client applies the SETTINGS on the connection's reader thread: wait for it.
  std::shared_ptr<internal::RealConnection> connection = delegate->connections().at(0);
  auto limit = [&] {
    MutexLock lock(delegate->mutex());
    connection->assertPoolLockHeld(*delegate);
    return connection->allocationLimitLocked();
  };
  for (auto deadline = std::chrono::steady_clock::now() + 5s;
       limit() != 2 && std::chrono::steady_clock::now() < deadline;) {
    std::this_thread::sleep_for(1ms);
  }
  ASSERT_EQ(limit(), 2);
  faker.advanceBy(999ms);
  EXPECT_EQ(pool->connectionCount(), 1);
  faker.advanceBy(1ms);
  EXPECT_EQ(pool->connectionCount(), 2);
  faker.advanceBy(1min);  // Within keep-alive: no third connection.
  EXPECT_EQ(pool->connectionCount(), 2);
}

TEST_F(AddressPolicyTest, DroppedConnectionsComeBackAfterTheBackoffGiveOrTakeTheJitter) {
  makePool();
  const AddressPolicy policy{.minimumConcurrentCalls = 2, .backoffDelay = 10s, .backoffJitter = 1s};
  pool->setPolicy(address(), policy);
  faker.runTasks();
  ASSERT_EQ(pool->connectionCount(), 2);

  for (int drop = 0; drop < 3; ++drop) {
    // The server ends a connection after its response: the pool has one left.
    server.enqueue(MockResponse::Builder().addHeader("Connection", "close").body("bye").build());
    EXPECT_EQ(fetch(server), "bye");
    EXPECT_EQ(pool->connectionCount(), 1);
    const std::chrono::nanoseconds droppedAt = faker.nanoTime();
    faker.advanceUntil(droppedAt + policy.backoffDelay - policy.backoffJitter - 1ns);
    EXPECT_EQ(pool->connectionCount(), 1) << "drop " << drop;
    faker.advanceUntil(droppedAt + policy.backoffDelay + policy.backoffJitter);
    EXPECT_EQ(pool->connectionCount(), 2) << "drop " << drop;
  }
}

TEST_F(AddressPolicyTest, FailedConnectIsRetriedAfterTheBackoff) {
  makePool();
  const int port = server.port();
  const Address unreachable = address();
  server.shutdown();  // Nothing listens there now: connects are refused.
  pool->setPolicy(unreachable,
                  {.minimumConcurrentCalls = 1, .backoffDelay = 5s, .backoffJitter = 0ms});
  faker.runTasks();
  EXPECT_EQ(pool->connectionCount(), 0);

  MockWebServer restarted;
  restarted.start(port);
  faker.advanceBy(5s - 1ns);
  EXPECT_EQ(pool->connectionCount(), 0);
  faker.advanceBy(1ns);
  EXPECT_EQ(pool->connectionCount(), 1);
}

TEST_F(AddressPolicyTest, CleanupKeepsPolicyConnectionsBeyondMaxIdleButNotPastKeepAlive) {
  makePool(/*maxIdle=*/0, /*keepAlive=*/1min);
  pool->setPolicy(address(),
                  {.minimumConcurrentCalls = 2, .backoffDelay = 10s, .backoffJitter = 0ms});
  faker.runTasks();
  EXPECT_EQ(pool->connectionCount(), 2);

  // A call to the policy's address gives its connection back to the pool; one to another server
  // has its connection closed on release (no idle connections kept but the policy's).
  MockWebServer other;
  other.start();
  server.enqueue(MockResponse::Builder().body("a").build());
  other.enqueue(MockResponse::Builder().body("b").build());
  faker.advanceBy(30s);
  EXPECT_EQ(fetch(server), "a");  // Idle again from 30 s.
  EXPECT_EQ(fetch(other), "b");
  faker.runTasks();
  EXPECT_EQ(pool->connectionCount(), 2);
  EXPECT_EQ(pool->idleConnectionCount(), 2);

  // Past keep-alive they go as any other: the one idle since 0 s at 60 s, the other at 90 s.
  faker.advanceUntil(1min - 1ns);
  EXPECT_EQ(pool->connectionCount(), 2);
  faker.advanceUntil(1min);
  EXPECT_EQ(pool->connectionCount(), 1);
  // ...and come back after the backoff.
  faker.advanceUntil(1min + 10s);
  EXPECT_EQ(pool->connectionCount(), 2);
}

TEST_F(AddressPolicyTest, PolicyConnectionsDoNotCountAgainstMaxIdleConnections) {
  makePool(/*maxIdle=*/1, /*keepAlive=*/1min);
  pool->setPolicy(address(), {.minimumConcurrentCalls = 3});
  faker.runTasks();
  EXPECT_EQ(pool->connectionCount(), 3);

  // Two idle connections to another server: one is beyond maxIdleConnections and goes.
  MockWebServer other;
  other.start();
  for (int i = 0; i < 2; ++i) other.enqueue(MockResponse::Builder().body("b").build());
  {
    std::vector<Response> open;
    for (int i = 0; i < 2; ++i) {
      open.push_back(client.newCall(Request::Builder().url(other.url("/")).build())->execute());
    }
    EXPECT_EQ(pool->connectionCount(), 5);
  }
  faker.runTasks();
  EXPECT_EQ(pool->connectionCount(), 4);
  EXPECT_EQ(pool->idleConnectionCount(), 4);
}

TEST_F(AddressPolicyTest, MinimumZeroRemovesThePolicy) {
  makePool();
  const AddressPolicy policy{.minimumConcurrentCalls = 2, .backoffDelay = 1s, .backoffJitter = 0ms};
  pool->setPolicy(address(), policy);
  faker.runTasks();
  EXPECT_EQ(pool->connectionCount(), 2);

  pool->setPolicy(address(), {.minimumConcurrentCalls = 0});
  EXPECT_EQ(pool->connectionCount(), 2);  // They stay, as ordinary idle connections...
  pool->evictAll();
  faker.advanceBy(1h);
  EXPECT_EQ(pool->connectionCount(), 0);  // ...and nothing opens them again.

  // Removing an absent policy does nothing; setting it again warms again at once.
  pool->setPolicy(address(), {.minimumConcurrentCalls = 0});
  pool->setPolicy(address(), policy);
  faker.runTasks();
  EXPECT_EQ(pool->connectionCount(), 2);
}

TEST_F(AddressPolicyTest, SettingThePolicyAgainReplacesIt) {
  makePool();
  pool->setPolicy(address(), {.minimumConcurrentCalls = 1});
  faker.runTasks();
  EXPECT_EQ(pool->connectionCount(), 1);
  pool->setPolicy(address(), {.minimumConcurrentCalls = 4});
  faker.runTasks();
  EXPECT_EQ(pool->connectionCount(), 4);
}

TEST_F(AddressPolicyTest, PolicyStaysWithinThePoolsLimits) {
  makePool();
  pool->setMaxConnectionsPerHost(2);
  pool->setPolicy(address(),
                  {.minimumConcurrentCalls = 4, .backoffDelay = 1s, .backoffJitter = 0ms});
  faker.runTasks();  // Returns: the warming waits for no place.
  EXPECT_EQ(pool->connectionCount(), 2);

  // A call to the full host takes a warm connection rather than waiting.
  server.enqueue(MockResponse::Builder().body("a").build());
  EXPECT_EQ(fetch(server), "a");

  // A higher limit gives room: the policy uses it after its backoff.
  pool->setMaxConnectionsPerHost(3);
  faker.advanceBy(1s);
  EXPECT_EQ(pool->connectionCount(), 3);
  pool->setMaxConnectionsPerHost(0);
  faker.advanceBy(1s);
  EXPECT_EQ(pool->connectionCount(), 4);
}

TEST_F(AddressPolicyTest, RejectsNegativesAndAddressesNoClientMade) {
  makePool();
  EXPECT_THROW(pool->setPolicy(address(), {.minimumConcurrentCalls = -1}), std::invalid_argument);
  EXPECT_THROW(pool->setPolicy(address(), {.minimumConcurrentCalls = 1, .backoffDelay = -1ms}),
               std::invalid_argument);
  EXPECT_THROW(pool->setPolicy(address(), {.minimumConcurrentCalls = 1, .backoffJitter = -1ms}),
               std::invalid_argument);
  Address handMade(server.hostName(), server.port(), Dns::system(), Authenticator::none(),
                   {Protocol::HTTP_1_1});
  EXPECT_THROW(pool->setPolicy(handMade, {.minimumConcurrentCalls = 1}), std::invalid_argument);
  pool->setPolicy(handMade, {.minimumConcurrentCalls = 0});  // Nothing to remove: fine.
}

TEST_F(AddressPolicyTest, DefaultsAreOkHttps) {
  AddressPolicy policy;
  EXPECT_EQ(policy.minimumConcurrentCalls, 0);
  EXPECT_EQ(policy.backoffDelay, 60s);
  EXPECT_EQ(policy.backoffJitter, 100ms);
}

// The public pool on the real TaskRunner, with fast fallback: what a user's program does.
TEST(AddressPolicyRealTimeTest, PoolWarmsOnTheBackgroundTaskRunner) {
  MockWebServer server;
  server.start();
  auto pool = std::make_shared<ConnectionPool>();
  Client client = Client::Builder().connectionPool(pool).proxy(Proxy::direct()).build();
  pool->setPolicy(client.address(server.url("/")), {.minimumConcurrentCalls = 2});
  auto deadline = std::chrono::steady_clock::now() + 10s;
  while (pool->connectionCount() < 2 && std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(5ms);
  }
  EXPECT_EQ(pool->connectionCount(), 2);
  server.enqueue(MockResponse::Builder().body("warm").build());
  EXPECT_EQ(
      client.newCall(Request::Builder().url(server.url("/")).build())->execute().body()->string(),
      "warm");
  EXPECT_LT(server.takeRequest().connectionIndex(), 2);
  EXPECT_EQ(pool->connectionCount(), 2);
  pool->setPolicy(client.address(server.url("/")), {});
  pool->evictAll();
}

// A warming stuck in a TLS handshake (a server that accepts TCP and never answers) ends when the
// pool goes, not when its connect timeout fires.
TEST(AddressPolicyRealTimeTest, DestroyingThePoolStopsAWarmingInProgress) {
  int listener = ::socket(AF_INET, SOCK_STREAM, 0);
  ASSERT_GE(listener, 0);
  sockaddr_in local{};
  local.sin_family = AF_INET;
  local.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  ASSERT_EQ(::bind(listener, reinterpret_cast<sockaddr*>(&local), sizeof(local)), 0);
  ASSERT_EQ(::listen(listener, 8), 0);  // The kernel completes the TCP handshake; no one reads.
  socklen_t length = sizeof(local);
  ASSERT_EQ(::getsockname(listener, reinterpret_cast<sockaddr*>(&local), &length), 0);
  const std::string url = "https://127.0.0.1:" + std::to_string(ntohs(local.sin_port)) + "/";

  auto pool = std::make_shared<ConnectionPool>();
  {
    Client client = Client::Builder()
                        .connectionPool(pool)
                        .proxy(Proxy::direct())
                        .connectTimeout(30s)
                        .handshakeCertificates(TestCertificates().clientTrust())
                        .build();
    pool->setPolicy(client.address(HttpUrl::get(url)), {.minimumConcurrentCalls = 1});
  }
  std::this_thread::sleep_for(200ms);  // The warming is in the handshake now.
  auto start = std::chrono::steady_clock::now();
  pool.reset();
  EXPECT_LT(std::chrono::steady_clock::now() - start, 5s);
  ::close(listener);
}

}  // namespace
}  // namespace tern::testing
