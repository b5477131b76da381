// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
// Cookies through the client's CookieJar (OkHttp's CookiesTest, the bridge's part).
#include <gtest/gtest.h>

#include <map>

#include "call/call_fixture.h"

namespace tern::testing {
namespace {

// A jar that keeps cookies in memory and sends back every unexpired cookie that matches.
class InMemoryCookieJar final : public CookieJar {
 public:
  void saveFromResponse(const HttpUrl&, const std::vector<Cookie>& cookies) override {
    std::lock_guard lock(mutex_);
    for (const Cookie& cookie : cookies) cookies_.insert_or_assign(cookie.name(), cookie);
  }
  std::vector<Cookie> loadForRequest(const HttpUrl& url) override {
    std::lock_guard lock(mutex_);
    std::vector<Cookie> result;
    for (const auto& [name, cookie] : cookies_) {
      if (cookie.matches(url) && cookie.expiresAt() > 0) result.push_back(cookie);
    }
    return result;
  }

 private:
  std::mutex mutex_;
  std::map<std::string, Cookie> cookies_;
};

using CookieJarCallTest = CallFixture;

TEST_F(CookieJarCallTest, JarCookiesAreSentInOneHeader) {
  auto jar = std::make_shared<RecordingCookieJar>();
  jar->enqueueRequestCookies(
      {Cookie::Builder().name("a").value("android").domain("127.0.0.1").build(),
       Cookie::Builder().name("b").value("banana").domain("127.0.0.1").build()});
  server.enqueue(body("ok"));
  client = client.newBuilder().cookieJar(jar).build();
  fetch();
  EXPECT_EQ(server.takeRequest().headers().get("Cookie"), "a=android; b=banana");
}

TEST_F(CookieJarCallTest, NoCookieHeaderWithoutCookies) {
  auto jar = std::make_shared<RecordingCookieJar>();
  server.enqueue(body("ok"));
  client = client.newBuilder().cookieJar(jar).build();
  fetch();
  EXPECT_FALSE(server.takeRequest().headers().get("Cookie"));
}

TEST_F(CookieJarCallTest, SetCookieHeadersAreSavedParsed) {
  auto jar = std::make_shared<RecordingCookieJar>();
  server.enqueue(MockResponse::Builder()
                     .addHeader("Set-Cookie", "a=android; Path=/; HttpOnly")
                     .addHeader("Set-Cookie", "b=banana; Max-Age=60")
                     .body("ok")
                     .build());
  client = client.newBuilder().cookieJar(jar).build();
  fetch("/path/file");
  std::vector<std::vector<Cookie>> saved = jar->takeResponseCookies();
  ASSERT_EQ(saved.size(), 1u);
  ASSERT_EQ(saved[0].size(), 2u);
  EXPECT_EQ(saved[0][0].name(), "a");
  EXPECT_EQ(saved[0][0].value(), "android");
  EXPECT_TRUE(saved[0][0].httpOnly());
  EXPECT_EQ(saved[0][0].path(), "/");
  EXPECT_EQ(saved[0][0].domain(), "127.0.0.1");
  EXPECT_TRUE(saved[0][0].hostOnly());
  EXPECT_EQ(saved[0][1].name(), "b");
  EXPECT_TRUE(saved[0][1].persistent());
  EXPECT_EQ(saved[0][1].path(), "/path");  // The default path: the URL's directory.
}

TEST_F(CookieJarCallTest, InvalidSetCookieHeadersAreDropped) {
  auto jar = std::make_shared<RecordingCookieJar>();
  server.enqueue(MockResponse::Builder()
                     .addHeader("Set-Cookie", "no-equals-sign")
                     .addHeader("Set-Cookie", "a=b; Domain=other.example")
                     .body("ok")
                     .build());
  client = client.newBuilder().cookieJar(jar).build();
  fetch();
  EXPECT_TRUE(jar->takeResponseCookies().empty());
}

TEST_F(CookieJarCallTest, CookiesFromARedirectAreSentToItsTarget) {
  auto jar = std::make_shared<InMemoryCookieJar>();
  server.enqueue(MockResponse::Builder()
                     .code(302)
                     .addHeader("Location", "/b")
                     .addHeader("Set-Cookie", "session=42")
                     .build());
  server.enqueue(body("with cookie"));
  client = client.newBuilder().cookieJar(jar).build();
  EXPECT_EQ(fetch("/a"), "with cookie");
  EXPECT_FALSE(server.takeRequest().headers().get("Cookie"));
  EXPECT_EQ(server.takeRequest().headers().get("Cookie"), "session=42");
}

TEST_F(CookieJarCallTest, ExpiredCookieIsNoLongerSent) {
  auto jar = std::make_shared<InMemoryCookieJar>();
  server.enqueue(MockResponse::Builder().addHeader("Set-Cookie", "a=1").body("set").build());
  server.enqueue(
      MockResponse::Builder().addHeader("Set-Cookie", "a=1; Max-Age=0").body("expire").build());
  server.enqueue(body("without"));
  client = client.newBuilder().cookieJar(jar).build();
  fetch();
  fetch();
  fetch();
  EXPECT_FALSE(server.takeRequest().headers().get("Cookie"));
  EXPECT_EQ(server.takeRequest().headers().get("Cookie"), "a=1");
  EXPECT_FALSE(server.takeRequest().headers().get("Cookie"));
}

TEST_F(CookieJarCallTest, CallerCookieHeaderIsReplacedByTheJars) {
  auto jar = std::make_shared<RecordingCookieJar>();
  jar->enqueueRequestCookies(
      {Cookie::Builder().name("jar").value("1").domain("127.0.0.1").build()});
  server.enqueue(body("ok"));
  client = client.newBuilder().cookieJar(jar).build();
  execute(Request::Builder().url(server.url("/")).header("Cookie", "caller=1").build())
      .body()
      ->string();
  EXPECT_EQ(server.takeRequest().headers().get("Cookie"), "jar=1");
}

}  // namespace
}  // namespace tern::testing
