// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#include "http/message_framing.h"

#include <gtest/gtest.h>

#include <limits>

#include "tern/exceptions.h"

namespace tern::internal {
namespace {

Response response(std::string_view method, int code, const Headers& headers = Headers()) {
  return Response::Builder()
      .request(Request::Builder().url("http://example.com/").method(method, nullptr).build())
      .protocol(Protocol::HTTP_1_1)
      .code(code)
      .message("")
      .headers(headers)
      .build();
}

TEST(MessageFramingTest, HasTokenSearchesEveryListElementIgnoringCase) {
  Headers headers = Headers::of("Connection", "keep-alive", "connection", " Upgrade , CLOSE ");
  EXPECT_TRUE(hasToken(headers, "Connection", "close"));
  EXPECT_TRUE(hasToken(headers, "Connection", "upgrade"));
  EXPECT_FALSE(hasToken(headers, "Connection", "clos"));
  EXPECT_FALSE(hasToken(headers, "Transfer-Encoding", "close"));
  EXPECT_FALSE(hasToken(Headers::of("Connection", "x-close"), "Connection", "close"));
}

TEST(MessageFramingTest, ChunkedOnlyAsTheFinalCodingOfTheLastValue) {
  EXPECT_TRUE(isChunked(Headers::of("Transfer-Encoding", "chunked")));
  EXPECT_TRUE(isChunked(Headers::of("Transfer-Encoding", "CHUNKED")));
  EXPECT_TRUE(isChunked(Headers::of("Transfer-Encoding", "gzip,chunked")));
  EXPECT_FALSE(isChunked(Headers::of("Transfer-Encoding", "chunked, gzip")));
  EXPECT_FALSE(isChunked(Headers::of("Transfer-Encoding", "chunked", "Transfer-Encoding", "gzip")));
  EXPECT_FALSE(isChunked(Headers::of("Transfer-Encoding", "xchunked")));
  EXPECT_FALSE(isChunked(Headers()));
}

TEST(MessageFramingTest, ContentLength) {
  EXPECT_EQ(contentLength(Headers()), -1);
  EXPECT_EQ(contentLength(Headers::of("Content-Length", "0")), 0);
  EXPECT_EQ(contentLength(Headers::of("Content-Length", "007")), 7);
  EXPECT_EQ(contentLength(Headers::of("Content-Length", "9223372036854775807")),
            std::numeric_limits<int64_t>::max());
  EXPECT_EQ(contentLength(Headers::of("Content-Length", "5", "Content-Length", "5, 5")), 5);
  for (std::string_view bad :
       {"9223372036854775808", "-1", "+1", "1e3", "0x10", "1 2", "5,", ","}) {
    EXPECT_THROW(contentLength(Headers::of("Content-Length", bad)), ProtocolException) << bad;
  }
  EXPECT_THROW(contentLength(Headers::of("Content-Length", "5", "Content-Length", "6")),
               ProtocolException);
}

TEST(MessageFramingTest, ParseChunkSize) {
  EXPECT_EQ(parseChunkSize("0"), 0);
  EXPECT_EQ(parseChunkSize("1a"), 26);
  EXPECT_EQ(parseChunkSize("1A"), 26);
  EXPECT_EQ(parseChunkSize("0000000000000000000000ff"), 255);
  EXPECT_EQ(parseChunkSize("7fffffffffffffff"), std::numeric_limits<int64_t>::max());
  EXPECT_EQ(parseChunkSize("10;a=b;c"), 16);
  EXPECT_EQ(parseChunkSize("10 \t; a=\"x\""), 16);
  EXPECT_EQ(parseChunkSize("10  "), 16);
  EXPECT_THROW(parseChunkSize("8000000000000000"), ProtocolException);
  for (std::string_view bad : {"", " 1", "g", "1g", "1 2", "-1", "0x1", ";ext"}) {
    EXPECT_THROW(parseChunkSize(bad), ProtocolException) << bad;
  }
}

TEST(MessageFramingTest, PromisesBody) {
  Headers length = Headers::of("Content-Length", "5");
  EXPECT_TRUE(promisesBody(response("GET", 200)));
  EXPECT_TRUE(promisesBody(response("GET", 404)));
  EXPECT_TRUE(promisesBody(response("GET", 99)));
  EXPECT_FALSE(promisesBody(response("HEAD", 200, length)));
  EXPECT_FALSE(promisesBody(response("GET", 100, length)));
  EXPECT_FALSE(promisesBody(response("GET", 101, length)));
  EXPECT_FALSE(promisesBody(response("GET", 199, length)));
  EXPECT_FALSE(promisesBody(response("GET", 304, length)));
  EXPECT_FALSE(promisesBody(response("GET", 204)));
  EXPECT_TRUE(promisesBody(response("GET", 204, length)));
  EXPECT_FALSE(promisesBody(response("GET", 204, Headers::of("Content-Length", "0"))));
  EXPECT_FALSE(promisesBody(response("GET", 304, Headers::of("Transfer-Encoding", "chunked"))));
  EXPECT_TRUE(promisesBody(response("GET", 204, Headers::of("Transfer-Encoding", "chunked"))));
  EXPECT_FALSE(promisesBody(response("CONNECT", 200, length)));
  EXPECT_TRUE(promisesBody(response("CONNECT", 407, length)));
}

}  // namespace
}  // namespace tern::internal
