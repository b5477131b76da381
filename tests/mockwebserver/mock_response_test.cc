// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#include "tern/mockwebserver/mock_response.h"

#include <gtest/gtest.h>

#include <chrono>
#include <stdexcept>

#include "tern/headers.h"

namespace tern::mockwebserver {
namespace {

using namespace std::chrono_literals;

TEST(MockResponseTest, DefaultIs200WithEmptyContentLengthAndNoBody) {
  MockResponse response;
  EXPECT_EQ(response.status(), "HTTP/1.1 200 OK");
  EXPECT_EQ(response.code(), 200);
  EXPECT_EQ(response.message(), "OK");
  EXPECT_EQ(response.headers(), Headers::of("Content-Length", "0"));
  EXPECT_FALSE(response.hasBody());
  EXPECT_EQ(response.bodySize(), 0);
  EXPECT_TRUE(response.socketPolicy().is<SocketPolicy::KeepOpen>());
  EXPECT_EQ(response.throttleBytesPerPeriod(), INT64_MAX);
  EXPECT_EQ(response.headersDelay(), 0ns);
  EXPECT_EQ(response.bodyDelay(), 0ns);
}

TEST(MockResponseTest, CodePicksReasonPhraseByClassAsOkHttp) {
  EXPECT_EQ(MockResponse::Builder().code(100).build().status(), "HTTP/1.1 100 Informational");
  EXPECT_EQ(MockResponse::Builder().code(204).build().status(), "HTTP/1.1 204 OK");
  EXPECT_EQ(MockResponse::Builder().code(302).build().status(), "HTTP/1.1 302 Redirection");
  EXPECT_EQ(MockResponse::Builder().code(404).build().status(), "HTTP/1.1 404 Client Error");
  EXPECT_EQ(MockResponse::Builder().code(503).build().status(), "HTTP/1.1 503 Server Error");
  EXPECT_EQ(MockResponse::Builder().code(99).build().status(), "HTTP/1.1 99 Mock Response");
  EXPECT_EQ(MockResponse::Builder().code(600).build().status(), "HTTP/1.1 600 Mock Response");
  EXPECT_THROW(MockResponse::Builder().code(-1), std::invalid_argument);
}

TEST(MockResponseTest, StatusIsKeptAsGivenAndParsedOnDemand) {
  MockResponse response = MockResponse::Builder().status("HTTP/1.0 418 I'm a teapot").build();
  EXPECT_EQ(response.status(), "HTTP/1.0 418 I'm a teapot");
  EXPECT_EQ(response.code(), 418);
  EXPECT_EQ(response.message(), "I'm a teapot");
  EXPECT_EQ(MockResponse::Builder().status("HTTP/1.1 200").build().message(), "");
}

TEST(MockResponseTest, MalformedStatusIsAllowedButHasNoCode) {
  MockResponse response = MockResponse::Builder().status("GARBAGE").build();
  EXPECT_EQ(response.status(), "GARBAGE");
  EXPECT_THROW(response.code(), std::invalid_argument);
  EXPECT_THROW(MockResponse::Builder().status("HTTP/1.1 abc OK").build().code(),
               std::invalid_argument);
}

TEST(MockResponseTest, BodySetsContentLength) {
  MockResponse response = MockResponse::Builder().body("hello").build();
  EXPECT_TRUE(response.hasBody());
  EXPECT_EQ(response.body().readUtf8(), "hello");
  EXPECT_EQ(response.bodySize(), 5);
  EXPECT_EQ(response.headers().values("Content-Length"), std::vector<std::string>{"5"});
}

TEST(MockResponseTest, BodyFromBufferCopiesWithoutConsuming) {
  Buffer buffer;
  buffer.writeUtf8("abc");
  MockResponse response = MockResponse::Builder().body(buffer).build();
  EXPECT_EQ(buffer.size(), 3);
  EXPECT_EQ(response.body().readUtf8(), "abc");
  // Each call returns a fresh copy.
  EXPECT_EQ(response.body().readUtf8(), "abc");
}

TEST(MockResponseTest, EmptyBodyIsStillABody) {
  MockResponse response = MockResponse::Builder().body("").build();
  EXPECT_TRUE(response.hasBody());
  EXPECT_EQ(response.headers().get("Content-Length"), "0");
}

TEST(MockResponseTest, ChunkedBodyEncodesChunksAndReplacesContentLength) {
  MockResponse response = MockResponse::Builder().chunkedBody("abcdefgh", 3).build();
  EXPECT_EQ(response.body().readUtf8(), "3\r\nabc\r\n3\r\ndef\r\n2\r\ngh\r\n0\r\n");
  EXPECT_FALSE(response.headers().get("Content-Length"));
  EXPECT_EQ(response.headers().get("Transfer-Encoding"), "chunked");
}

TEST(MockResponseTest, ChunkedBodyUsesHexSizes) {
  std::string body(300, 'x');
  MockResponse response = MockResponse::Builder().chunkedBody(body, 256).build();
  EXPECT_EQ(response.body().readUtf8(),
            "100\r\n" + std::string(256, 'x') + "\r\n2c\r\n" + std::string(44, 'x') + "\r\n0\r\n");
}

TEST(MockResponseTest, ChunkedBodyRejectsChunkSizeBelowOne) {
  EXPECT_THROW(MockResponse::Builder().chunkedBody("a", 0), std::invalid_argument);
}

TEST(MockResponseTest, HeaderEditing) {
  MockResponse response = MockResponse::Builder()
                              .addHeader("A", "1")
                              .addHeader("A: 2")
                              .addHeader("B", "3")
                              .setHeader("b", "4")
                              .removeHeader("content-length")
                              .build();
  EXPECT_EQ(response.headers(), Headers::of("A", "1", "A", "2", "b", "4"));
  EXPECT_TRUE(MockResponse::Builder().clearHeaders().build().headers().empty());
  EXPECT_THROW(MockResponse::Builder().addHeader("Bad Name", "v"), std::invalid_argument);
}

TEST(MockResponseTest, LenientHeaderSkipsValidation) {
  MockResponse response = MockResponse::Builder().addHeaderLenient("X", "caf\xc3\xa9").build();
  EXPECT_EQ(response.headers().get("X"), "caf\xc3\xa9");
}

TEST(MockResponseTest, HeadersReplacesDefaultContentLength) {
  MockResponse response = MockResponse::Builder().headers(Headers::of("X", "y")).build();
  EXPECT_EQ(response.headers(), Headers::of("X", "y"));
}

TEST(MockResponseTest, ShortConstructorSetsCodeHeadersBodyAndPolicy) {
  MockResponse response(201, Headers::of("Location", "/a"), "made",
                        SocketPolicy::DisconnectAtEnd{});
  EXPECT_EQ(response.code(), 201);
  EXPECT_EQ(response.headers(), Headers::of("Location", "/a", "Content-Length", "4"));
  EXPECT_EQ(response.body().readUtf8(), "made");
  EXPECT_TRUE(response.socketPolicy().is<SocketPolicy::DisconnectAtEnd>());
}

TEST(MockResponseTest, NewBuilderCopiesEveryFieldAndLeavesTheOriginalUnchanged) {
  MockResponse original = MockResponse::Builder()
                              .code(404)
                              .body("nope")
                              .trailers(Headers::of("T", "1"))
                              .throttleBody(10, 5ms)
                              .headersDelay(1ms)
                              .bodyDelay(2ms)
                              .add100Continue()
                              .socketPolicy(SocketPolicy::NoResponse{})
                              .build();
  MockResponse copy = original.newBuilder().build();
  EXPECT_EQ(copy.status(), original.status());
  EXPECT_EQ(copy.headers(), original.headers());
  EXPECT_EQ(copy.trailers(), Headers::of("T", "1"));
  EXPECT_EQ(copy.body().readUtf8(), "nope");
  EXPECT_EQ(copy.throttleBytesPerPeriod(), 10);
  EXPECT_EQ(copy.throttlePeriod(), 5ms);
  EXPECT_EQ(copy.headersDelay(), 1ms);
  EXPECT_EQ(copy.bodyDelay(), 2ms);
  EXPECT_EQ(copy.informationalResponses().size(), 1u);
  EXPECT_EQ(copy.socketPolicy(), SocketPolicy(SocketPolicy::NoResponse{}));

  MockResponse changed = original.newBuilder().code(200).body("yes").build();
  EXPECT_EQ(changed.code(), 200);
  EXPECT_EQ(original.code(), 404);
  EXPECT_EQ(original.body().readUtf8(), "nope");
}

TEST(MockResponseTest, NamedBuilderStaysUsableAfterBuild) {
  MockResponse::Builder builder;
  builder.body("one");
  MockResponse first = builder.build();
  MockResponse second = builder.addHeader("X", "2").build();
  EXPECT_EQ(first.body().readUtf8(), "one");
  EXPECT_FALSE(first.headers().get("X"));
  EXPECT_EQ(second.headers().get("X"), "2");
}

TEST(MockResponseTest, PacingRejectsNegativeValues) {
  EXPECT_THROW(MockResponse::Builder().throttleBody(0, 1ms), std::invalid_argument);
  EXPECT_THROW(MockResponse::Builder().throttleBody(1, -1ms), std::invalid_argument);
  EXPECT_THROW(MockResponse::Builder().headersDelay(-1ns), std::invalid_argument);
  EXPECT_THROW(MockResponse::Builder().bodyDelay(-1ns), std::invalid_argument);
}

TEST(MockResponseTest, Add100ContinueAddsAnInformationalResponse) {
  MockResponse response = MockResponse::Builder()
                              .addInformationalResponse(MockResponse::Builder().code(103).build())
                              .add100Continue()
                              .build();
  ASSERT_EQ(response.informationalResponses().size(), 2u);
  EXPECT_EQ(response.informationalResponses()[0].code(), 103);
  EXPECT_EQ(response.informationalResponses()[1].status(), "HTTP/1.1 100 Continue");
}

}  // namespace
}  // namespace tern::mockwebserver
