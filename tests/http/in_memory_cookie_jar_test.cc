// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
// InMemoryCookieJar: RFC 6265bis's storage model (§5.7) and Cookie header order (§5.8.3), on a
// fake clock.
#include "tern/in_memory_cookie_jar.h"

#include <gtest/gtest.h>

#include <atomic>
#include <string>
#include <thread>
#include <vector>

namespace tern {
namespace {

// 2030-01-01T00:00:00Z, in milliseconds.
constexpr int64_t kStart = 1893456000000;

class InMemoryCookieJarTest : public ::testing::Test {
 protected:
  std::shared_ptr<std::atomic<int64_t>> clock = std::make_shared<std::atomic<int64_t>>(kStart);
  InMemoryCookieJar::Clock clockFunction() {
    return [clock = clock] { return clock->load(); };
  }
  InMemoryCookieJar jar{InMemoryCookieJar::Limits{}, clockFunction()};

  void advance(std::chrono::milliseconds by) { *clock += by.count(); }

  // Parses each Set-Cookie value as received from `url` now, and hands them to the jar.
  void receive(std::string_view url, std::vector<std::string> setCookies) {
    receiveInto(jar, url, std::move(setCookies));
  }
  void receiveInto(InMemoryCookieJar& target, std::string_view url,
                   std::vector<std::string> setCookies) {
    HttpUrl parsed = HttpUrl::get(url);
    std::vector<Cookie> cookies;
    for (const std::string& setCookie : setCookies) {
      std::optional<Cookie> cookie = Cookie::parse(clock->load(), parsed, setCookie);
      if (cookie) cookies.push_back(*cookie);
    }
    target.saveFromResponse(parsed, cookies);
  }

  // The Cookie header the jar makes for `url`, as the bridge writes it.
  std::string header(std::string_view url) { return headerFrom(jar, url); }
  static std::string headerFrom(InMemoryCookieJar& source, std::string_view url) {
    std::string result;
    for (const Cookie& cookie : source.loadForRequest(HttpUrl::get(url))) {
      if (!result.empty()) result += "; ";
      result += cookie.name() + "=" + cookie.value();
    }
    return result;
  }
};

TEST_F(InMemoryCookieJarTest, HostOnlyCookieGoesOnlyToItsHost) {
  receive("http://www.example.com/", {"a=1"});
  EXPECT_EQ(header("http://www.example.com/"), "a=1");
  EXPECT_EQ(header("http://sub.www.example.com/"), "");
  EXPECT_EQ(header("http://example.com/"), "");
  EXPECT_EQ(header("http://www.example.org/"), "");
}

TEST_F(InMemoryCookieJarTest, DomainCookieGoesToSubdomains) {
  receive("http://www.example.com/", {"a=1; Domain=example.com", "b=2; Domain=.example.com"});
  EXPECT_EQ(header("http://example.com/"), "a=1; b=2");
  EXPECT_EQ(header("http://www.example.com/"), "a=1; b=2");
  EXPECT_EQ(header("http://deep.sub.example.com/"), "a=1; b=2");
  EXPECT_EQ(header("http://notexample.com/"), "");
}

TEST_F(InMemoryCookieJarTest, DomainOfAnotherSiteIsRejected) {
  receive("http://www.example.com/",
          {"a=1; Domain=example.org", "b=2; Domain=sub.www.example.com"});
  // A hand-built cookie for another domain is checked by the jar too.
  jar.saveFromResponse(
      HttpUrl::get("http://www.example.com/"),
      {Cookie::Builder().name("c").value("3").domain("example.org").build(),
       Cookie::Builder().name("d").value("4").hostOnlyDomain("other.com").build()});
  EXPECT_TRUE(jar.cookies().empty());
}

TEST_F(InMemoryCookieJarTest, PublicSuffixDomainsAreRejected) {
  receive("http://www.example.co.uk/", {"a=1; Domain=co.uk", "b=2; Domain=uk"});
  jar.saveFromResponse(HttpUrl::get("http://www.example.co.uk/"),
                       {Cookie::Builder().name("c").value("3").domain("co.uk").build()});
  EXPECT_TRUE(jar.cookies().empty());
  EXPECT_EQ(header("http://other.co.uk/"), "");
}

TEST_F(InMemoryCookieJarTest, PublicSuffixThatIsTheHostMakesAHostOnlyCookie) {
  // RFC 6265bis §5.7 step 9: a Domain equal to the host is kept, but host-only.
  receive("http://github.io/", {"a=1; Domain=github.io"});
  ASSERT_EQ(jar.cookies().size(), 1u);
  EXPECT_TRUE(jar.cookies()[0].hostOnly());
  EXPECT_EQ(header("http://github.io/"), "a=1");
  EXPECT_EQ(header("http://someone.github.io/"), "");
}

TEST_F(InMemoryCookieJarTest, IpAddressHostsGetHostOnlyCookies) {
  receive("http://127.0.0.1/", {"a=1; Domain=127.0.0.1", "b=2; Domain=0.0.1"});
  ASSERT_EQ(jar.cookies().size(), 1u);
  EXPECT_TRUE(jar.cookies()[0].hostOnly());
  EXPECT_EQ(header("http://127.0.0.1/"), "a=1");
}

TEST_F(InMemoryCookieJarTest, PathMatching) {
  receive("http://example.com/", {"root=1; Path=/", "docs=2; Path=/docs", "slash=3; Path=/docs/"});
  EXPECT_EQ(header("http://example.com/"), "root=1");
  EXPECT_EQ(header("http://example.com/docs"), "docs=2; root=1");
  EXPECT_EQ(header("http://example.com/docs/"), "slash=3; docs=2; root=1");
  EXPECT_EQ(header("http://example.com/docs/a/b"), "slash=3; docs=2; root=1");
  EXPECT_EQ(header("http://example.com/docsets"), "root=1");
  EXPECT_EQ(header("http://example.com/Docs"), "root=1");  // Paths are case-sensitive.
}

TEST_F(InMemoryCookieJarTest, DefaultPathIsTheDirectoryOfTheUrl) {
  receive("http://example.com/a/b/page?q=1", {"d=1"});
  receive("http://example.com/top", {"t=2"});
  receive("http://example.com/x/y/", {"e=3", "rel=4; Path=relative"});
  EXPECT_EQ(jar.cookies()[0].path(), "/a/b");
  EXPECT_EQ(jar.cookies()[1].path(), "/");
  EXPECT_EQ(jar.cookies()[2].path(), "/x/y");
  EXPECT_EQ(jar.cookies()[3].path(), "/x/y");  // A Path that is not absolute is ignored.
  EXPECT_EQ(header("http://example.com/a/b"), "d=1; t=2");
  EXPECT_EQ(header("http://example.com/a/bc"), "t=2");
}

TEST_F(InMemoryCookieJarTest, HeaderOrderIsLongerPathsFirstThenEarlierCreation) {
  receive("http://example.com/", {"c=1; Path=/"});
  advance(std::chrono::seconds(1));
  receive("http://example.com/", {"b=2; Path=/a/b"});
  advance(std::chrono::seconds(1));
  receive("http://example.com/", {"a=3; Path=/", "z=4; Path=/a"});
  EXPECT_EQ(header("http://example.com/a/b/c"), "b=2; z=4; c=1; a=3");
}

TEST_F(InMemoryCookieJarTest, ReplacementKeepsTheCreationTime) {
  receive("http://example.com/", {"a=1", "b=2"});
  advance(std::chrono::seconds(5));
  receive("http://example.com/", {"a=new"});
  EXPECT_EQ(header("http://example.com/"), "a=new; b=2");  // a is still the older cookie.
  ASSERT_EQ(jar.cookies().size(), 2u);
  EXPECT_EQ(jar.cookies()[0].value(), "new");
}

TEST_F(InMemoryCookieJarTest, SameNameWithOtherDomainOrPathIsAnotherCookie) {
  receive("http://www.example.com/", {"a=host", "a=domain; Domain=example.com", "a=path; Path=/p"});
  EXPECT_EQ(jar.cookies().size(), 3u);
  EXPECT_EQ(header("http://www.example.com/p"), "a=path; a=host; a=domain");
}

TEST_F(InMemoryCookieJarTest, MaxAgeExpires) {
  receive("http://example.com/", {"a=1; Max-Age=60", "b=2"});
  advance(std::chrono::seconds(59));
  EXPECT_EQ(header("http://example.com/"), "a=1; b=2");
  advance(std::chrono::seconds(1));
  EXPECT_EQ(header("http://example.com/"), "b=2");
  EXPECT_EQ(jar.cookies().size(), 1u);
}

TEST_F(InMemoryCookieJarTest, ExpiresExpires) {
  receive("http://example.com/", {"a=1; Expires=Tue, 01 Jan 2030 01:00:00 GMT"});
  advance(std::chrono::minutes(59));
  EXPECT_EQ(header("http://example.com/"), "a=1");
  advance(std::chrono::minutes(1));
  EXPECT_EQ(header("http://example.com/"), "");
}

TEST_F(InMemoryCookieJarTest, MaxAgeWinsOverExpires) {
  receive("http://example.com/", {"a=1; Expires=Tue, 01 Jan 2030 00:00:10 GMT; Max-Age=3600",
                                  "b=2; Max-Age=10; Expires=Wed, 01 Jan 2031 00:00:00 GMT"});
  advance(std::chrono::seconds(30));
  EXPECT_EQ(header("http://example.com/"), "a=1");
}

TEST_F(InMemoryCookieJarTest, PastExpiryDeletesTheStoredCookie) {
  receive("http://example.com/", {"a=1", "b=2", "c=3"});
  receive("http://example.com/",
          {"a=gone; Max-Age=0", "b=gone; Expires=Thu, 01 Jan 1970 00:00:00 GMT", "c=x; Max-Age=-1",
           "d=never; Max-Age=0"});
  EXPECT_TRUE(jar.cookies().empty());
}

TEST_F(InMemoryCookieJarTest, DeletionMustMatchDomainAndPath) {
  receive("http://www.example.com/", {"a=1; Path=/x"});
  receive("http://www.example.com/", {"a=gone; Max-Age=0"});  // Path "/": another cookie.
  EXPECT_EQ(jar.cookies().size(), 1u);
  receive("http://www.example.com/", {"a=gone; Max-Age=0; Path=/x"});
  EXPECT_TRUE(jar.cookies().empty());
}

TEST_F(InMemoryCookieJarTest, SecureCookiesOnlyFromAndOverHttps) {
  receive("http://example.com/", {"insecure=1; Secure"});
  EXPECT_TRUE(jar.cookies().empty());
  receive("https://example.com/", {"s=1; Secure", "p=2"});
  EXPECT_EQ(header("https://example.com/"), "s=1; p=2");
  EXPECT_EQ(header("http://example.com/"), "p=2");
}

TEST_F(InMemoryCookieJarTest, InsecureOriginCannotOverwriteASecureCookie) {
  receive("https://www.example.com/", {"s=secure; Secure; Domain=example.com", "t=1; Secure"});
  receive("http://www.example.com/", {"s=evil", "t=evil; Path=/deeper"});
  receive("http://other.example.com/", {"s=evil; Domain=example.com"});
  EXPECT_EQ(header("https://www.example.com/deeper"), "s=secure; t=1");
  EXPECT_EQ(jar.cookies().size(), 2u);
  // From https it may replace it, even with a cookie that is not Secure.
  receive("https://www.example.com/", {"s=plain; Domain=example.com"});
  EXPECT_EQ(header("http://www.example.com/"), "s=plain");
}

TEST_F(InMemoryCookieJarTest, NamePrefixesAreEnforced) {
  // Default path "/dir": a __Host- cookie must say Path=/.
  receive("https://www.example.com/dir/page",
          {"__Secure-a=1", "__Secure-b=2; Secure", "__Host-c=3; Secure; Path=/",
           "__Host-d=4; Secure", "__Host-e=5; Secure; Path=/; Domain=example.com",
           "__Host-f=6; Path=/", "__host-g=7; Path=/"});
  EXPECT_EQ(header("https://www.example.com/dir/"), "__Secure-b=2; __Host-c=3");
}

TEST_F(InMemoryCookieJarTest, HttpOnlyAndSameSiteAreKept) {
  receive("https://example.com/", {"a=1; HttpOnly; SameSite=Strict", "b=2; SameSite=None; Secure"});
  std::vector<Cookie> cookies = jar.cookies();
  ASSERT_EQ(cookies.size(), 2u);
  EXPECT_TRUE(cookies[0].httpOnly());
  EXPECT_EQ(cookies[0].sameSite(), "Strict");
  EXPECT_EQ(cookies[1].sameSite(), "None");
  EXPECT_EQ(header("https://example.com/"), "a=1; b=2");  // An HTTP client sends them all.
}

TEST_F(InMemoryCookieJarTest, OversizedCookiesAreRejected) {
  std::string name(96, 'n');
  receive("http://example.com/", {name + "=" + std::string(4000, 'v'),  // 4096 bytes: kept.
                                  name + "x=" + std::string(4000, 'v')});
  ASSERT_EQ(jar.cookies().size(), 1u);
  EXPECT_EQ(jar.cookies()[0].name(), name);
}

TEST_F(InMemoryCookieJarTest, PerDomainLimitEvictsExpiredThenLeastRecentlyUsed) {
  InMemoryCookieJar small(InMemoryCookieJar::Limits{4096, 3, 100}, clockFunction());
  receiveInto(small, "http://a.example.com/", {"old=1"});
  advance(std::chrono::seconds(1));
  receiveInto(small, "http://b.example.com/", {"short=2; Max-Age=1", "used=3"});
  advance(std::chrono::seconds(2));
  receiveInto(small, "http://example.com/", {"new=4"});
  // Four in the registrable domain: the expired "short" went, though "old" was used longer ago.
  EXPECT_EQ(headerFrom(small, "http://a.example.com/"), "old=1");
  advance(std::chrono::seconds(1));
  receiveInto(small, "http://example.com/", {"newest=5"});
  // Then the least recently used: "used".
  EXPECT_EQ(headerFrom(small, "http://b.example.com/"), "");
  EXPECT_EQ(headerFrom(small, "http://a.example.com/"), "old=1");
  EXPECT_EQ(headerFrom(small, "http://example.com/"), "new=4; newest=5");
  // Another registrable domain has a count of its own.
  receiveInto(small, "http://example.org/", {"x=1", "y=2", "z=3"});
  EXPECT_EQ(small.cookies().size(), 6u);
}

TEST_F(InMemoryCookieJarTest, TotalLimitEvictsLeastRecentlyUsed) {
  InMemoryCookieJar small(InMemoryCookieJar::Limits{4096, 100, 3}, clockFunction());
  receiveInto(small, "http://a.com/", {"a=1"});
  advance(std::chrono::seconds(1));
  receiveInto(small, "http://b.com/", {"b=1"});
  advance(std::chrono::seconds(1));
  receiveInto(small, "http://c.com/", {"c=1"});
  advance(std::chrono::seconds(1));
  EXPECT_EQ(headerFrom(small, "http://a.com/"), "a=1");
  receiveInto(small, "http://d.com/", {"d=1"});
  EXPECT_EQ(headerFrom(small, "http://b.com/"), "");
  EXPECT_EQ(small.cookies().size(), 3u);
}

TEST_F(InMemoryCookieJarTest, DefaultLimitsHoldFiftyPerDomainAndThreeThousandInAll) {
  for (int i = 0; i < 50; ++i) receive("http://example.com/", {"c" + std::to_string(i) + "=1"});
  EXPECT_EQ(jar.cookies().size(), 50u);
  for (int site = 0; site < 100; ++site) {
    std::vector<std::string> setCookies;
    for (int i = 0; i < 30; ++i) setCookies.push_back("c" + std::to_string(i) + "=1");
    receive("http://site" + std::to_string(site) + ".com/", setCookies);
  }
  EXPECT_EQ(jar.cookies().size(), 3000u);
}

TEST_F(InMemoryCookieJarTest, LimitsMustBePositive) {
  EXPECT_THROW(InMemoryCookieJar(InMemoryCookieJar::Limits{0, 1, 1}), std::invalid_argument);
  EXPECT_THROW(InMemoryCookieJar(InMemoryCookieJar::Limits{1, 1, 0}), std::invalid_argument);
}

TEST_F(InMemoryCookieJarTest, AddSkipsTheOriginChecks) {
  jar.add(Cookie::Builder().name("a").value("1").domain("example.com").secure().build());
  jar.add(Cookie::Builder().name("b").value("2").domain("co.uk").build());  // Made host-only.
  jar.add(
      Cookie::Builder().name("gone").value("x").hostOnlyDomain("example.com").expiresAt(1).build());
  EXPECT_EQ(header("https://www.example.com/"), "a=1");
  EXPECT_EQ(header("http://co.uk/"), "b=2");
  EXPECT_EQ(header("http://x.co.uk/"), "");
  EXPECT_EQ(jar.cookies().size(), 2u);
}

TEST_F(InMemoryCookieJarTest, ClearSessionKeepsPersistentCookies) {
  receive("http://example.com/", {"session=1", "persistent=2; Max-Age=60"});
  jar.clearSession();
  EXPECT_EQ(header("http://example.com/"), "persistent=2");
  jar.clear();
  EXPECT_TRUE(jar.cookies().empty());
}

TEST_F(InMemoryCookieJarTest, ConcurrentSavesAndLoads) {
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([this, t] {
      for (int i = 0; i < 200; ++i) {
        receive("http://example.com/", {"t" + std::to_string(t) + "=" + std::to_string(i)});
        (void)header("http://example.com/");
      }
    });
  }
  for (std::thread& thread : threads) thread.join();
  std::vector<Cookie> cookies = jar.cookies();
  ASSERT_EQ(cookies.size(), 4u);
  for (const Cookie& cookie : cookies) EXPECT_EQ(cookie.value(), "199");
}

}  // namespace
}  // namespace tern
