// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#include "tern/request.h"

#include <gtest/gtest.h>

#include <string>

#include "support/body_text.h"
#include "tern/buffer.h"

namespace tern {
namespace {

using testing::writtenBody;

TEST(RequestTest, DefaultsToGetWithNoBody) {
  Request request = Request::Builder().url("https://example.com/").build();
  EXPECT_EQ(request.method(), "GET");
  EXPECT_EQ(request.body(), nullptr);
  EXPECT_EQ(request.url().toString(), "https://example.com/");
  EXPECT_TRUE(request.isHttps());
  EXPECT_TRUE(request.headers().empty());
}

TEST(RequestTest, BuildWithoutUrlThrows) {
  EXPECT_THROW(Request::Builder().build(), std::logic_error);
}

TEST(RequestTest, InvalidUrlThrowsNamingIt) {
  try {
    Request::Builder().url("ftp://example.com/");
    FAIL() << "expected invalid_argument";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("ftp"), std::string::npos) << e.what();
  }
  EXPECT_THROW(Request::Builder().url("not a url"), std::invalid_argument);
}

TEST(RequestTest, WebSocketSchemesMapToHttp) {
  EXPECT_EQ(Request::Builder().url("ws://example.com/chat").build().url().toString(),
            "http://example.com/chat");
  EXPECT_EQ(Request::Builder().url("wss://example.com/chat").build().url().toString(),
            "https://example.com/chat");
  EXPECT_EQ(Request::Builder().url("WSS://example.com/").build().url().scheme(), "https");
  EXPECT_EQ(Request::Builder().url("Ws://example.com/").build().url().scheme(), "http");
}

TEST(RequestTest, UrlFromHttpUrl) {
  HttpUrl url = HttpUrl::get("http://example.com:8080/a?b=c");
  Request request = Request::Builder().url(url).build();
  EXPECT_EQ(request.url(), url);
  EXPECT_FALSE(request.isHttps());
}

TEST(RequestTest, PostCarriesBody) {
  auto body = RequestBody::create("abc", MediaType::get("text/plain"));
  Request request = Request::Builder().url("https://example.com/").post(body).build();
  EXPECT_EQ(request.method(), "POST");
  ASSERT_NE(request.body(), nullptr);
  EXPECT_EQ(writtenBody(*request.body()), "abc");
}

TEST(RequestTest, MethodsThatRequireABody) {
  for (const char* method : {"POST", "PUT", "PATCH", "PROPPATCH", "REPORT"}) {
    try {
      Request::Builder().method(method, nullptr);
      FAIL() << method;
    } catch (const std::invalid_argument& e) {
      EXPECT_EQ(std::string(e.what()),
                std::string("method ") + method + " must have a request body.");
    }
  }
}

TEST(RequestTest, GetAndHeadMustNotHaveABody) {
  auto body = RequestBody::create("x");
  for (const char* method : {"GET", "HEAD"}) {
    try {
      Request::Builder().method(method, body);
      FAIL() << method;
    } catch (const std::invalid_argument& e) {
      EXPECT_EQ(std::string(e.what()),
                std::string("method ") + method + " must not have a request body.");
    }
  }
}

TEST(RequestTest, DeleteWithAndWithoutBody) {
  Request plain = Request::Builder().url("https://example.com/").delete_().build();
  EXPECT_EQ(plain.method(), "DELETE");
  EXPECT_EQ(plain.body(), nullptr);
  Request withBody =
      Request::Builder().url("https://example.com/").delete_(RequestBody::create("x")).build();
  EXPECT_NE(withBody.body(), nullptr);
}

TEST(RequestTest, CustomMethodsAreTokens) {
  EXPECT_EQ(
      Request::Builder().url("https://example.com/").method("PURGE", nullptr).build().method(),
      "PURGE");
  EXPECT_THROW(Request::Builder().method("", nullptr), std::invalid_argument);
  EXPECT_THROW(Request::Builder().method("GET X", nullptr), std::invalid_argument);
  EXPECT_THROW(Request::Builder().method("GET\r\n", nullptr), std::invalid_argument);
}

TEST(RequestTest, PutPatchHead) {
  auto body = RequestBody::create("x");
  EXPECT_EQ(Request::Builder().url("http://a/").put(body).build().method(), "PUT");
  EXPECT_EQ(Request::Builder().url("http://a/").patch(body).build().method(), "PATCH");
  EXPECT_EQ(Request::Builder().url("http://a/").head().build().method(), "HEAD");
  EXPECT_EQ(Request::Builder().url("http://a/").post(body).get().build().body(), nullptr);
}

TEST(RequestTest, HeaderReplacesAndAddHeaderAppends) {
  Request request = Request::Builder()
                        .url("https://example.com/")
                        .header("Accept", "text/plain")
                        .header("accept", "text/html")
                        .addHeader("X-Multi", "1")
                        .addHeader("x-multi", "2")
                        .build();
  EXPECT_EQ(request.header("Accept"), "text/html");
  EXPECT_EQ(request.headers("Accept").size(), 1u);
  EXPECT_EQ(request.headers("X-MULTI"), (std::vector<std::string>{"1", "2"}));
  EXPECT_EQ(request.header("Missing"), std::nullopt);
}

TEST(RequestTest, RemoveHeaderAndReplaceAll) {
  Request request = Request::Builder()
                        .url("https://example.com/")
                        .header("A", "1")
                        .header("B", "2")
                        .removeHeader("a")
                        .build();
  EXPECT_EQ(request.header("A"), std::nullopt);
  EXPECT_EQ(request.header("B"), "2");
  Request replaced = request.newBuilder().headers(Headers::of({{"C", "3"}})).build();
  EXPECT_EQ(replaced.headers().size(), 1u);
  EXPECT_EQ(replaced.header("C"), "3");
}

TEST(RequestTest, InvalidHeaderIsRejected) {
  EXPECT_THROW(Request::Builder().header("X-Bad", "a\r\nInjected: yes"), std::invalid_argument);
  EXPECT_THROW(Request::Builder().header("Bad Name", "v"), std::invalid_argument);
  EXPECT_THROW(Request::Builder().addHeader("", "v"), std::invalid_argument);
}

TEST(RequestTest, CacheControlSetsAndClearsTheHeader) {
  Request request = Request::Builder()
                        .url("https://example.com/")
                        .cacheControl(CacheControl::forceCache())
                        .build();
  ASSERT_TRUE(request.header("Cache-Control").has_value());
  EXPECT_TRUE(request.cacheControl().onlyIfCached());

  Request cleared = request.newBuilder().cacheControl(CacheControl::Builder().build()).build();
  EXPECT_EQ(cleared.header("Cache-Control"), std::nullopt);
  EXPECT_FALSE(cleared.cacheControl().onlyIfCached());
}

TEST(RequestTest, CacheControlIsParsedFromHeaders) {
  Request request = Request::Builder()
                        .url("https://example.com/")
                        .header("Cache-Control", "no-cache, max-age=60")
                        .build();
  EXPECT_TRUE(request.cacheControl().noCache());
  EXPECT_EQ(request.cacheControl().maxAgeSeconds(), 60);
}

struct TraceId {
  std::string value;
};

TEST(RequestTest, TagsAreTypedAndOptional) {
  Request request = Request::Builder()
                        .url("https://example.com/")
                        .tag(TraceId{"abc"})
                        .tag(std::string("a string tag"))
                        .build();
  ASSERT_NE(request.tag<TraceId>(), nullptr);
  EXPECT_EQ(request.tag<TraceId>()->value, "abc");
  ASSERT_NE(request.tag<std::string>(), nullptr);
  EXPECT_EQ(*request.tag<std::string>(), "a string tag");
  EXPECT_EQ(request.tag<int>(), nullptr);
}

TEST(RequestTest, TagReplacesAndRemoveTagRemoves) {
  Request request =
      Request::Builder().url("https://example.com/").tag(TraceId{"1"}).tag(TraceId{"2"}).build();
  EXPECT_EQ(request.tag<TraceId>()->value, "2");
  Request removed = request.newBuilder().removeTag<TraceId>().build();
  EXPECT_EQ(removed.tag<TraceId>(), nullptr);
  EXPECT_NE(request.tag<TraceId>(), nullptr);  // The original is immutable.
}

TEST(RequestTest, NewBuilderCopiesEverythingAndLeavesOriginalAlone) {
  auto body = RequestBody::create("payload");
  Request original = Request::Builder()
                         .url("https://example.com/a")
                         .header("A", "1")
                         .post(body)
                         .tag(TraceId{"t"})
                         .build();
  Request copy = original.newBuilder().header("B", "2").url("https://example.com/b").build();
  EXPECT_EQ(copy.method(), "POST");
  EXPECT_EQ(copy.body(), body);
  EXPECT_EQ(copy.header("A"), "1");
  EXPECT_EQ(copy.header("B"), "2");
  EXPECT_EQ(copy.tag<TraceId>()->value, "t");
  EXPECT_EQ(original.header("B"), std::nullopt);
  EXPECT_EQ(original.url().toString(), "https://example.com/a");
}

TEST(RequestTest, ToStringRedactsSensitiveHeaders) {
  Request request = Request::Builder()
                        .url("https://example.com/")
                        .header("Authorization", "Bearer secret")
                        .header("Accept", "text/plain")
                        .build();
  std::string text = request.toString();
  EXPECT_EQ(text.find("secret"), std::string::npos) << text;
  EXPECT_NE(text.find("Accept: text/plain"), std::string::npos) << text;
  EXPECT_NE(text.find("method=GET"), std::string::npos) << text;
  EXPECT_NE(text.find("url=https://example.com/"), std::string::npos) << text;
}

}  // namespace
}  // namespace tern
