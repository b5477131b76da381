// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#include "tern/response.h"

#include <gtest/gtest.h>

namespace tern {
namespace {

Request request() { return Request::Builder().url("https://example.com/path").build(); }

Response::Builder minimal(int code = 200) {
  Response::Builder builder;
  builder.request(request()).protocol(Protocol::HTTP_1_1).code(code).message("OK");
  return builder;
}

TEST(ResponseTest, BuildsWithRequiredFields) {
  Response response = minimal().header("Content-Type", "text/plain").build();
  EXPECT_EQ(response.code(), 200);
  EXPECT_EQ(response.message(), "OK");
  EXPECT_EQ(response.protocol(), Protocol::HTTP_1_1);
  EXPECT_EQ(response.request().url().toString(), "https://example.com/path");
  EXPECT_EQ(response.header("content-type"), "text/plain");
  EXPECT_EQ(response.header("Missing"), std::nullopt);
  EXPECT_EQ(response.header("Missing", "fallback"), "fallback");
  EXPECT_EQ(response.body(), nullptr);
}

TEST(ResponseTest, MissingFieldsAreNamed) {
  auto message = [](Response::Builder builder) {
    try {
      std::move(builder).build();
    } catch (const std::logic_error& e) {
      return std::string(e.what());
    }
    return std::string("no exception");
  };
  Response::Builder noRequest;
  noRequest.protocol(Protocol::HTTP_1_1).code(200).message("OK");
  EXPECT_EQ(message(std::move(noRequest)), "request == null");
  Response::Builder noProtocol;
  noProtocol.request(request()).code(200).message("OK");
  EXPECT_EQ(message(std::move(noProtocol)), "protocol == null");
  Response::Builder noMessage;
  noMessage.request(request()).protocol(Protocol::HTTP_2).code(200);
  EXPECT_EQ(message(std::move(noMessage)), "message == null");
  Response::Builder noCode;
  noCode.request(request()).protocol(Protocol::HTTP_2).message("");
  EXPECT_EQ(message(std::move(noCode)), "code < 0: -1");
}

TEST(ResponseTest, SuccessfulAndRedirectCodes) {
  EXPECT_FALSE(minimal(199).build().isSuccessful());
  EXPECT_TRUE(minimal(200).build().isSuccessful());
  EXPECT_TRUE(minimal(299).build().isSuccessful());
  EXPECT_FALSE(minimal(300).build().isSuccessful());
  for (int code : {300, 301, 302, 303, 307, 308}) EXPECT_TRUE(minimal(code).build().isRedirect());
  for (int code : {200, 304, 305, 306, 309, 404}) EXPECT_FALSE(minimal(code).build().isRedirect());
}

TEST(ResponseTest, BodyIsOwnedAndReadable) {
  Response response = minimal().body(ResponseBody::create("hello")).build();
  ASSERT_NE(response.body(), nullptr);
  EXPECT_EQ(response.body()->string(), "hello");
}

TEST(ResponseTest, PeekBodyDoesNotConsume) {
  Response response = minimal().body(ResponseBody::create("abcdefghij")).build();
  ResponseBody peeked = response.peekBody(4);
  EXPECT_EQ(peeked.string(), "abcd");
  EXPECT_EQ(response.peekBody(100).string(), "abcdefghij");
  EXPECT_EQ(response.body()->string(), "abcdefghij");
}

TEST(ResponseTest, PeekBodyWithoutBodyThrows) {
  Response response = minimal().build();
  EXPECT_THROW(response.peekBody(1), std::logic_error);
}

TEST(ResponseTest, SupportingResponsesMustHaveNoBody) {
  EXPECT_THROW(minimal().priorResponse(minimal(301).body(ResponseBody::create("x")).build()),
               std::invalid_argument);
  EXPECT_THROW(minimal().networkResponse(minimal().body(ResponseBody::create("x")).build()),
               std::invalid_argument);
  EXPECT_THROW(minimal().cacheResponse(minimal().body(ResponseBody::create("x")).build()),
               std::invalid_argument);
}

TEST(ResponseTest, SupportingResponsesAreKept) {
  Response response = minimal()
                          .priorResponse(minimal(302).header("Location", "/path").build())
                          .networkResponse(minimal(304).build())
                          .cacheResponse(minimal(200).build())
                          .build();
  ASSERT_NE(response.priorResponse(), nullptr);
  EXPECT_EQ(response.priorResponse()->code(), 302);
  EXPECT_EQ(response.priorResponse()->header("Location"), "/path");
  EXPECT_EQ(response.networkResponse()->code(), 304);
  EXPECT_EQ(response.cacheResponse()->code(), 200);
}

TEST(ResponseTest, NewBuilderMovesTheBody) {
  Response original = minimal().body(ResponseBody::create("moved")).header("A", "1").build();
  Response copy = std::move(original).newBuilder().header("B", "2").build();
  EXPECT_EQ(copy.header("A"), "1");
  EXPECT_EQ(copy.header("B"), "2");
  ASSERT_NE(copy.body(), nullptr);
  EXPECT_EQ(copy.body()->string(), "moved");
}

TEST(ResponseTest, NewBuilderCanStripTheBody) {
  Response original = minimal().body(ResponseBody::create("x")).build();
  Response stripped = std::move(original).newBuilder().body(std::nullopt).build();
  EXPECT_EQ(stripped.body(), nullptr);
  EXPECT_NO_THROW(minimal().priorResponse(std::move(stripped)));
}

TEST(ResponseTest, ChallengesFor401And407Only) {
  Response unauthorized = minimal(401)
                              .addHeader("WWW-Authenticate", "Basic realm=\"protected area\"")
                              .addHeader("Proxy-Authenticate", "Basic realm=\"proxy\"")
                              .build();
  ASSERT_EQ(unauthorized.challenges().size(), 1u);
  EXPECT_EQ(unauthorized.challenges()[0].scheme(), "Basic");
  EXPECT_EQ(unauthorized.challenges()[0].realm(), "protected area");

  Response proxy = minimal(407).addHeader("Proxy-Authenticate", "Basic realm=\"proxy\"").build();
  ASSERT_EQ(proxy.challenges().size(), 1u);
  EXPECT_EQ(proxy.challenges()[0].realm(), "proxy");

  Response ok = minimal(200).addHeader("WWW-Authenticate", "Basic realm=\"x\"").build();
  EXPECT_TRUE(ok.challenges().empty());
}

TEST(ResponseTest, CacheControlFromHeaders) {
  Response response = minimal().header("Cache-Control", "max-age=30, public").build();
  EXPECT_EQ(response.cacheControl().maxAgeSeconds(), 30);
  EXPECT_TRUE(response.cacheControl().isPublic());
}

TEST(ResponseTest, TimestampsAndToString) {
  Response response = minimal().sentRequestAtMillis(1000).receivedResponseAtMillis(2000).build();
  EXPECT_EQ(response.sentRequestAtMillis(), 1000);
  EXPECT_EQ(response.receivedResponseAtMillis(), 2000);
  EXPECT_EQ(response.toString(),
            "Response{protocol=http/1.1, code=200, message=OK, url=https://example.com/path}");
}

TEST(ResponseTest, Http2ResponsesHaveNoMessage) {
  Response::Builder builder;
  Response response =
      std::move(builder.request(request()).protocol(Protocol::HTTP_2).code(204).message(""))
          .build();
  EXPECT_EQ(response.message(), "");
  EXPECT_EQ(response.protocol(), Protocol::HTTP_2);
}

}  // namespace
}  // namespace tern
