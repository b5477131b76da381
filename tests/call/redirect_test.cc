// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
// Following redirects (RFC 9110 §15.4), as OkHttp's CallTest redirect cases.
#include <gtest/gtest.h>

#include "call/call_fixture.h"

namespace tern::testing {
namespace {

class RedirectTest : public CallFixture {
 protected:
  static MockResponse redirect(int code, std::string_view location) {
    return MockResponse::Builder()
        .code(code)
        .addHeader("Location", location)
        .body("redirect body")
        .build();
  }
  Request post(std::string_view path, std::string_view content = "request body") {
    return Request::Builder()
        .url(server.url(path))
        .post(RequestBody::create(std::string(content), MediaType::get("text/plain")))
        .build();
  }
};

class RedirectCodeTest : public RedirectTest, public ::testing::WithParamInterface<int> {};

TEST_P(RedirectCodeTest, GetFollowsTheRedirect) {
  server.enqueue(redirect(GetParam(), "/b"));
  server.enqueue(body("landed"));
  Response response = execute("/a");
  EXPECT_EQ(response.code(), 200);
  EXPECT_EQ(response.body()->string(), "landed");
  EXPECT_EQ(response.request().url(), server.url("/b"));
  ASSERT_NE(response.priorResponse(), nullptr);
  EXPECT_EQ(response.priorResponse()->code(), GetParam());
  EXPECT_EQ(response.priorResponse()->request().url(), server.url("/a"));
  EXPECT_EQ(response.priorResponse()->body(), nullptr);
  EXPECT_EQ(server.takeRequest().path(), "/a");
  RecordedRequest second = server.takeRequest();
  EXPECT_EQ(second.requestLine(), "GET /b HTTP/1.1");
  EXPECT_EQ(second.sequenceNumber(), 1);  // The connection was reused.
}

INSTANTIATE_TEST_SUITE_P(AllRedirectCodes, RedirectCodeTest,
                         ::testing::Values(300, 301, 302, 303, 307, 308));

class PostRedirectToGetTest : public RedirectTest, public ::testing::WithParamInterface<int> {};

TEST_P(PostRedirectToGetTest, PostBecomesGetWithoutItsBody) {
  server.enqueue(redirect(GetParam(), "/page2"));
  server.enqueue(body("Page 2"));
  Response response = execute(post("/page1", "Request Body"));
  EXPECT_EQ(response.body()->string(), "Page 2");
  EXPECT_EQ(response.request().method(), "GET");
  RecordedRequest page1 = server.takeRequest();
  EXPECT_EQ(page1.requestLine(), "POST /page1 HTTP/1.1");
  EXPECT_EQ(page1.bodyUtf8(), "Request Body");
  RecordedRequest page2 = server.takeRequest();
  EXPECT_EQ(page2.requestLine(), "GET /page2 HTTP/1.1");
  EXPECT_FALSE(page2.headers().get("Content-Length"));
  EXPECT_FALSE(page2.headers().get("Content-Type"));
  EXPECT_FALSE(page2.headers().get("Transfer-Encoding"));
  EXPECT_EQ(page2.bodySize(), 0);
}

INSTANTIATE_TEST_SUITE_P(MovedFoundSeeOther, PostRedirectToGetTest,
                         ::testing::Values(301, 302, 303));

class PostRedirectKeepsMethodTest : public RedirectTest,
                                    public ::testing::WithParamInterface<int> {};

TEST_P(PostRedirectKeepsMethodTest, PostIsResentWithItsBody) {
  server.enqueue(redirect(GetParam(), "/page2"));
  server.enqueue(body("Page 2"));
  Response response = execute(post("/page1", "Request Body"));
  EXPECT_EQ(response.body()->string(), "Page 2");
  EXPECT_EQ(response.request().method(), "POST");
  server.takeRequest();
  RecordedRequest page2 = server.takeRequest();
  EXPECT_EQ(page2.requestLine(), "POST /page2 HTTP/1.1");
  EXPECT_EQ(page2.bodyUtf8(), "Request Body");
  EXPECT_EQ(page2.headers().get("Content-Type"), "text/plain; charset=utf-8");
}

INSTANTIATE_TEST_SUITE_P(TemporaryAndPermanent, PostRedirectKeepsMethodTest,
                         ::testing::Values(307, 308));

TEST_F(RedirectTest, PutIsResentOn307) {
  server.enqueue(redirect(307, "/b"));
  server.enqueue(body("ok"));
  execute(Request::Builder().url(server.url("/a")).put(RequestBody::create("put body")).build())
      .body()
      ->string();
  server.takeRequest();
  RecordedRequest b = server.takeRequest();
  EXPECT_EQ(b.method(), "PUT");
  EXPECT_EQ(b.bodyUtf8(), "put body");
}

TEST_F(RedirectTest, PropfindKeepsItsBodyOn302) {
  server.enqueue(redirect(302, "/b"));
  server.enqueue(body("ok"));
  execute(Request::Builder()
              .url(server.url("/a"))
              .method("PROPFIND", RequestBody::create("<props/>"))
              .build())
      .body()
      ->string();
  server.takeRequest();
  RecordedRequest b = server.takeRequest();
  EXPECT_EQ(b.method(), "PROPFIND");
  EXPECT_EQ(b.bodyUtf8(), "<props/>");
}

TEST_F(RedirectTest, HeadStaysHead) {
  server.enqueue(MockResponse::Builder().code(302).addHeader("Location", "/b").build());
  server.enqueue(MockResponse::Builder().build());
  Response response = execute(Request::Builder().url(server.url("/a")).head().build());
  EXPECT_EQ(response.code(), 200);
  server.takeRequest();
  EXPECT_EQ(server.takeRequest().method(), "HEAD");
}

TEST_F(RedirectTest, RelativeLocationsResolveAgainstTheRequestUrl) {
  server.enqueue(redirect(302, "../c?q=1"));
  server.enqueue(body("resolved"));
  Response response = execute("/a/b");
  EXPECT_EQ(response.body()->string(), "resolved");
  server.takeRequest();
  EXPECT_EQ(server.takeRequest().path(), "/c?q=1");
}

TEST_F(RedirectTest, ChainsOfRedirectsKeepEachPriorResponse) {
  server.enqueue(redirect(301, "/b"));
  server.enqueue(redirect(302, "/c"));
  server.enqueue(body("c"));
  Response response = execute("/a");
  EXPECT_EQ(response.body()->string(), "c");
  const Response* prior = response.priorResponse();
  ASSERT_NE(prior, nullptr);
  EXPECT_EQ(prior->code(), 302);
  ASSERT_NE(prior->priorResponse(), nullptr);
  EXPECT_EQ(prior->priorResponse()->code(), 301);
  EXPECT_EQ(prior->priorResponse()->priorResponse(), nullptr);
}

TEST_F(RedirectTest, RedirectWithoutLocationIsReturned) {
  server.enqueue(MockResponse::Builder().code(302).body("nowhere to go").build());
  Response response = execute();
  EXPECT_EQ(response.code(), 302);
  EXPECT_EQ(response.body()->string(), "nowhere to go");
}

TEST_F(RedirectTest, RedirectToAnUnsupportedSchemeIsReturned) {
  server.enqueue(redirect(302, "ftp://example.com/file"));
  Response response = execute();
  EXPECT_EQ(response.code(), 302);
  EXPECT_EQ(server.requestCount(), 1);
}

TEST_F(RedirectTest, RedirectsAreNotFollowedWhenDisabled) {
  server.enqueue(redirect(302, "/b"));
  client = client.newBuilder().followRedirects(false).build();
  Response response = execute("/a");
  EXPECT_EQ(response.code(), 302);
  EXPECT_EQ(response.header("Location"), "/b");
  EXPECT_EQ(response.body()->string(), "redirect body");
}

TEST_F(RedirectTest, TwentyRedirectsAreFollowed) {
  for (int i = 0; i < 20; ++i) server.enqueue(redirect(302, "/" + std::to_string(i + 1)));
  server.enqueue(body("Success!"));
  Response response = execute("/0");
  EXPECT_EQ(response.body()->string(), "Success!");
  EXPECT_EQ(response.request().url(), server.url("/20"));
}

TEST_F(RedirectTest, TheTwentyFirstRedirectIsAProtocolException) {
  for (int i = 0; i < 21; ++i) server.enqueue(redirect(302, "/" + std::to_string(i + 1)));
  try {
    execute("/0");
    FAIL() << "expected ProtocolException";
  } catch (const ProtocolException& e) {
    EXPECT_STREQ(e.what(), "Too many follow-up requests: 21");
  }
  EXPECT_EQ(server.requestCount(), 21);
}

TEST_F(RedirectTest, CrossHostRedirectDropsAuthorization) {
  MockWebServer other;
  other.enqueue(body("Page 2"));
  server.enqueue(redirect(302, other.url("/b").toString()));
  Response response = execute(
      Request::Builder().url(server.url("/a")).header("Authorization", "Basic secret").build());
  EXPECT_EQ(response.body()->string(), "Page 2");
  EXPECT_EQ(server.takeRequest().headers().get("Authorization"), "Basic secret");
  RecordedRequest redirected = other.takeRequest();
  EXPECT_FALSE(redirected.headers().get("Authorization"));
  EXPECT_EQ(redirected.headers().get("Host"), "127.0.0.1:" + std::to_string(other.port()));
}

TEST_F(RedirectTest, SameHostRedirectKeepsAuthorization) {
  server.enqueue(redirect(302, "/b"));
  server.enqueue(body("ok"));
  execute(Request::Builder().url(server.url("/a")).header("Authorization", "Basic secret").build())
      .body()
      ->string();
  server.takeRequest();
  EXPECT_EQ(server.takeRequest().headers().get("Authorization"), "Basic secret");
}

TEST_F(RedirectTest, CrossHostRedirectUsesANewConnection) {
  MockWebServer other;
  other.enqueue(body("elsewhere"));
  server.enqueue(redirect(301, other.url("/").toString()));
  EXPECT_EQ(fetch(), "elsewhere");
  EXPECT_EQ(other.takeRequest().connectionIndex(), 0);
  EXPECT_EQ(client.connectionPool()->connectionCount(), 2);
}

TEST_F(RedirectTest, HttpToHttpsIsNotFollowedWithoutSslRedirects) {
  server.enqueue(redirect(302, "https://secure.test/"));
  client = client.newBuilder().followSslRedirects(false).build();
  Response response = execute();
  EXPECT_EQ(response.code(), 302);
}

TEST_F(RedirectTest, HttpToHttpsIsFollowedByDefault) {
  server.enqueue(redirect(302, "https://secure.test/"));
  auto dns = std::make_shared<FakeDns>();
  dns->set("secure.test", {InetAddress::loopbackIpv4()});
  client = client.newBuilder().dns(dns).build();
  // Followed: and then failed, since nothing serves TLS on secure.test's port 443 here.
  EXPECT_THROW(execute(), IOException);
  EXPECT_EQ(server.requestCount(), 1);
}

TEST_F(RedirectTest, OneShotBodyIsNotResent) {
  server.enqueue(redirect(307, "/b"));
  Buffer content;
  content.writeUtf8("once");
  auto oneShot =
      RequestBody::fromSource(std::make_unique<Buffer>(std::move(content)), std::nullopt, 4);
  Response response = execute(Request::Builder().url(server.url("/a")).post(oneShot).build());
  EXPECT_EQ(response.code(), 307);
  EXPECT_EQ(server.requestCount(), 1);
}

TEST_F(RedirectTest, RedirectsAreFollowedForEnqueuedCalls) {
  server.enqueue(redirect(302, "/b"));
  server.enqueue(body("async landed"));
  auto callback = std::make_shared<RecordingCallback>();
  client.newCall(get("/a"))->enqueue(callback);
  RecordedResponse recorded = callback->await(url("/a"));
  EXPECT_EQ(recorded.code, 200);
  EXPECT_EQ(recorded.body, "async landed");
}

}  // namespace
}  // namespace tern::testing
