// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
// Relative resolution (resolve, newBuilder(link)), query parameter getters and redact(), in the
// spirit of OkHttp's HttpUrlTest.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <stdexcept>
#include <string>

#include "tern/http_url.h"

namespace tern {
namespace {

using ::testing::ElementsAre;
using ::testing::Optional;

HttpUrl url(const char* spec) { return HttpUrl::get(spec); }

TEST(HttpUrlResolveTest, ResolvesWithoutScheme) {
  const HttpUrl base = url("http://host/a/b");
  EXPECT_EQ(base.resolve("//host2"), url("http://host2/"));
  EXPECT_EQ(base.resolve("/path"), url("http://host/path"));
  EXPECT_EQ(base.resolve("path"), url("http://host/a/path"));
  EXPECT_EQ(base.resolve("?query"), url("http://host/a/b?query"));
  EXPECT_EQ(base.resolve("#fragment"), url("http://host/a/b#fragment"));
  EXPECT_EQ(base.resolve(""), url("http://host/a/b"));
  EXPECT_EQ(base.resolve("\\path"), url("http://host/path"));
}

TEST(HttpUrlResolveTest, ResolveKeepsUserinfoAndPortOfTheBase) {
  const HttpUrl base = url("https://u:p@host:8443/a/b?q#f");
  EXPECT_EQ(base.resolve("c")->toString(), "https://u:p@host:8443/a/c");
  EXPECT_EQ(base.resolve("/c")->toString(), "https://u:p@host:8443/c");
  EXPECT_EQ(base.resolve("#g")->toString(), "https://u:p@host:8443/a/b?q#g");
  EXPECT_EQ(base.resolve("//other/")->toString(), "https://other/");
}

TEST(HttpUrlResolveTest, UnsupportedSchemesResolveToNothing) {
  const HttpUrl base = url("http://a/");
  for (const char* link : {"ftp://b", "ht+tp://b", "ht-tp://b", "ht.tp://b", "mailto:x@y",
                           "javascript:alert(1)", "file:///etc/passwd", "data:,x"}) {
    EXPECT_EQ(base.resolve(link), std::nullopt) << link;
    EXPECT_EQ(base.newBuilder(link), std::nullopt) << link;
  }
}

TEST(HttpUrlResolveTest, InvalidLinksResolveToNothing) {
  const HttpUrl base = url("http://a/");
  EXPECT_EQ(base.resolve("http://"), std::nullopt);
  EXPECT_EQ(base.resolve("//a b/"), std::nullopt);
  EXPECT_EQ(base.resolve("https://h:99999/"), std::nullopt);
  EXPECT_EQ(base.resolve("//[::1/"), std::nullopt);
}

TEST(HttpUrlResolveTest, SchemeLikePathsAreRelative) {
  const HttpUrl base = url("http://a/");
  EXPECT_EQ(base.resolve("http//b/"), url("http://a/http//b/"));
  EXPECT_EQ(base.resolve("ht+tp//b/"), url("http://a/ht+tp//b/"));
  EXPECT_EQ(base.resolve("ht-tp//b/"), url("http://a/ht-tp//b/"));
  EXPECT_EQ(base.resolve("ht.tp//b/"), url("http://a/ht.tp//b/"));
}

// RFC 3986 §5.4.1.
TEST(HttpUrlResolveTest, Rfc3986NormalExamples) {
  const HttpUrl base = url("http://a/b/c/d;p?q");
  EXPECT_EQ(base.resolve("g:h"), std::nullopt);  // No "g" scheme in HttpUrl.
  EXPECT_EQ(base.resolve("g"), url("http://a/b/c/g"));
  EXPECT_EQ(base.resolve("./g"), url("http://a/b/c/g"));
  EXPECT_EQ(base.resolve("g/"), url("http://a/b/c/g/"));
  EXPECT_EQ(base.resolve("/g"), url("http://a/g"));
  EXPECT_EQ(base.resolve("//g"), url("http://g"));
  EXPECT_EQ(base.resolve("?y"), url("http://a/b/c/d;p?y"));
  EXPECT_EQ(base.resolve("g?y"), url("http://a/b/c/g?y"));
  EXPECT_EQ(base.resolve("#s"), url("http://a/b/c/d;p?q#s"));
  EXPECT_EQ(base.resolve("g#s"), url("http://a/b/c/g#s"));
  EXPECT_EQ(base.resolve("g?y#s"), url("http://a/b/c/g?y#s"));
  EXPECT_EQ(base.resolve(";x"), url("http://a/b/c/;x"));
  EXPECT_EQ(base.resolve("g;x"), url("http://a/b/c/g;x"));
  EXPECT_EQ(base.resolve("g;x?y#s"), url("http://a/b/c/g;x?y#s"));
  EXPECT_EQ(base.resolve(""), url("http://a/b/c/d;p?q"));
  EXPECT_EQ(base.resolve("."), url("http://a/b/c/"));
  EXPECT_EQ(base.resolve("./"), url("http://a/b/c/"));
  EXPECT_EQ(base.resolve(".."), url("http://a/b/"));
  EXPECT_EQ(base.resolve("../"), url("http://a/b/"));
  EXPECT_EQ(base.resolve("../g"), url("http://a/b/g"));
  EXPECT_EQ(base.resolve("../.."), url("http://a/"));
  EXPECT_EQ(base.resolve("../../"), url("http://a/"));
  EXPECT_EQ(base.resolve("../../g"), url("http://a/g"));
}

// RFC 3986 §5.4.2.
TEST(HttpUrlResolveTest, Rfc3986AbnormalExamples) {
  const HttpUrl base = url("http://a/b/c/d;p?q");
  EXPECT_EQ(base.resolve("../../../g"), url("http://a/g"));
  EXPECT_EQ(base.resolve("../../../../g"), url("http://a/g"));
  EXPECT_EQ(base.resolve("/./g"), url("http://a/g"));
  EXPECT_EQ(base.resolve("/../g"), url("http://a/g"));
  EXPECT_EQ(base.resolve("g."), url("http://a/b/c/g."));
  EXPECT_EQ(base.resolve(".g"), url("http://a/b/c/.g"));
  EXPECT_EQ(base.resolve("g.."), url("http://a/b/c/g.."));
  EXPECT_EQ(base.resolve("..g"), url("http://a/b/c/..g"));
  EXPECT_EQ(base.resolve("./../g"), url("http://a/b/g"));
  EXPECT_EQ(base.resolve("./g/."), url("http://a/b/c/g/"));
  EXPECT_EQ(base.resolve("g/./h"), url("http://a/b/c/g/h"));
  EXPECT_EQ(base.resolve("g/../h"), url("http://a/b/c/h"));
  EXPECT_EQ(base.resolve("g;x=1/./y"), url("http://a/b/c/g;x=1/y"));
  EXPECT_EQ(base.resolve("g;x=1/../y"), url("http://a/b/c/y"));
  EXPECT_EQ(base.resolve("g?y/./x"), url("http://a/b/c/g?y/./x"));
  EXPECT_EQ(base.resolve("g?y/../x"), url("http://a/b/c/g?y/../x"));
  EXPECT_EQ(base.resolve("g#s/./x"), url("http://a/b/c/g#s/./x"));
  EXPECT_EQ(base.resolve("g#s/../x"), url("http://a/b/c/g#s/../x"));
  EXPECT_EQ(base.resolve("http:g"), url("http://a/b/c/g"));  // Same scheme: relative.
}

TEST(HttpUrlResolveTest, SlashCountDoesNotMatterWithDifferentScheme) {
  const HttpUrl base = url("https://a/b/c");
  const HttpUrl expected = url("http://host/path");
  for (const char* link : {"http:host/path", "http:/host/path", "http:\\host/path",
                           "http://host/path", "http:\\\\host/path", "http:////host/path"}) {
    EXPECT_EQ(base.resolve(link), expected) << link;
  }
}

TEST(HttpUrlResolveTest, SlashCountMattersWithSameScheme) {
  const HttpUrl base = url("http://a/b/c");
  EXPECT_EQ(base.resolve("http:host/path"), url("http://a/b/host/path"));
  EXPECT_EQ(base.resolve("http:/host/path"), url("http://a/host/path"));
  EXPECT_EQ(base.resolve("http:\\host/path"), url("http://a/host/path"));
  EXPECT_EQ(base.resolve("http://host/path"), url("http://host/path"));
  EXPECT_EQ(base.resolve("http:\\/host/path"), url("http://host/path"));
  EXPECT_EQ(base.resolve("http:///host/path"), url("http://host/path"));
}

TEST(HttpUrlResolveTest, RelativePaths) {
  const HttpUrl base = url("http://host/a/b/c");
  EXPECT_EQ(base.resolve("d/e/f"), url("http://host/a/b/d/e/f"));
  EXPECT_EQ(base.resolve("../../d/e/f"), url("http://host/d/e/f"));
  EXPECT_EQ(base.resolve(".."), url("http://host/a/"));
  EXPECT_EQ(base.resolve("../.."), url("http://host/"));
  EXPECT_EQ(base.resolve("../../.."), url("http://host/"));
  EXPECT_EQ(base.resolve("."), url("http://host/a/b/"));
  EXPECT_EQ(base.resolve("././.."), url("http://host/a/"));
  EXPECT_EQ(base.resolve("c/d/../e/../"), url("http://host/a/b/c/"));
  EXPECT_EQ(base.resolve("..e/"), url("http://host/a/b/..e/"));
  EXPECT_EQ(base.resolve("e/f../"), url("http://host/a/b/e/f../"));
  EXPECT_EQ(base.resolve("%2E."), url("http://host/a/"));
  EXPECT_EQ(base.resolve(".%2E"), url("http://host/a/"));
  EXPECT_EQ(base.resolve("%2e%2e"), url("http://host/a/"));
  EXPECT_EQ(base.resolve("%2E"), url("http://host/a/b/"));
  EXPECT_EQ(base.resolve("d\\e\\f"), url("http://host/a/b/d/e/f"));
  EXPECT_EQ(base.resolve("..\\.."), url("http://host/"));
  EXPECT_EQ(base.resolve("http:d/e/f"), url("http://host/a/b/d/e/f"));
}

TEST(HttpUrlResolveTest, RelativePathsWithTrailingSlash) {
  const HttpUrl base = url("http://host/a/b/c/");
  EXPECT_EQ(base.resolve(".."), url("http://host/a/b/"));
  EXPECT_EQ(base.resolve("../.."), url("http://host/a/"));
  EXPECT_EQ(base.resolve("../../../.."), url("http://host/"));
  EXPECT_EQ(base.resolve("../../../../a"), url("http://host/a"));
  EXPECT_EQ(base.resolve("../../../../a/b/.."), url("http://host/a/"));
}

TEST(HttpUrlResolveTest, NewBuilderResolvesLinks) {
  const HttpUrl base = url("http://host/a/b");
  EXPECT_EQ(base.newBuilder("https://host2")->build(), url("https://host2/"));
  EXPECT_EQ(base.newBuilder("//host2")->build(), url("http://host2/"));
  EXPECT_EQ(base.newBuilder("path")->build(), url("http://host/a/path"));
  EXPECT_EQ(base.newBuilder("?query")->build(), url("http://host/a/b?query"));
  EXPECT_EQ(base.newBuilder("")->build(), url("http://host/a/b"));
  EXPECT_EQ(base.newBuilder("ftp://b"), std::nullopt);
}

TEST(HttpUrlResolveTest, WebSocketUrlsResolve) {
  const HttpUrl base = url("wss://chat.example.com/room/1");
  EXPECT_EQ(base.resolve("2")->toString(), "wss://chat.example.com/room/2");
  EXPECT_EQ(base.resolve("https://example.com/")->toString(), "https://example.com/");
}

TEST(HttpUrlResolveTest, RedactRemovesCredentialsPathQueryAndFragment) {
  EXPECT_EQ(url("http://username:password@host/a/b#fragment").redact(), "http://host/...");
  EXPECT_EQ(url("http://username@host/a/b#fragment").redact(), "http://host/...");
  EXPECT_EQ(url("http://:password@host/a/b?q=secret").redact(), "http://host/...");
  EXPECT_EQ(url("https://example.com:8443/secret?token=1#x").redact(),
            "https://example.com:8443/...");
  EXPECT_EQ(url("http://[::1]/").redact(), "http://[::1]/...");
}

TEST(HttpUrlQueryTest, ParametersWithoutValues) {
  const HttpUrl u = url("http://host/?foo&bar&baz");
  EXPECT_EQ(u.querySize(), 3u);
  EXPECT_THAT(u.queryParameterNames(), ElementsAre("foo", "bar", "baz"));
  EXPECT_EQ(u.queryParameterValue(0), std::nullopt);
  EXPECT_EQ(u.queryParameterValue(2), std::nullopt);
  EXPECT_THAT(u.queryParameterValues("foo"), ElementsAre(std::nullopt));
  EXPECT_EQ(u.queryParameter("foo"), std::nullopt);
}

TEST(HttpUrlQueryTest, ParametersWithEmptyValues) {
  const HttpUrl u = url("http://host/?foo=&bar=&baz=");
  EXPECT_EQ(u.querySize(), 3u);
  EXPECT_THAT(u.queryParameterValue(1), Optional(std::string("")));
  EXPECT_THAT(u.queryParameterValues("baz"), ElementsAre(Optional(std::string(""))));
  EXPECT_THAT(u.queryParameter("foo"), Optional(std::string("")));
}

TEST(HttpUrlQueryTest, ParametersWithRepeatedName) {
  const HttpUrl u = url("http://host/?foo[]=1&foo[]=2&foo[]=3");
  EXPECT_EQ(u.querySize(), 3u);
  EXPECT_THAT(u.queryParameterNames(), ElementsAre("foo[]"));
  EXPECT_THAT(u.queryParameterValue(1), Optional(std::string("2")));
  EXPECT_THAT(u.queryParameterValues("foo[]"),
              ElementsAre(Optional(std::string("1")), Optional(std::string("2")),
                          Optional(std::string("3"))));
  EXPECT_THAT(u.queryParameter("foo[]"), Optional(std::string("1")));
}

TEST(HttpUrlQueryTest, LookupDecodesNonCanonicalEncoding) {
  const HttpUrl u = url("http://host/?%6d=m&+=%20&a=b=c");
  EXPECT_EQ(u.queryParameterName(0), "m");
  EXPECT_EQ(u.queryParameterName(1), " ");
  EXPECT_THAT(u.queryParameter("m"), Optional(std::string("m")));
  EXPECT_THAT(u.queryParameter(" "), Optional(std::string(" ")));
  EXPECT_THAT(u.queryParameter("a"), Optional(std::string("b=c")));
}

TEST(HttpUrlQueryTest, NoQueryHasNoParameters) {
  const HttpUrl u = url("http://host/");
  EXPECT_EQ(u.querySize(), 0u);
  EXPECT_TRUE(u.queryParameterNames().empty());
  EXPECT_TRUE(u.queryParameterValues("a").empty());
  EXPECT_EQ(u.queryParameter("a"), std::nullopt);
  EXPECT_THROW(u.queryParameterName(0), std::out_of_range);
  EXPECT_THROW(u.queryParameterValue(0), std::out_of_range);
}

TEST(HttpUrlQueryTest, IndexPastTheEndThrows) {
  const HttpUrl u = url("http://host/?a=1");
  EXPECT_EQ(u.queryParameterName(0), "a");
  EXPECT_THROW(u.queryParameterName(1), std::out_of_range);
  EXPECT_THROW(u.queryParameterValue(1), std::out_of_range);
}

}  // namespace
}  // namespace tern
