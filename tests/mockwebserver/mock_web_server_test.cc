// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#include "tern/mockwebserver/mock_web_server.h"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <stdexcept>
#include <thread>
#include <vector>

#include "raw_client.h"
#include "tern/exceptions.h"

namespace tern::mockwebserver {
namespace {

using namespace std::chrono_literals;
using testing::RawClient;

TEST(MockWebServerTest, UrlStartsTheServerOnLoopback) {
  MockWebServer server;
  EXPECT_FALSE(server.started());
  HttpUrl url = server.url("/a/b?c=d");
  EXPECT_TRUE(server.started());
  EXPECT_EQ(server.hostName(), "127.0.0.1");
  EXPECT_GT(server.port(), 0);
  EXPECT_EQ(url.toString(), "http://127.0.0.1:" + std::to_string(server.port()) + "/a/b?c=d");
  EXPECT_EQ(server.url("relative").encodedPath(), "/relative");
  EXPECT_EQ(server.toString(), "MockWebServer[" + std::to_string(server.port()) + "]");
}

TEST(MockWebServerTest, StartOnNamedHostServesThere) {
  MockWebServer server;
  server.start("localhost", 0);
  EXPECT_EQ(server.hostName(), "localhost");
  EXPECT_EQ(server.url("/a").toString(),
            "http://localhost:" + std::to_string(server.port()) + "/a");
  server.enqueue(MockResponse::Builder().body("hi").build());
  RawClient client(server.port(), "localhost");
  client.send("GET / HTTP/1.1\r\nHost: localhost\r\n\r\n");
  EXPECT_TRUE(client.readResponse().ends_with("hi"));
}

TEST(MockWebServerTest, StartOnIpv6LoopbackBracketsTheHostInUrls) {
  MockWebServer server;
  server.start("::1", 0);
  EXPECT_EQ(server.hostName(), "::1");
  EXPECT_EQ(server.url("/a").toString(), "http://[::1]:" + std::to_string(server.port()) + "/a");
  server.enqueue(MockResponse::Builder().body("six").build());
  RawClient client(server.port(), "::1");
  client.send("GET /v6 HTTP/1.1\r\n\r\n");
  EXPECT_TRUE(client.readResponse().ends_with("six"));
  EXPECT_EQ(server.takeRequest().url().toString(),
            "http://[::1]:" + std::to_string(server.port()) + "/v6");
}

TEST(MockWebServerTest, StartTwiceIsHarmlessAndStartAfterCloseThrows) {
  MockWebServer server;
  server.start();
  const int port = server.port();
  server.start();
  EXPECT_EQ(server.port(), port);
  server.close();
  EXPECT_THROW(server.start(), std::logic_error);
  server.close();  // Idempotent.
}

TEST(MockWebServerTest, StartRejectsBadPortsAndHosts) {
  MockWebServer server;
  EXPECT_THROW(server.start(-1), std::invalid_argument);
  EXPECT_THROW(server.start(65536), std::invalid_argument);
  EXPECT_THROW(server.start("no-such-host.invalid", 0), UnknownHostException);
  EXPECT_FALSE(server.started());
}

TEST(MockWebServerTest, StartOnAPortInUseThrowsIOException) {
  MockWebServer first;
  first.start();
  MockWebServer second;
  EXPECT_THROW(second.start(first.port()), IOException);
}

TEST(MockWebServerTest, ServesEnqueuedResponseWithContentLength) {
  MockWebServer server;
  server.enqueue(MockResponse::Builder().addHeader("X-Test", "1").body("hello").build());
  RawClient client(server.port());
  client.send("GET / HTTP/1.1\r\nHost: x\r\n\r\n");
  EXPECT_EQ(client.readResponse(),
            "HTTP/1.1 200 OK\r\n"
            "X-Test: 1\r\n"
            "Content-Length: 5\r\n"
            "\r\n"
            "hello");
}

TEST(MockWebServerTest, RecordsRequestFields) {
  MockWebServer server;
  server.enqueue(MockResponse());
  RawClient client(server.port());
  client.send(
      "POST /path/to?q=1 HTTP/1.1\r\n"
      "Host: example.com:1234\r\n"
      "Content-Type: text/plain\r\n"
      "Content-Length: 5\r\n"
      "\r\n"
      "hello");
  client.readResponse();

  RecordedRequest request = server.takeRequest();
  EXPECT_EQ(request.requestLine(), "POST /path/to?q=1 HTTP/1.1");
  EXPECT_EQ(request.method(), "POST");
  EXPECT_EQ(request.target(), "/path/to?q=1");
  EXPECT_EQ(request.path(), "/path/to?q=1");
  EXPECT_EQ(request.version(), "HTTP/1.1");
  EXPECT_EQ(request.url().toString(), "http://example.com:1234/path/to?q=1");
  EXPECT_EQ(request.headers(), Headers::of("Host", "example.com:1234", "Content-Type", "text/plain",
                                           "Content-Length", "5"));
  EXPECT_EQ(request.bodyUtf8(), "hello");
  EXPECT_EQ(request.bodySize(), 5);
  EXPECT_TRUE(request.chunkSizes().empty());
  EXPECT_EQ(request.sequenceNumber(), 0);
  EXPECT_EQ(request.connectionIndex(), 0);
  EXPECT_FALSE(request.failure());
}

TEST(MockWebServerTest, UrlWithoutHostHeaderUsesTheServerAddress) {
  MockWebServer server;
  server.enqueue(MockResponse());
  RawClient client(server.port());
  client.send("GET /x HTTP/1.1\r\n\r\n");
  client.readResponse();
  EXPECT_EQ(server.takeRequest().url().toString(),
            "http://127.0.0.1:" + std::to_string(server.port()) + "/x");
}

TEST(MockWebServerTest, AbsoluteFormTargetBecomesTheUrl) {
  MockWebServer server;
  server.enqueue(MockResponse());
  RawClient client(server.port());
  client.send("GET http://proxied.example/a?b HTTP/1.1\r\nHost: proxied.example\r\n\r\n");
  client.readResponse();
  RecordedRequest request = server.takeRequest();
  EXPECT_EQ(request.url().toString(), "http://proxied.example/a?b");
  EXPECT_EQ(request.path(), "/a?b");
}

TEST(MockWebServerTest, ChunkedRequestBodyRecordsChunkSizes) {
  MockWebServer server;
  server.enqueue(MockResponse());
  RawClient client(server.port());
  client.send(
      "POST / HTTP/1.1\r\n"
      "Transfer-Encoding: chunked\r\n"
      "\r\n"
      "3\r\nabc\r\n"
      "A;name=value\r\n0123456789\r\n"
      "1\r\nz\r\n"
      "0\r\n"
      "Trailer: ignored\r\n"
      "\r\n");
  client.readResponse();
  RecordedRequest request = server.takeRequest();
  EXPECT_EQ(request.chunkSizes(), (std::vector<int64_t>{3, 10, 1}));
  EXPECT_EQ(request.bodyUtf8(), "abc0123456789z");
  EXPECT_EQ(request.bodySize(), 14);
  EXPECT_FALSE(request.failure());
}

TEST(MockWebServerTest, KeepAliveIncrementsSequenceNumberOnOneConnection) {
  MockWebServer server;
  server.enqueue(MockResponse::Builder().body("a").build());
  server.enqueue(MockResponse::Builder().body("b").build());
  server.enqueue(MockResponse::Builder().body("c").build());
  RawClient client(server.port());
  for (const char* expected : {"a", "b", "c"}) {
    client.send("GET / HTTP/1.1\r\n\r\n");
    std::string response = client.readResponse();
    EXPECT_TRUE(response.ends_with(expected)) << response;
  }
  for (int i = 0; i < 3; ++i) {
    RecordedRequest request = server.takeRequest();
    EXPECT_EQ(request.sequenceNumber(), i);
    EXPECT_EQ(request.connectionIndex(), 0);
  }
  EXPECT_EQ(server.requestCount(), 3);
}

TEST(MockWebServerTest, EachConnectionGetsItsOwnIndex) {
  MockWebServer server;
  for (int i = 0; i < 3; ++i) server.enqueue(MockResponse());
  for (int i = 0; i < 3; ++i) {
    RawClient client(server.port());
    client.send("GET / HTTP/1.1\r\n\r\n");
    client.readResponse();
  }
  for (int i = 0; i < 3; ++i) {
    RecordedRequest request = server.takeRequest();
    EXPECT_EQ(request.connectionIndex(), i);
    EXPECT_EQ(request.sequenceNumber(), 0);
  }
}

TEST(MockWebServerTest, PipelinedRequestsAreAnsweredInOrder) {
  MockWebServer server;
  server.enqueue(MockResponse::Builder().body("first").build());
  server.enqueue(MockResponse::Builder().body("second").build());
  RawClient client(server.port());
  client.send("GET /1 HTTP/1.1\r\n\r\nGET /2 HTTP/1.1\r\n\r\n");
  EXPECT_TRUE(client.readResponse().ends_with("first"));
  EXPECT_TRUE(client.readResponse().ends_with("second"));
  EXPECT_EQ(server.takeRequest().path(), "/1");
  EXPECT_EQ(server.takeRequest().path(), "/2");
}

TEST(MockWebServerTest, ChunkedResponseIsWrittenWithTrailers) {
  MockWebServer server;
  server.enqueue(MockResponse::Builder()
                     .chunkedBody("abcdefgh", 3)
                     .trailers(Headers::of("Checksum", "123"))
                     .build());
  RawClient client(server.port());
  client.send("GET / HTTP/1.1\r\n\r\n");
  EXPECT_EQ(client.readThrough("Checksum: 123\r\n\r\n"),
            "HTTP/1.1 200 OK\r\n"
            "Transfer-encoding: chunked\r\n"
            "\r\n"
            "3\r\nabc\r\n3\r\ndef\r\n2\r\ngh\r\n0\r\n"
            "Checksum: 123\r\n"
            "\r\n");
}

TEST(MockWebServerTest, ChunkedResponseWithoutTrailersEndsWithEmptyLine) {
  MockWebServer server;
  server.enqueue(MockResponse::Builder().chunkedBody("", 3).build());
  server.enqueue(MockResponse::Builder().body("next").build());
  RawClient client(server.port());
  client.send("GET / HTTP/1.1\r\n\r\n");
  EXPECT_EQ(client.readThrough("0\r\n\r\n"),
            "HTTP/1.1 200 OK\r\nTransfer-encoding: chunked\r\n\r\n0\r\n\r\n");
  // The connection is still in step: the next response follows.
  client.send("GET / HTTP/1.1\r\n\r\n");
  EXPECT_TRUE(client.readResponse().ends_with("next"));
}

TEST(MockWebServerTest, ThrottledBodyArrivesInPieces) {
  MockWebServer server;
  server.enqueue(MockResponse::Builder().body("0123456789ab").throttleBody(3, 40ms).build());
  RawClient client(server.port());
  client.send("GET / HTTP/1.1\r\n\r\n");
  std::string head = client.readHead();
  std::string body;
  int pieces = 0;
  while (body.size() < 12) {
    std::string piece = client.readSome();
    ASSERT_FALSE(piece.empty());
    EXPECT_LE(piece.size(), 12u);
    body += piece;
    ++pieces;
  }
  EXPECT_EQ(body, "0123456789ab");
  // Four periods of 3 bytes with a pause between each: the bytes cannot arrive all at once.
  EXPECT_GE(pieces, 2);
}

TEST(MockWebServerTest, ThrottledRequestBodyIsReadCompletely) {
  MockWebServer server;
  server.enqueue(MockResponse::Builder().throttleBody(4, 5ms).build());
  RawClient client(server.port());
  client.send("POST / HTTP/1.1\r\nContent-Length: 10\r\n\r\n0123456789");
  client.readResponse();
  EXPECT_EQ(server.takeRequest().bodyUtf8(), "0123456789");
}

TEST(MockWebServerTest, HeadersDelayHoldsBackTheWholeResponse) {
  MockWebServer server;
  server.enqueue(MockResponse::Builder().body("late").headersDelay(150ms).build());
  RawClient client(server.port());
  const auto start = std::chrono::steady_clock::now();
  client.send("GET / HTTP/1.1\r\n\r\n");
  EXPECT_FALSE(client.readableWithin(20ms));
  EXPECT_TRUE(client.readResponse().ends_with("late"));
  EXPECT_GE(std::chrono::steady_clock::now() - start, 150ms);
}

TEST(MockWebServerTest, BodyDelaySendsHeadersFirst) {
  MockWebServer server;
  server.enqueue(MockResponse::Builder().body("late").bodyDelay(150ms).build());
  RawClient client(server.port());
  client.send("GET / HTTP/1.1\r\n\r\n");
  std::string head = client.readHead();
  EXPECT_EQ(head, "HTTP/1.1 200 OK\r\nContent-Length: 4\r\n\r\n");
  const auto headersAt = std::chrono::steady_clock::now();
  EXPECT_EQ(client.readExactly(4), "late");
  EXPECT_GE(std::chrono::steady_clock::now() - headersAt, 100ms);
}

TEST(MockWebServerTest, InformationalResponsesPrecedeTheFinalResponse) {
  MockWebServer server;
  server.enqueue(MockResponse::Builder()
                     .addInformationalResponse(MockResponse::Builder()
                                                   .status("HTTP/1.1 103 Early Hints")
                                                   .addHeader("Link", "</style.css>; rel=preload")
                                                   .build())
                     .body("done")
                     .build());
  RawClient client(server.port());
  client.send("GET / HTTP/1.1\r\n\r\n");
  // A 1xx response carries no Content-Length (RFC 9110 §8.6), even the default one.
  EXPECT_EQ(client.readHead(),
            "HTTP/1.1 103 Early Hints\r\nLink: </style.css>; rel=preload\r\n\r\n");
  EXPECT_EQ(client.readResponse(), "HTTP/1.1 200 OK\r\nContent-Length: 4\r\n\r\ndone");
}

TEST(MockWebServerTest, ExpectContinueIsAnsweredBeforeTheBodyIsRead) {
  MockWebServer server;
  server.enqueue(MockResponse::Builder().add100Continue().body("thanks").build());
  server.enqueue(MockResponse::Builder().body("again").build());
  RawClient client(server.port());
  client.send("POST / HTTP/1.1\r\nExpect: 100-continue\r\nContent-Length: 3\r\n\r\n");
  EXPECT_EQ(client.readHead(), "HTTP/1.1 100 Continue\r\n\r\n");
  client.send("abc");
  EXPECT_TRUE(client.readResponse().ends_with("thanks"));
  EXPECT_EQ(server.takeRequest().bodyUtf8(), "abc");
  // The connection stays usable.
  client.send("GET / HTTP/1.1\r\n\r\n");
  EXPECT_TRUE(client.readResponse().ends_with("again"));
  EXPECT_EQ(server.takeRequest().sequenceNumber(), 1);
}

TEST(MockWebServerTest, ExpectContinueWithoutContinueRespondsWithoutReadingTheBody) {
  MockWebServer server;
  server.enqueue(MockResponse::Builder().code(417).body("no").build());
  RawClient client(server.port());
  client.send("POST / HTTP/1.1\r\nExpect: 100-continue\r\nContent-Length: 3\r\n\r\n");
  EXPECT_EQ(client.readResponse(), "HTTP/1.1 417 Client Error\r\nContent-Length: 2\r\n\r\nno");
  // The unread body would be taken for the next request, so the server ends the connection.
  EXPECT_TRUE(client.closedByServer());
  RecordedRequest request = server.takeRequest();
  EXPECT_EQ(request.bodyUtf8(), "");
  EXPECT_FALSE(request.failure());
}

TEST(MockWebServerTest, BodyLimitKeepsTheFirstBytesAndCountsAll) {
  MockWebServer server;
  server.setBodyLimit(4);
  EXPECT_EQ(server.bodyLimit(), 4);
  EXPECT_THROW(server.setBodyLimit(-1), std::invalid_argument);
  server.enqueue(MockResponse());
  RawClient client(server.port());
  client.send("POST / HTTP/1.1\r\nContent-Length: 10\r\n\r\n0123456789");
  client.readResponse();
  RecordedRequest request = server.takeRequest();
  EXPECT_EQ(request.bodyUtf8(), "0123");
  EXPECT_EQ(request.bodySize(), 10);
}

TEST(MockWebServerTest, TakeRequestWithTimeoutReturnsNulloptWhenNothingArrives) {
  MockWebServer server;
  server.start();
  EXPECT_FALSE(server.takeRequest(30ms));
  EXPECT_EQ(server.requestCount(), 0);
}

TEST(MockWebServerTest, TakeRequestWaitsForARequestStillInFlight) {
  MockWebServer server;
  server.enqueue(MockResponse());
  const int port = server.port();
  std::thread clientThread([port] {
    std::this_thread::sleep_for(50ms);
    RawClient client(port);
    client.send("GET /late HTTP/1.1\r\n\r\n");
    client.readResponse();
  });
  std::optional<RecordedRequest> request = server.takeRequest(10s);
  clientThread.join();
  ASSERT_TRUE(request);
  EXPECT_EQ(request->path(), "/late");
}

TEST(MockWebServerTest, SetDispatcherAnswersByRequest) {
  MockWebServer server;
  server.setDispatcher([](const RecordedRequest& request) {
    if (request.path() == "/a") return MockResponse::Builder().body("alpha").build();
    return MockResponse::Builder().code(404).build();
  });
  RawClient client(server.port());
  client.send("GET /b HTTP/1.1\r\n\r\n");
  EXPECT_TRUE(client.readResponse().starts_with("HTTP/1.1 404"));
  client.send("GET /a HTTP/1.1\r\n\r\n");
  EXPECT_TRUE(client.readResponse().ends_with("alpha"));
}

TEST(MockWebServerTest, EnqueueAfterReplacingTheDispatcherThrows) {
  class Fixed : public Dispatcher {
   public:
    MockResponse dispatch(const RecordedRequest&) override { return MockResponse(); }
  };
  MockWebServer server;
  auto dispatcher = std::make_shared<Fixed>();
  server.setDispatcher(dispatcher);
  EXPECT_EQ(server.dispatcher(), dispatcher);
  EXPECT_THROW(server.enqueue(MockResponse()), std::logic_error);
  EXPECT_THROW(server.setDispatcher(std::shared_ptr<Dispatcher>()), std::invalid_argument);
}

TEST(MockWebServerTest, ConcurrentConnectionsAreAllServed) {
  MockWebServer server;
  server.setDispatcher([](const RecordedRequest& request) {
    return MockResponse::Builder().body(request.path()).build();
  });
  const int port = server.port();
  std::atomic<int> ok{0};
  std::vector<std::thread> clients;
  for (int i = 0; i < 8; ++i) {
    clients.emplace_back([port, i, &ok] {
      RawClient client(port);
      for (int j = 0; j < 5; ++j) {
        const std::string path = "/" + std::to_string(i) + "/" + std::to_string(j);
        client.send("GET " + path + " HTTP/1.1\r\n\r\n");
        if (client.readResponse().ends_with(path)) ++ok;
      }
    });
  }
  for (auto& thread : clients) thread.join();
  EXPECT_EQ(ok.load(), 40);
  EXPECT_EQ(server.requestCount(), 40);
}

TEST(MockWebServerTest, TakeRequestWithoutTimeoutReturnsARecordedRequest) {
  MockWebServer server;
  server.enqueue(MockResponse());
  RawClient client(server.port());
  client.send("DELETE /thing HTTP/1.1\r\n\r\n");
  client.readResponse();
  EXPECT_EQ(server.takeRequest().method(), "DELETE");
}

}  // namespace
}  // namespace tern::mockwebserver
