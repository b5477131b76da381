// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
// How MockWebServer reads requests that break HTTP/1.1: each is recorded with a failure, its
// connection ends, and the server goes on serving other connections.
#include <gtest/gtest.h>

#include <chrono>
#include <random>
#include <string>

#include "raw_client.h"
#include "tern/exceptions.h"
#include "tern/mockwebserver/mock_web_server.h"

namespace tern::mockwebserver {
namespace {

using namespace std::chrono_literals;
using testing::RawClient;

class RequestParsingTest : public ::testing::Test {
 protected:
  // Sends `bytes`, expects the server to close the connection without a response, and returns
  // the request it recorded.
  RecordedRequest sendMalformed(std::string_view bytes) {
    RawClient client(server_.port());
    client.send(bytes);
    EXPECT_TRUE(client.closedByServer());
    return server_.takeRequest();
  }

  // The server still answers a well-formed request on a new connection.
  void expectServerStillServes() {
    server_.enqueue(MockResponse::Builder().body("alive").build());
    RawClient client(server_.port());
    client.send("GET / HTTP/1.1\r\n\r\n");
    EXPECT_TRUE(client.readResponse().ends_with("alive"));
    server_.takeRequest();
  }

  MockWebServer server_;
};

TEST_F(RequestParsingTest, MalformedRequestLineIsRecordedAsAFailure) {
  RecordedRequest request = sendMalformed("GARBAGE\r\n\r\n");
  EXPECT_EQ(request.requestLine(), "GARBAGE");
  ASSERT_TRUE(request.failure());
  EXPECT_THROW(std::rethrow_exception(request.failure()), ProtocolException);
  EXPECT_NE(request.failureMessage()->find("unexpected request line"), std::string::npos);
  expectServerStillServes();
}

TEST_F(RequestParsingTest, EmptyRequestLineIsAFailure) {
  RecordedRequest request = sendMalformed("\r\nGET / HTTP/1.1\r\n\r\n");
  EXPECT_EQ(request.requestLine(), "");
  EXPECT_TRUE(request.failure());
}

TEST_F(RequestParsingTest, OverlongRequestLineIsAFailure) {
  std::string line = "GET /" + std::string(70 * 1024, 'a') + " HTTP/1.1\r\n\r\n";
  RawClient client(server_.port());
  client.send(line);  // The server may stop reading early.
  EXPECT_TRUE(client.closedByServer());
  RecordedRequest request = server_.takeRequest();
  ASSERT_TRUE(request.failure());
  EXPECT_THROW(std::rethrow_exception(request.failure()), ProtocolException);
  expectServerStillServes();
}

TEST_F(RequestParsingTest, OverlongHeadersAreAFailure) {
  std::string request = "GET / HTTP/1.1\r\n";
  for (int i = 0; i < 300; ++i)
    request += "X-" + std::to_string(i) + ": " + std::string(1000, 'v') + "\r\n";
  request += "\r\n";
  RawClient client(server_.port());
  client.send(request);
  EXPECT_TRUE(client.closedByServer());
  RecordedRequest recorded = server_.takeRequest();
  EXPECT_EQ(recorded.requestLine(), "GET / HTTP/1.1");
  ASSERT_TRUE(recorded.failure());
  EXPECT_THROW(std::rethrow_exception(recorded.failure()), ProtocolException);
  expectServerStillServes();
}

TEST_F(RequestParsingTest, InvalidContentLengthIsAFailure) {
  for (const char* value : {"abc", "-1", "1 2", "99999999999999999999", ""}) {
    RecordedRequest request =
        sendMalformed("POST / HTTP/1.1\r\nContent-Length: " + std::string(value) + "\r\n\r\n");
    EXPECT_TRUE(request.failure()) << value;
  }
  expectServerStillServes();
}

TEST_F(RequestParsingTest, InvalidChunkSizeIsAFailure) {
  RecordedRequest request =
      sendMalformed("POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\nabc\r\n0\r\n\r\n");
  ASSERT_TRUE(request.failure());
  EXPECT_THROW(std::rethrow_exception(request.failure()), ProtocolException);
  expectServerStillServes();
}

TEST_F(RequestParsingTest, MissingCrlfAfterChunkDataIsAFailure) {
  RecordedRequest request =
      sendMalformed("POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabcdef\r\n");
  EXPECT_TRUE(request.failure());
  EXPECT_EQ(request.bodyUtf8(), "abc");
  EXPECT_EQ(request.chunkSizes(), std::vector<int64_t>{3});
}

TEST_F(RequestParsingTest, TruncatedBodyIsRecordedWithWhatArrived) {
  RawClient client(server_.port());
  client.send("POST / HTTP/1.1\r\nContent-Length: 10\r\n\r\nabc");
  client.shutdownOutput();
  EXPECT_TRUE(client.closedByServer());
  RecordedRequest request = server_.takeRequest();
  EXPECT_EQ(request.bodyUtf8(), "abc");
  EXPECT_EQ(request.bodySize(), 3);
  ASSERT_TRUE(request.failure());
  EXPECT_THROW(std::rethrow_exception(request.failure()), EOFException);
}

TEST_F(RequestParsingTest, TruncatedHeadersAreAFailure) {
  RawClient client(server_.port());
  client.send("GET / HTTP/1.1\r\nHost: exa");
  client.shutdownOutput();
  EXPECT_TRUE(client.closedByServer());
  RecordedRequest request = server_.takeRequest();
  EXPECT_EQ(request.requestLine(), "GET / HTTP/1.1");
  EXPECT_THROW(std::rethrow_exception(request.failure()), EOFException);
}

TEST_F(RequestParsingTest, ConnectionClosedBetweenRequestsRecordsNothing) {
  { RawClient client(server_.port()); }
  EXPECT_FALSE(server_.takeRequest(50ms));
  EXPECT_EQ(server_.requestCount(), 0);
}

TEST_F(RequestParsingTest, BareLineFeedsAreAccepted) {
  server_.enqueue(MockResponse());
  RawClient client(server_.port());
  client.send("GET /lf HTTP/1.1\nHost: h\n\n");
  client.readResponse();
  RecordedRequest request = server_.takeRequest();
  EXPECT_EQ(request.path(), "/lf");
  EXPECT_EQ(request.headers().get("Host"), "h");
}

TEST_F(RequestParsingTest, MalformedHeaderLinesAreKeptLeniently) {
  server_.enqueue(MockResponse());
  RawClient client(server_.port());
  client.send("GET / HTTP/1.1\r\nno colon here\r\nName: caf\xc3\xa9\r\n\r\n");
  client.readResponse();
  RecordedRequest request = server_.takeRequest();
  EXPECT_FALSE(request.failure());
  EXPECT_EQ(request.headers().get("Name"), "caf\xc3\xa9");
  EXPECT_EQ(request.headers().size(), 2u);
}

TEST_F(RequestParsingTest, RandomBytesNeverCrashTheServer) {
  std::mt19937 random(42);
  for (int i = 0; i < 50; ++i) {
    std::string bytes(1 + random() % 512, '\0');
    for (char& c : bytes) c = static_cast<char>(random());
    // Some inputs look like a request waiting for more bytes; half-closing ends each one.
    RawClient client(server_.port());
    client.send(bytes);
    client.shutdownOutput();
    client.readToEnd();
  }
  expectServerStillServes();
}

}  // namespace
}  // namespace tern::mockwebserver
