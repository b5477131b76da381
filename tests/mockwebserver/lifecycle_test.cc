// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
// MockWebServer::close() ends everything promptly and leaves no thread or descriptor behind.
#include <gtest/gtest.h>

#include <chrono>
#include <optional>
#include <string>
#include <thread>

#include "raw_client.h"
#include "tern/mockwebserver/mock_web_server.h"

namespace tern::mockwebserver {
namespace {

using namespace std::chrono_literals;
using testing::countProcEntries;
using testing::RawClient;

// close() must return well before a hung thread would be noticed; generous for slow sanitizers.
constexpr auto kPromptly = 5s;

std::chrono::steady_clock::duration timeClose(MockWebServer& server) {
  const auto start = std::chrono::steady_clock::now();
  server.close();
  return std::chrono::steady_clock::now() - start;
}

TEST(MockWebServerLifecycleTest, CloseWithoutStartIsHarmless) {
  MockWebServer server;
  server.close();
  EXPECT_FALSE(server.started());
}

TEST(MockWebServerLifecycleTest, CloseWhileAClientIsIdleOnAKeptAliveConnection) {
  MockWebServer server;
  server.enqueue(MockResponse());
  RawClient client(server.port());
  client.send("GET / HTTP/1.1\r\n\r\n");
  client.readResponse();
  EXPECT_LT(timeClose(server), kPromptly);
  EXPECT_TRUE(client.closedByServer());
}

TEST(MockWebServerLifecycleTest, CloseWhileAClientIsMidRequest) {
  MockWebServer server;
  server.enqueue(MockResponse());
  RawClient client(server.port());
  client.send("POST / HTTP/1.1\r\nContent-Length: 100\r\n\r\npartial");
  ASSERT_FALSE(server.takeRequest(50ms));  // Still reading the body.
  EXPECT_LT(timeClose(server), kPromptly);
  EXPECT_TRUE(client.closedByServer());
  // A request cut short by close() is not recorded as a client failure.
  EXPECT_FALSE(server.takeRequest(0ms));
}

TEST(MockWebServerLifecycleTest, CloseReleasesADispatchWaitingOnAnEmptyQueue) {
  MockWebServer server;
  server.start();
  RawClient client(server.port());
  client.send("GET / HTTP/1.1\r\n\r\n");
  ASSERT_TRUE(server.takeRequest(10s));  // Recorded, now waiting for a response to be enqueued.
  EXPECT_LT(timeClose(server), kPromptly);
  // The 503 that releases the dispatcher is never sent.
  EXPECT_EQ(client.readToEnd(), "");
}

TEST(MockWebServerLifecycleTest, CloseInterruptsDelaysAndThrottling) {
  for (MockResponse response :
       {MockResponse::Builder().headersDelay(1h).build(),
        MockResponse::Builder().body("x").bodyDelay(1h).build(),
        MockResponse::Builder().body("0123456789").throttleBody(1, 1h).build()}) {
    MockWebServer server;
    server.enqueue(response);
    RawClient client(server.port());
    client.send("GET / HTTP/1.1\r\n\r\n");
    ASSERT_TRUE(server.takeRequest(10s));
    EXPECT_LT(timeClose(server), kPromptly);
  }
}

TEST(MockWebServerLifecycleTest, CloseWhileWritingToAClientThatDoesNotRead) {
  MockWebServer server;
  server.enqueue(MockResponse::Builder().body(std::string(32 * 1024 * 1024, 'x')).build());
  RawClient client(server.port());
  client.send("GET / HTTP/1.1\r\n\r\n");
  ASSERT_TRUE(server.takeRequest(10s));
  std::this_thread::sleep_for(50ms);  // Let the server fill the socket buffers and block.
  EXPECT_LT(timeClose(server), kPromptly);
}

TEST(MockWebServerLifecycleTest, CloseWithStalledAndNoResponseConnections) {
  MockWebServer server;
  // Stalled first: its bookkeeping request is dispatched before it is recorded, so the next
  // connection reliably peeks NoResponse.
  server.enqueue(MockResponse::Builder().socketPolicy(SocketPolicy::StallSocketAtStart{}).build());
  server.enqueue(MockResponse::Builder().socketPolicy(SocketPolicy::NoResponse{}).build());
  RawClient stalled(server.port());
  ASSERT_TRUE(server.takeRequest(10s));
  RawClient noResponse(server.port());
  noResponse.send("GET / HTTP/1.1\r\n\r\n");
  ASSERT_TRUE(server.takeRequest(10s));
  EXPECT_LT(timeClose(server), kPromptly);
  EXPECT_TRUE(noResponse.closedByServer());
  EXPECT_TRUE(stalled.closedByServer());
}

TEST(MockWebServerLifecycleTest, RecordedRequestsOutliveClose) {
  MockWebServer server;
  server.enqueue(MockResponse());
  {
    RawClient client(server.port());
    client.send("GET /kept HTTP/1.1\r\n\r\n");
    client.readResponse();
  }
  server.close();
  EXPECT_EQ(server.takeRequest().path(), "/kept");
  EXPECT_EQ(server.requestCount(), 1);
}

TEST(MockWebServerLifecycleTest, NoThreadsOrDescriptorsLeak) {
  const int threadsBefore = countProcEntries("task");
  const int fdsBefore = countProcEntries("fd");
  {
    std::optional<RawClient> clients[5];  // Declared first, so the server is destroyed first.
    MockWebServer server;
    server.enqueue(MockResponse::Builder().body("a").build());
    server.enqueue(MockResponse::Builder().socketPolicy(SocketPolicy::DisconnectAtStart{}).build());
    server.enqueue(MockResponse::Builder().socketPolicy(SocketPolicy::DisconnectAtEnd{}).build());
    server.enqueue(MockResponse::Builder().socketPolicy(SocketPolicy::NoResponse{}).build());
    server.enqueue(
        MockResponse::Builder().socketPolicy(SocketPolicy::StallSocketAtStart{}).build());
    for (auto& client : clients) {
      client.emplace(server.port());
      client->send("GET / HTTP/1.1\r\n\r\n");
      ASSERT_TRUE(server.takeRequest(10s));
    }
    EXPECT_GT(countProcEntries("task"), threadsBefore);
    // The server's destructor closes it with every client still connected.
  }
  EXPECT_EQ(countProcEntries("task"), threadsBefore);
  EXPECT_EQ(countProcEntries("fd"), fdsBefore);
}

}  // namespace
}  // namespace tern::mockwebserver
