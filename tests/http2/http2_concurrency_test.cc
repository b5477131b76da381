// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
// Many calls on one HTTP/2 connection, and the stream limits that spread them over more. What
// holds for any multiplexed transport runs over h2c and over HTTP/3 (MultiplexedConcurrencyTest;
// Transport in http2_fixture.h); the limits a response's SETTINGS set are HTTP/2's.
#include <gtest/gtest.h>

#include <future>
#include <set>
#include <thread>
#include <vector>

#include "http2_fixture.h"
#include "tern/buffered_source.h"
#include "tern/exceptions.h"

namespace tern::testing {
namespace {

class MultiplexedConcurrencyTest : public Http2Fixture,
                                   public ::testing::WithParamInterface<Transport> {
 protected:
  void SetUp() override { use(GetParam()); }
};

// Tests of HTTP/2's SETTINGS_MAX_CONCURRENT_STREAMS, which a response sends
// (MockResponse::settings()); MockWebServer's HTTP/3 side has no such setting.
using Http2ConcurrencyTest = Http2Fixture;

// Runs `count` calls at once (one thread each) and returns their bodies.
std::vector<std::string> fetchConcurrently(Client& client, const Request& request, int count) {
  std::vector<std::future<std::string>> futures;
  for (int i = 0; i < count; ++i) {
    futures.push_back(std::async(std::launch::async, [&client, request] {
      return client.newCall(request)->execute().body()->string();
    }));
  }
  std::vector<std::string> bodies;
  for (auto& future : futures) bodies.push_back(future.get());
  return bodies;
}

TEST_P(MultiplexedConcurrencyTest, ConcurrentCallsMultiplexOnOneConnection) {
  server.setDispatcher([](const RecordedRequest& request) {
    return MockResponse::Builder().body("stream " + std::to_string(request.streamId())).build();
  });
  std::vector<std::string> bodies = fetchConcurrently(client, get("/"), 10);
  std::set<int> streamIds;
  for (int i = 0; i < 10; ++i) {
    RecordedRequest request = server.takeRequest();
    EXPECT_EQ(request.connectionIndex(), 0);
    streamIds.insert(request.streamId());
  }
  std::set<int> expected;
  for (int i = 0; i < 10; ++i) expected.insert(streamId(i));
  EXPECT_EQ(streamIds, expected);
  for (const std::string& body : bodies) EXPECT_TRUE(body.starts_with("stream "));
  EXPECT_EQ(client.connectionPool()->connectionCount(), 1);
}

TEST_P(MultiplexedConcurrencyTest, AsyncCallsThroughTheDispatcherShareOneConnection) {
  for (int i = 0; i < 20; ++i) server.enqueue(body("ok"));
  std::promise<void> allDone;
  std::atomic<int> remaining{20};
  std::atomic<int> failures{0};
  for (int i = 0; i < 20; ++i) {
    client.newCall(get("/"))->enqueue(Callback::of(
        [&](Call&, Response response) {
          if (response.body()->string() != "ok") ++failures;
          if (--remaining == 0) allDone.set_value();
        },
        [&](Call&, const IOException&) {
          ++failures;
          if (--remaining == 0) allDone.set_value();
        }));
  }
  ASSERT_EQ(allDone.get_future().wait_for(10s), std::future_status::ready);
  EXPECT_EQ(failures, 0);
  for (int i = 0; i < 20; ++i) EXPECT_EQ(server.takeRequest().connectionIndex(), 0);
}

TEST_P(MultiplexedConcurrencyTest, OpenResponsesKeepTheConnectionBusyUntilClosed) {
  server.enqueue(body("a"));
  server.enqueue(body("b"));
  Response first = execute();
  Response second = execute();
  EXPECT_EQ(client.connectionPool()->idleConnectionCount(), 0);
  EXPECT_EQ(first.body()->string(), "a");
  EXPECT_EQ(client.connectionPool()->idleConnectionCount(), 0);
  EXPECT_EQ(second.body()->string(), "b");
  EXPECT_EQ(client.connectionPool()->idleConnectionCount(), 1);
  EXPECT_EQ(client.connectionPool()->connectionCount(), 1);
}

TEST_F(Http2ConcurrencyTest, MaxConcurrentStreamsSpreadsCallsOverConnections) {
  // The first response lowers the connection's limit to two streams.
  Http2Settings settings;
  settings.maxConcurrentStreams = 2;
  server.enqueue(MockResponse::Builder().settings(settings).build());
  EXPECT_EQ(fetch(), "");
  server.enqueue(body("ABC"));
  server.enqueue(body("DEF"));
  server.enqueue(body("GHI"));
  // Three responses held open at once: the third needs another connection.
  Response response1 = execute();
  Response response2 = execute();
  Response response3 = execute();
  EXPECT_EQ(response1.body()->string(), "ABC");
  EXPECT_EQ(response2.body()->string(), "DEF");
  EXPECT_EQ(response3.body()->string(), "GHI");
  EXPECT_EQ(server.takeRequest().connectionIndex(), 0);  // The settings request.
  EXPECT_EQ(server.takeRequest().connectionIndex(), 0);
  EXPECT_EQ(server.takeRequest().connectionIndex(), 0);
  EXPECT_EQ(server.takeRequest().connectionIndex(), 1);
}

TEST_F(Http2ConcurrencyTest, ConnectionWithRoomIsReusedAfterStreamsEnd) {
  Http2Settings settings;
  settings.maxConcurrentStreams = 1;
  server.enqueue(MockResponse::Builder().settings(settings).body("a").build());
  server.enqueue(body("b"));
  server.enqueue(body("c"));
  EXPECT_EQ(fetch(), "a");
  EXPECT_EQ(fetch(), "b");
  EXPECT_EQ(fetch(), "c");
  for (int i = 0; i < 3; ++i) EXPECT_EQ(server.takeRequest().connectionIndex(), 0);
}

TEST_F(Http2ConcurrencyTest, LoweredLimitRescindsAnAllocatedButUnstartedCall) {
  // Call B takes a share of the connection, then waits in a network interceptor (after the
  // connection is allocated, before its stream opens) while call A's response lowers the
  // limit to one stream and stays open. B's stream no longer fits: it goes elsewhere.
  std::promise<void> allocated;
  std::promise<void> proceed;
  std::shared_future<void> proceedFuture = proceed.get_future().share();
  std::atomic<int> attempts{0};
  Client clientB = client.newBuilder()
                       .addNetworkInterceptor([&](Interceptor::Chain& chain) {
                         if (attempts++ == 0) {  // The retry elsewhere goes straight through.
                           allocated.set_value();
                           proceedFuture.wait();
                         }
                         return chain.proceed(chain.request());
                       })
                       .build();
  Http2Settings settings;
  settings.maxConcurrentStreams = 1;
  server.setDispatcher([&](const RecordedRequest& request) {
    if (request.path() == "/a") {
      // The body comes later, so A's stream stays open while B tries to open its own.
      return MockResponse::Builder().settings(settings).body("A").bodyDelay(500ms).build();
    }
    return MockResponse::Builder().body("B").build();
  });
  auto callB = std::async(std::launch::async,
                          [&] { return clientB.newCall(get("/b"))->execute().body()->string(); });
  ASSERT_EQ(allocated.get_future().wait_for(5s), std::future_status::ready);
  Response responseA = execute("/a");  // Shares the connection B holds.
  EXPECT_EQ(client.connectionPool()->connectionCount(), 1);
  // The SETTINGS came before A's response headers, so they are in force now.
  proceed.set_value();
  EXPECT_EQ(callB.get(), "B");
  EXPECT_EQ(responseA.body()->string(), "A");
  RecordedRequest a = server.takeRequest();
  RecordedRequest b = server.takeRequest();
  EXPECT_EQ(a.path(), "/a");
  EXPECT_EQ(a.connectionIndex(), 0);
  EXPECT_EQ(b.path(), "/b");
  EXPECT_EQ(b.connectionIndex(), 1);
  EXPECT_EQ(attempts, 2);
}

TEST_P(MultiplexedConcurrencyTest, CallsStartingTogetherMakeOneConnection) {
  server.setDispatcher([](const RecordedRequest&) { return body("x"); });
  std::vector<std::string> bodies = fetchConcurrently(client, get("/"), 16);
  EXPECT_EQ(bodies.size(), 16u);
  for (int i = 0; i < 16; ++i) EXPECT_EQ(server.takeRequest().connectionIndex(), 0);
  EXPECT_EQ(client.connectionPool()->connectionCount(), 1);
}

TEST_P(MultiplexedConcurrencyTest, SequenceNumbersCountStreamsOnTheConnection) {
  for (int i = 0; i < 3; ++i) server.enqueue(body("x"));
  for (int i = 0; i < 3; ++i) fetch();
  for (int i = 0; i < 3; ++i) {
    RecordedRequest request = server.takeRequest();
    EXPECT_EQ(request.sequenceNumber(), i);
    EXPECT_EQ(request.streamId(), streamId(i));
  }
}

TEST_P(MultiplexedConcurrencyTest, EvictAllClosesIdleConnectionsAndTheNextCallConnectsAgain) {
  server.enqueue(body("a"));
  server.enqueue(body("b"));
  EXPECT_EQ(fetch(), "a");
  client.connectionPool()->evictAll();
  EXPECT_EQ(client.connectionPool()->connectionCount(), 0);
  EXPECT_EQ(fetch(), "b");
  EXPECT_EQ(server.takeRequest().connectionIndex(), 0);
  EXPECT_EQ(server.takeRequest().connectionIndex(), 1);
}

INSTANTIATE_TEST_SUITE_P(Transports, MultiplexedConcurrencyTest,
                         ::testing::Values(Transport::kH2c, Transport::kH3), transportName);

}  // namespace
}  // namespace tern::testing
