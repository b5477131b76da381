// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#include "tern/mockwebserver/socket_policy.h"

#include <gtest/gtest.h>

#include <chrono>
#include <string>
#include <thread>

#include "raw_client.h"
#include "tern/exceptions.h"
#include "tern/mockwebserver/mock_web_server.h"

namespace tern::mockwebserver {
namespace {

using namespace std::chrono_literals;
using testing::RawClient;

MockResponse withPolicy(SocketPolicy policy, std::string_view body = "") {
  return MockResponse::Builder().body(body).socketPolicy(std::move(policy)).build();
}

// Waits until the server has recorded `count` requests (the server records before it acts on a
// policy, so this orders a test's checks after the server's action).
void awaitRequestCount(MockWebServer& server, int count) {
  const auto deadline = std::chrono::steady_clock::now() + 10s;
  while (server.requestCount() < count && std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(1ms);
  }
  ASSERT_EQ(server.requestCount(), count);
}

TEST(SocketPolicyTest, DefaultIsKeepOpenAndNamesMatchOkHttp) {
  EXPECT_TRUE(SocketPolicy().is<SocketPolicy::KeepOpen>());
  EXPECT_EQ(SocketPolicy().toString(), "KeepOpen");
  EXPECT_EQ(SocketPolicy(SocketPolicy::StallSocketAtStart{}).toString(), "StallSocketAtStart");
  EXPECT_EQ(SocketPolicy(SocketPolicy::DoNotReadRequestBody{8}).toString(),
            "DoNotReadRequestBody(http2ErrorCode=8)");
}

TEST(SocketPolicyTest, EqualityComparesAlternativeAndFields) {
  EXPECT_EQ(SocketPolicy(SocketPolicy::DisconnectAtEnd{}), SocketPolicy::DisconnectAtEnd{});
  EXPECT_NE(SocketPolicy(SocketPolicy::DisconnectAtEnd{}), SocketPolicy::DisconnectAtStart{});
  EXPECT_NE(SocketPolicy(SocketPolicy::DoNotReadRequestBody{1}),
            SocketPolicy(SocketPolicy::DoNotReadRequestBody{2}));
  SocketPolicy policy = SocketPolicy::DoNotReadRequestBody{5};
  ASSERT_NE(policy.getIf<SocketPolicy::DoNotReadRequestBody>(), nullptr);
  EXPECT_EQ(policy.getIf<SocketPolicy::DoNotReadRequestBody>()->http2ErrorCode, 5u);
  EXPECT_EQ(policy.getIf<SocketPolicy::KeepOpen>(), nullptr);
}

TEST(SocketPolicyTest, KeepOpenServesTheNextRequestOnTheSameConnection) {
  MockWebServer server;
  server.enqueue(withPolicy(SocketPolicy::KeepOpen{}, "a"));
  server.enqueue(MockResponse::Builder().body("b").build());
  RawClient client(server.port());
  client.send("GET / HTTP/1.1\r\n\r\n");
  EXPECT_TRUE(client.readResponse().ends_with("a"));
  client.send("GET / HTTP/1.1\r\n\r\n");
  EXPECT_TRUE(client.readResponse().ends_with("b"));
}

TEST(SocketPolicyTest, DisconnectAtStartClosesBeforeReadingAndRecordsABookkeepingRequest) {
  MockWebServer server;
  server.enqueue(withPolicy(SocketPolicy::DisconnectAtStart{}));
  server.enqueue(MockResponse::Builder().body("second").build());
  {
    RawClient client(server.port());
    client.send("GET / HTTP/1.1\r\n\r\n");
    EXPECT_TRUE(client.closedByServer());
  }
  RecordedRequest bookkeeping = server.takeRequest();
  EXPECT_EQ(bookkeeping.requestLine(), "");
  EXPECT_EQ(bookkeeping.connectionIndex(), 0);
  // The refused attempt consumed its response: the retry gets the next one.
  RawClient retry(server.port());
  retry.send("GET / HTTP/1.1\r\n\r\n");
  EXPECT_TRUE(retry.readResponse().ends_with("second"));
  RecordedRequest request = server.takeRequest();
  EXPECT_EQ(request.requestLine(), "GET / HTTP/1.1");
  EXPECT_EQ(request.connectionIndex(), 1);
  EXPECT_EQ(server.requestCount(), 2);
}

TEST(SocketPolicyTest, DisconnectAtEndClosesAfterTheResponse) {
  MockWebServer server;
  server.enqueue(withPolicy(SocketPolicy::DisconnectAtEnd{}, "bye"));
  RawClient client(server.port());
  client.send("GET / HTTP/1.1\r\n\r\n");
  EXPECT_EQ(client.readToEnd(), "HTTP/1.1 200 OK\r\nContent-Length: 3\r\n\r\nbye");
}

TEST(SocketPolicyTest, DisconnectAfterRequestReadsTheRequestAndSendsNothing) {
  MockWebServer server;
  server.enqueue(withPolicy(SocketPolicy::DisconnectAfterRequest{}, "never"));
  RawClient client(server.port());
  client.send("POST / HTTP/1.1\r\nContent-Length: 4\r\n\r\nbody");
  EXPECT_TRUE(client.closedByServer());
  RecordedRequest request = server.takeRequest();
  EXPECT_EQ(request.bodyUtf8(), "body");
  EXPECT_FALSE(request.failure());
}

TEST(SocketPolicyTest, HalfCloseAfterRequestEndsTheStreamWithoutAResponse) {
  MockWebServer server;
  server.enqueue(withPolicy(SocketPolicy::HalfCloseAfterRequest{}, "never"));
  RawClient client(server.port());
  client.send("GET / HTTP/1.1\r\n\r\n");
  EXPECT_EQ(client.readToEnd(), "");
  EXPECT_EQ(server.takeRequest().path(), "/");
}

TEST(SocketPolicyTest, DisconnectDuringRequestBodyClosesHalfway) {
  MockWebServer server;
  server.enqueue(withPolicy(SocketPolicy::DisconnectDuringRequestBody{}, "never"));
  server.enqueue(MockResponse::Builder().body("next").build());
  RawClient client(server.port());
  client.send("POST / HTTP/1.1\r\nContent-Length: 1000\r\n\r\n");
  client.send(std::string(1000, 'x'));  // May fail partway: the server stops reading.
  EXPECT_TRUE(client.closedByServer());
  RecordedRequest request = server.takeRequest();
  EXPECT_EQ(request.bodySize(), 500);
  EXPECT_EQ(request.bodyUtf8(), std::string(500, 'x'));
  EXPECT_TRUE(request.failure());
  // The disconnect consumed its response.
  RawClient retry(server.port());
  retry.send("GET / HTTP/1.1\r\n\r\n");
  EXPECT_TRUE(retry.readResponse().ends_with("next"));
}

TEST(SocketPolicyTest, DisconnectDuringChunkedRequestBodyClosesHalfwayThroughTheFirstChunk) {
  MockWebServer server;
  server.enqueue(withPolicy(SocketPolicy::DisconnectDuringRequestBody{}));
  RawClient client(server.port());
  client.send("POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n8\r\n01234567\r\n0\r\n\r\n");
  EXPECT_TRUE(client.closedByServer());
  RecordedRequest request = server.takeRequest();
  EXPECT_EQ(request.bodyUtf8(), "0123");
  EXPECT_EQ(request.chunkSizes(), std::vector<int64_t>{8});
  EXPECT_TRUE(request.failure());
}

TEST(SocketPolicyTest, DisconnectDuringResponseBodySendsHalfTheBody) {
  MockWebServer server;
  server.enqueue(withPolicy(SocketPolicy::DisconnectDuringResponseBody{}, "0123456789"));
  RawClient client(server.port());
  client.send("GET / HTTP/1.1\r\n\r\n");
  EXPECT_EQ(client.readToEnd(), "HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\n01234");
}

TEST(SocketPolicyTest, DisconnectDuringChunkedResponseBodyCutsTheEncodedBytes) {
  MockWebServer server;
  server.enqueue(MockResponse::Builder()
                     .chunkedBody("abcdef", 3)  // "3\r\nabc\r\n3\r\ndef\r\n0\r\n": 19 bytes.
                     .socketPolicy(SocketPolicy::DisconnectDuringResponseBody{})
                     .build());
  RawClient client(server.port());
  client.send("GET / HTTP/1.1\r\n\r\n");
  EXPECT_EQ(client.readToEnd(),
            "HTTP/1.1 200 OK\r\nTransfer-encoding: chunked\r\n\r\n3\r\nabc\r\n3");
}

TEST(SocketPolicyTest, DoNotReadRequestBodyRespondsAndThenCloses) {
  MockWebServer server;
  server.enqueue(withPolicy(SocketPolicy::DoNotReadRequestBody{}, "early"));
  RawClient client(server.port());
  client.send("POST / HTTP/1.1\r\nContent-Length: 5\r\n\r\n");  // The body is never sent.
  EXPECT_EQ(client.readToEnd(), "HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nearly");
  RecordedRequest request = server.takeRequest();
  EXPECT_EQ(request.bodySize(), 0);
  EXPECT_FALSE(request.failure());
}

TEST(SocketPolicyTest, ShutdownInputAtEndEndsTheConnectionAfterTheResponse) {
  MockWebServer server;
  server.enqueue(withPolicy(SocketPolicy::ShutdownInputAtEnd{}, "a"));
  RawClient client(server.port());
  client.send("GET / HTTP/1.1\r\n\r\n");
  EXPECT_TRUE(client.readResponse().ends_with("a"));
  // Without sending anything more: the server's input is shut, it reads end of stream, and the
  // connection closes. (A request sent right after the response would race the shutdown; see
  // SocketPolicy.)
  EXPECT_TRUE(client.closedByServer());
  EXPECT_EQ(server.requestCount(), 1);
}

TEST(SocketPolicyTest, ShutdownOutputAtEndEndsTheStreamButKeepsReading) {
  MockWebServer server;
  server.enqueue(withPolicy(SocketPolicy::ShutdownOutputAtEnd{}, "a"));
  server.enqueue(MockResponse::Builder().body("b").build());
  RawClient client(server.port());
  client.send("GET /1 HTTP/1.1\r\n\r\n");
  EXPECT_EQ(client.readToEnd(), "HTTP/1.1 200 OK\r\nContent-Length: 1\r\n\r\na");
  // The server still reads this connection: a second request arrives, with no way to answer.
  client.send("GET /2 HTTP/1.1\r\n\r\n");
  server.takeRequest();
  RecordedRequest second = server.takeRequest();
  EXPECT_EQ(second.path(), "/2");
  EXPECT_EQ(second.sequenceNumber(), 1);
}

TEST(SocketPolicyTest, ShutdownServerAfterResponseStopsAcceptingConnections) {
  MockWebServer server;
  server.enqueue(withPolicy(SocketPolicy::ShutdownServerAfterResponse{}, "last"));
  const int port = server.port();
  {
    RawClient client(port);
    client.send("GET / HTTP/1.1\r\n\r\n");
    EXPECT_TRUE(client.readResponse().ends_with("last"));
    EXPECT_TRUE(client.closedByServer());
  }
  // The listening socket closes shortly after the response.
  bool refused = false;
  for (int i = 0; i < 1000 && !refused; ++i) {
    try {
      RawClient probe(port);
      std::this_thread::sleep_for(5ms);
    } catch (const std::runtime_error&) {
      refused = true;
    }
  }
  EXPECT_TRUE(refused);
  server.close();
}

TEST(SocketPolicyTest, StallSocketAtStartIgnoresTheConnectionUntilClose) {
  MockWebServer server;
  server.enqueue(withPolicy(SocketPolicy::StallSocketAtStart{}, "never"));
  RawClient client(server.port());
  client.send("GET / HTTP/1.1\r\n\r\n");
  RecordedRequest bookkeeping = server.takeRequest();
  EXPECT_EQ(bookkeeping.requestLine(), "");
  EXPECT_FALSE(client.readableWithin(100ms));
  EXPECT_EQ(server.requestCount(), 1);  // The request sent was never read.
  const auto start = std::chrono::steady_clock::now();
  server.close();
  EXPECT_LT(std::chrono::steady_clock::now() - start, 5s);
  EXPECT_TRUE(client.closedByServer());
}

TEST(SocketPolicyTest, NoResponseReadsTheRequestAndNeverAnswers) {
  MockWebServer server;
  server.enqueue(withPolicy(SocketPolicy::NoResponse{}, "never"));
  server.enqueue(MockResponse::Builder().body("next").build());
  RawClient client(server.port());
  client.send("POST / HTTP/1.1\r\nContent-Length: 2\r\n\r\nhi");
  EXPECT_EQ(server.takeRequest().bodyUtf8(), "hi");
  EXPECT_FALSE(client.readableWithin(100ms));
  client.close();
  // Other connections are unaffected.
  RawClient other(server.port());
  other.send("GET / HTTP/1.1\r\n\r\n");
  EXPECT_TRUE(other.readResponse().ends_with("next"));
}

TEST(SocketPolicyTest, PeekedPolicyAppliesToTheConnectionThatArrives) {
  // A custom dispatcher's peek() decides connection-level policies.
  class Stalling : public Dispatcher {
   public:
    MockResponse dispatch(const RecordedRequest&) override { return MockResponse(); }
    MockResponse peek() override { return withPolicy(SocketPolicy::DisconnectAtStart{}); }
  };
  MockWebServer server;
  server.setDispatcher(std::make_shared<Stalling>());
  RawClient client(server.port());
  EXPECT_TRUE(client.closedByServer());
  awaitRequestCount(server, 1);
  EXPECT_EQ(server.takeRequest().requestLine(), "");
}

}  // namespace
}  // namespace tern::mockwebserver
