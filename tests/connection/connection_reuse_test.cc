// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
// When connections are reused and when they must not be, seen from MockWebServer's connection
// indices (OkHttp's ConnectionReuseTest), and that no body, read or not, leaks its connection.
#include <gtest/gtest.h>

#include <thread>

#include "call/call_fixture.h"

namespace tern::testing {
namespace {

class ConnectionReuseTest : public CallFixture {
 protected:
  // Asserts that the next requests the server took came on connections `indices`.
  void assertConnections(std::initializer_list<int> indices) {
    for (int index : indices) EXPECT_EQ(server.takeRequest().connectionIndex(), index);
  }
  int connectionCount() const { return client.connectionPool()->connectionCount(); }
  int idleConnectionCount() const { return client.connectionPool()->idleConnectionCount(); }
};

TEST_F(ConnectionReuseTest, ConnectionsAreReused) {
  server.enqueue(body("a"));
  server.enqueue(body("b"));
  server.enqueue(body("c"));
  EXPECT_EQ(fetch(), "a");
  EXPECT_EQ(fetch(), "b");
  EXPECT_EQ(fetch(), "c");
  for (int sequence = 0; sequence < 3; ++sequence) {
    RecordedRequest request = server.takeRequest();
    EXPECT_EQ(request.connectionIndex(), 0);
    EXPECT_EQ(request.sequenceNumber(), sequence);
  }
  EXPECT_EQ(connectionCount(), 1);
}

TEST_F(ConnectionReuseTest, ConnectionsAreReusedForPosts) {
  server.enqueue(body("a"));
  server.enqueue(body("b"));
  for (const char* content : {"request body a", "request body b"}) {
    execute(Request::Builder().url(server.url("/")).post(RequestBody::create(content)).build())
        .body()
        ->string();
  }
  assertConnections({0, 0});
}

TEST_F(ConnectionReuseTest, ConnectionsAreReusedForChunkedBodies) {
  server.enqueue(MockResponse::Builder().chunkedBody("chunked a", 2).build());
  server.enqueue(MockResponse::Builder().chunkedBody("chunked b", 3).build());
  EXPECT_EQ(fetch(), "chunked a");
  EXPECT_EQ(fetch(), "chunked b");
  assertConnections({0, 0});
}

TEST_F(ConnectionReuseTest, PoolWithoutIdleConnectionsNeverReuses) {
  client = client.newBuilder().connectionPool(std::make_shared<ConnectionPool>(0)).build();
  server.enqueue(body("a"));
  server.enqueue(body("b"));
  EXPECT_EQ(fetch(), "a");
  EXPECT_EQ(connectionCount(), 0);
  EXPECT_EQ(fetch(), "b");
  assertConnections({0, 1});
}

TEST_F(ConnectionReuseTest, UnreadBodyIsDrainedWhenDestroyedAndTheConnectionReused) {
  server.enqueue(body("unread body"));
  server.enqueue(body("b"));
  {
    Response response = execute();
    EXPECT_EQ(idleConnectionCount(), 0);  // Held by the open body.
  }
  EXPECT_EQ(idleConnectionCount(), 1);
  EXPECT_EQ(fetch(), "b");
  assertConnections({0, 0});
}

TEST_F(ConnectionReuseTest, UnreadChunkedBodyIsDrainedWhenClosed) {
  server.enqueue(MockResponse::Builder().chunkedBody("never read by anyone", 4).build());
  server.enqueue(body("b"));
  Response response = execute();
  response.body()->close();
  EXPECT_EQ(idleConnectionCount(), 1);
  EXPECT_EQ(fetch(), "b");
  assertConnections({0, 0});
}

TEST_F(ConnectionReuseTest, PartlyReadBodyIsDrainedWhenClosed) {
  server.enqueue(body("abcdefghijklmnopqrstuvwxyz"));
  server.enqueue(body("b"));
  Response response = execute();
  EXPECT_EQ(response.body()->source().readUtf8(5), "abcde");
  response.body()->close();
  EXPECT_EQ(fetch(), "b");
  assertConnections({0, 0});
}

TEST_F(ConnectionReuseTest, SlowUnreadBodyIsNotWaitedForAndItsConnectionIsClosed) {
  // Draining would take seconds: the client gives up after a short while and closes instead.
  server.enqueue(
      MockResponse::Builder().throttleBody(1, 100ms).body(std::string(100, 'x')).build());
  server.enqueue(body("b"));
  auto start = std::chrono::steady_clock::now();
  { Response response = execute(); }
  EXPECT_LT(std::chrono::steady_clock::now() - start, 2s);
  EXPECT_EQ(connectionCount(), 0);
  EXPECT_EQ(fetch(), "b");
  assertConnections({0, 1});
}

TEST_F(ConnectionReuseTest, BodyReadToItsLengthReleasesTheConnectionWithoutClose) {
  server.enqueue(body("exact"));
  Response response = execute();
  EXPECT_EQ(response.body()->source().readUtf8(5), "exact");
  EXPECT_EQ(idleConnectionCount(), 1);
}

TEST_F(ConnectionReuseTest, OpenResponseKeepsItsConnectionFromOtherCalls) {
  server.enqueue(body("a"));
  server.enqueue(body("b"));
  Response first = execute();
  EXPECT_EQ(fetch(), "b");  // Needs its own connection.
  EXPECT_EQ(first.body()->string(), "a");
  assertConnections({0, 1});
  EXPECT_EQ(connectionCount(), 2);
  EXPECT_EQ(idleConnectionCount(), 2);
}

TEST_F(ConnectionReuseTest, IdleConnectionsAreClosedAfterTheKeepAlive) {
  client = client.newBuilder().connectionPool(std::make_shared<ConnectionPool>(5, 200ms)).build();
  server.enqueue(body("a"));
  server.enqueue(body("b"));
  EXPECT_EQ(fetch(), "a");
  EXPECT_EQ(connectionCount(), 1);
  ASSERT_TRUE(eventually([&] { return connectionCount() == 0; }));
  EXPECT_EQ(fetch(), "b");
  assertConnections({0, 1});
}

TEST_F(ConnectionReuseTest, IdleLimitIsEnforced) {
  client = client.newBuilder().connectionPool(std::make_shared<ConnectionPool>(1, 1min)).build();
  for (int i = 0; i < 3; ++i) server.enqueue(body("x"));
  {
    Response a = execute();
    Response b = execute();
    Response c = execute();
    EXPECT_EQ(connectionCount(), 3);
  }
  ASSERT_TRUE(eventually([&] { return connectionCount() == 1; }));
  EXPECT_EQ(idleConnectionCount(), 1);
}

TEST_F(ConnectionReuseTest, EvictAllForcesANewConnection) {
  server.enqueue(body("a"));
  server.enqueue(body("b"));
  EXPECT_EQ(fetch(), "a");
  client.connectionPool()->evictAll();
  EXPECT_EQ(connectionCount(), 0);
  EXPECT_EQ(fetch(), "b");
  assertConnections({0, 1});
}

TEST_F(ConnectionReuseTest, ClientsFromNewBuilderShareConnections) {
  server.enqueue(body("a"));
  server.enqueue(body("b"));
  Client derived =
      client.newBuilder()
          .readTimeout(3s)
          .addInterceptor([](Interceptor::Chain& chain) { return chain.proceed(chain.request()); })
          .build();
  EXPECT_EQ(fetch(), "a");
  EXPECT_EQ(derived.newCall(get())->execute().body()->string(), "b");
  assertConnections({0, 0});
}

TEST_F(ConnectionReuseTest, ClientsWithADifferentDnsDoNotShareConnections) {
  server.enqueue(body("a"));
  server.enqueue(body("b"));
  Client derived = client.newBuilder().dns(std::make_shared<FakeDns>()).build();
  EXPECT_EQ(fetch(), "a");
  EXPECT_EQ(derived.newCall(get())->execute().body()->string(), "b");
  assertConnections({0, 1});
}

TEST_F(ConnectionReuseTest, DifferentHostNamesForOneAddressDoNotShareConnections) {
  auto dns = std::make_shared<FakeDns>();
  dns->set("localhost", {InetAddress::loopbackIpv4()});
  client = client.newBuilder().dns(dns).build();
  server.enqueue(body("a"));
  server.enqueue(body("b"));
  EXPECT_EQ(fetch(), "a");
  execute(Request::Builder().url(server.url("/").newBuilder().host("localhost").build()).build())
      .body()
      ->string();
  assertConnections({0, 1});
}

TEST_F(ConnectionReuseTest, BrokenResponseIsNotReused) {
  server.enqueue(MockResponse::Builder()
                     .clearHeaders()
                     .addHeader("Transfer-Encoding", "chunked")
                     .body("5\r\nab")  // A chunk cut short; the connection stays open.
                     .build());
  server.enqueue(body("b"));
  client = client.newBuilder().readTimeout(300ms).build();
  Response response = execute();
  EXPECT_THROW(response.body()->string(), IOException);
  EXPECT_EQ(connectionCount(), 0);
  EXPECT_EQ(fetch(), "b");
  assertConnections({0, 1});
}

TEST_F(ConnectionReuseTest, ConnectionsAreReusedByEnqueuedCalls) {
  server.enqueue(body("a"));
  server.enqueue(body("b"));
  auto callback = std::make_shared<RecordingCallback>();
  client.newCall(get("/a"))->enqueue(callback);
  EXPECT_EQ(callback->await(url("/a")).body, "a");
  ASSERT_TRUE(eventually([&] { return idleConnectionCount() == 1; }));
  client.newCall(get("/b"))->enqueue(callback);
  EXPECT_EQ(callback->await(url("/b")).body, "b");
  assertConnections({0, 0});
}

TEST_F(ConnectionReuseTest, ResponsesDestroyedUnreadAcrossManyCallsLeakNothing) {
  for (int i = 0; i < 20; ++i)
    server.enqueue(MockResponse::Builder().chunkedBody(std::string(3000, 'z'), 512).build());
  for (int i = 0; i < 20; ++i) {
    Response response = execute();  // Destroyed unread.
  }
  EXPECT_EQ(connectionCount(), 1);
  EXPECT_EQ(idleConnectionCount(), 1);
  EXPECT_EQ(server.requestCount(), 20);
}

TEST_F(ConnectionReuseTest, ResponseMovedToAnotherThreadStillReleasesItsConnection) {
  server.enqueue(body("moved"));
  Response response = execute();
  std::thread other([moved = std::move(response)]() mutable { moved.body()->close(); });
  other.join();
  EXPECT_EQ(idleConnectionCount(), 1);
}

}  // namespace
}  // namespace tern::testing
