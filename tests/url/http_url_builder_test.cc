// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
// HttpUrl::Builder: composing URLs, each component's percent-encoding, path segments and query
// parameters, in the spirit of OkHttp's HttpUrlTest.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <stdexcept>
#include <string>

#include "tern/http_url.h"

namespace tern {
namespace {

using ::testing::ElementsAre;
using ::testing::Optional;

HttpUrl::Builder hostBuilder() { return HttpUrl::get("http://host/").newBuilder(); }

std::string pathAfter(const char* base, HttpUrl::Builder& (*edit)(HttpUrl::Builder&)) {
  HttpUrl::Builder builder = HttpUrl::get(base).newBuilder();
  return edit(builder).build().encodedPath();
}

TEST(HttpUrlBuilderTest, ComposesAUrl) {
  const HttpUrl url = HttpUrl::Builder()
                          .scheme("https")
                          .host("www.google.com")
                          .addPathSegment("search")
                          .addQueryParameter("q", "polar bears")
                          .build();
  EXPECT_EQ(url.toString(), "https://www.google.com/search?q=polar%20bears");
  EXPECT_THAT(url.queryParameter("q"), Optional(std::string("polar bears")));
}

TEST(HttpUrlBuilderTest, EachComponentHasItsOwnEncodeSet) {
  const HttpUrl url = HttpUrl::get("http://who-let-the-dogs.out")
                          .newBuilder()
                          .addPathSegment("_Who?_")
                          .query("_Who?_")
                          .fragment("_Who?_")
                          .build();
  EXPECT_EQ(url.toString(), "http://who-let-the-dogs.out/_Who%3F_?_Who?_#_Who?_");
}

TEST(HttpUrlBuilderTest, ComposeFromUnencodedComponents) {
  const HttpUrl url = HttpUrl::Builder()
                          .scheme("http")
                          .username("a:\x01@/\\?#%b")
                          .password("c:\x01@/\\?#%d")
                          .host("ef")
                          .port(8080)
                          .addPathSegment("g:\x01@/\\?#%h")
                          .query("i:\x01@/\\?#%j")
                          .fragment("k:\x01@/\\?#%l")
                          .build();
  EXPECT_EQ(url.toString(),
            "http://a%3A%01%40%2F%5C%3F%23%25b:c%3A%01%40%2F%5C%3F%23%25d@ef:8080/"
            "g:%01@%2F%5C%3F%23%25h?i:%01@/\\?%23%25j#k:%01@/\\?#%25l");
  EXPECT_EQ(url.username(), "a:\x01@/\\?#%b");
  EXPECT_EQ(url.password(), "c:\x01@/\\?#%d");
  EXPECT_THAT(url.pathSegments(), ElementsAre("g:\x01@/\\?#%h"));
  EXPECT_THAT(url.query(), Optional(std::string("i:\x01@/\\?#%j")));
  EXPECT_THAT(url.fragment(), Optional(std::string("k:\x01@/\\?#%l")));
  EXPECT_EQ(url.encodedUsername(), "a%3A%01%40%2F%5C%3F%23%25b");
  EXPECT_EQ(url.encodedPassword(), "c%3A%01%40%2F%5C%3F%23%25d");
  EXPECT_EQ(url.encodedPath(), "/g:%01@%2F%5C%3F%23%25h");
  EXPECT_THAT(url.encodedQuery(), Optional(std::string("i:%01@/\\?%23%25j")));
  EXPECT_THAT(url.encodedFragment(), Optional(std::string("k:%01@/\\?#%25l")));
}

TEST(HttpUrlBuilderTest, ComposeFromEncodedComponentsKeepsValidEscapes) {
  const HttpUrl url = HttpUrl::Builder()
                          .scheme("http")
                          .encodedUsername("a:\x01@/\\?#%25b")
                          .encodedPassword("c:\x01@/\\?#%25d")
                          .host("ef")
                          .port(8080)
                          .addEncodedPathSegment("g:\x01@/\\?#%25h")
                          .encodedQuery("i:\x01@/\\?#%25j")
                          .encodedFragment("k:\x01@/\\?#%25l")
                          .build();
  EXPECT_EQ(url.toString(),
            "http://a%3A%01%40%2F%5C%3F%23%25b:c%3A%01%40%2F%5C%3F%23%25d@ef:8080/"
            "g:%01@%2F%5C%3F%23%25h?i:%01@/\\?%23%25j#k:%01@/\\?#%25l");
  EXPECT_EQ(url.username(), "a:\x01@/\\?#%b");
  EXPECT_THAT(url.pathSegments(), ElementsAre("g:\x01@/\\?#%h"));
}

TEST(HttpUrlBuilderTest, ComposeEncodesWhitespace) {
  const HttpUrl url = HttpUrl::Builder()
                          .scheme("http")
                          .username("a\r\n\f\t b")
                          .password("c\r\n\f\t d")
                          .host("host")
                          .addPathSegment("e\r\n\f\t f")
                          .query("g\r\n\f\t h")
                          .fragment("i\r\n\f\t j")
                          .build();
  // The fragment's space is encoded too: the WHATWG fragment set has it (OkHttp's does not).
  EXPECT_EQ(url.toString(),
            "http://a%0D%0A%0C%09%20b:c%0D%0A%0C%09%20d@host"
            "/e%0D%0A%0C%09%20f?g%0D%0A%0C%09%20h#i%0D%0A%0C%09%20j");
  EXPECT_EQ(url.username(), "a\r\n\f\t b");
  EXPECT_EQ(url.pathSegments()[0], "e\r\n\f\t f");
  EXPECT_THAT(url.query(), Optional(std::string("g\r\n\f\t h")));
  EXPECT_THAT(url.fragment(), Optional(std::string("i\r\n\f\t j")));
}

TEST(HttpUrlBuilderTest, EncodedVariantsDropTabsAndNewlines) {
  const HttpUrl url = hostBuilder()
                          .encodedUsername("u\ts\nr")
                          .addEncodedPathSegment("a\r\nb")
                          .encodedQuery("q\t=1")
                          .encodedFragment("f\fg")
                          .build();
  EXPECT_EQ(url.toString(), "http://usr@host/ab?q=1#fg");
}

TEST(HttpUrlBuilderTest, NonAsciiIsEncodedAsUtf8) {
  const HttpUrl url = hostBuilder()
                          .username("\xc3\xa9")
                          .addPathSegment("\xe2\x98\x83")
                          .addQueryParameter("\xce\xa3", "\xf0\x9f\x8d\xa9")
                          .fragment("\xc3\xa9")
                          .build();
  EXPECT_EQ(url.toString(), "http://%C3%A9@host/%E2%98%83?%CE%A3=%F0%9F%8D%A9#%C3%A9");
  EXPECT_EQ(url.username(), "\xc3\xa9");
  EXPECT_THAT(url.queryParameter("\xce\xa3"), Optional(std::string("\xf0\x9f\x8d\xa9")));
}

TEST(HttpUrlBuilderTest, RoundTripsPercentSigns) {
  const HttpUrl url = HttpUrl::Builder()
                          .scheme("http")
                          .username("%")
                          .password("%")
                          .host("host")
                          .addPathSegment("%")
                          .query("%")
                          .fragment("%")
                          .build();
  EXPECT_EQ(url.toString(), "http://%25:%25@host/%25?%25#%25");
  EXPECT_EQ(url.newBuilder().build().toString(), "http://%25:%25@host/%25?%25#%25");
  EXPECT_EQ(url.resolve("")->toString(), "http://%25:%25@host/%25?%25");
}

TEST(HttpUrlBuilderTest, NewBuilderRoundTripsEveryComponent) {
  for (const char* spec :
       {"https://user:pass@example.com:8443/a/b%20c/?q=1&r&=&s=#frag", "http://[::1]/", "ws://h/?",
        "wss://h/#", "http://1.2.3.4:1/a//b", "http://h/%zz?%zz#%zz"}) {
    const HttpUrl url = HttpUrl::get(spec);
    EXPECT_EQ(url.newBuilder().build(), url) << spec;
    EXPECT_EQ(url.newBuilder().toString(), url.toString()) << spec;
  }
}

TEST(HttpUrlBuilderTest, IncompleteBuilderToString) {
  EXPECT_EQ(HttpUrl::Builder().scheme("https").encodedPath("/path").toString(), "https:///path");
  EXPECT_EQ(HttpUrl::Builder().host("host.com").encodedPath("/path").toString(), "//host.com/path");
  EXPECT_EQ(HttpUrl::Builder().host("host.com").encodedPath("/path").port(8080).toString(),
            "//host.com:8080/path");
}

TEST(HttpUrlBuilderTest, BuildWithoutSchemeOrHostThrows) {
  EXPECT_THROW(HttpUrl::Builder().scheme("http").build(), std::logic_error);
  EXPECT_THROW(HttpUrl::Builder().host("host").build(), std::logic_error);
  try {
    HttpUrl::Builder().scheme("http").build();
  } catch (const std::logic_error& e) {
    EXPECT_STREQ(e.what(), "HttpUrl::Builder: host is not set");
  }
}

TEST(HttpUrlBuilderTest, SchemeAcceptsOnlyHttpAndWebSocketSchemes) {
  EXPECT_EQ(hostBuilder().scheme("HTTPS").build().toString(), "https://host/");
  EXPECT_EQ(hostBuilder().scheme("wss").build().toString(), "wss://host/");
  try {
    hostBuilder().scheme("ftp");
    ADD_FAILURE() << "expected std::invalid_argument";
  } catch (const std::invalid_argument& e) {
    EXPECT_STREQ(e.what(), "unexpected scheme: ftp");
  }
}

TEST(HttpUrlBuilderTest, ChangingSchemeChangesDefaultPort) {
  EXPECT_EQ(HttpUrl::get("http://example.com").newBuilder().scheme("https").build().port(), 443);
  EXPECT_EQ(HttpUrl::get("https://example.com").newBuilder().scheme("http").build().port(), 80);
  EXPECT_EQ(HttpUrl::get("https://example.com:1234").newBuilder().scheme("http").build().port(),
            1234);
  // Request maps ws to http this way.
  EXPECT_EQ(HttpUrl::get("wss://example.com/chat").newBuilder().scheme("https").build().toString(),
            "https://example.com/chat");
}

TEST(HttpUrlBuilderTest, PortMustBeInRange) {
  EXPECT_EQ(hostBuilder().port(1).build().port(), 1);
  EXPECT_EQ(hostBuilder().port(65535).build().port(), 65535);
  EXPECT_EQ(hostBuilder().port(80).build().toString(), "http://host/");
  EXPECT_THROW(hostBuilder().port(65536), std::invalid_argument);
  try {
    hostBuilder().port(0);
    ADD_FAILURE() << "expected std::invalid_argument";
  } catch (const std::invalid_argument& e) {
    EXPECT_STREQ(e.what(), "unexpected port: 0");
  }
}

TEST(HttpUrlBuilderTest, HostIsCanonicalized) {
  EXPECT_EQ(hostBuilder().host("EXAMPLE.com").build().host(), "example.com");
  EXPECT_EQ(hostBuilder()
                .host("B\xc3\xbc"
                      "cher.de")
                .build()
                .host(),
            "xn--bcher-kva.de");
  EXPECT_EQ(hostBuilder().host("%65xample.com").build().host(), "example.com");
  EXPECT_EQ(hostBuilder().host("0x7f.1").build().host(), "127.0.0.1");
  EXPECT_EQ(hostBuilder().host("my_host").build().host(), "my_host");
}

TEST(HttpUrlBuilderTest, HostAcceptsIpv6WithOrWithoutBrackets) {
  EXPECT_EQ(hostBuilder().host("[::1]").build().toString(), "http://[::1]/");
  EXPECT_EQ(hostBuilder().host("[::0001]").build().toString(), "http://[::1]/");
  EXPECT_EQ(hostBuilder().host("::1").build().toString(), "http://[::1]/");
  EXPECT_EQ(hostBuilder().host("::0001").build().host(), "::1");
}

TEST(HttpUrlBuilderTest, InvalidHostThrows) {
  for (const char* host : {"", "a b", "a/b", "[::1", "1.2.3.256", "a%b", "exa#mple", ":::"}) {
    try {
      hostBuilder().host(host);
      ADD_FAILURE() << "expected std::invalid_argument for " << host;
    } catch (const std::invalid_argument& e) {
      EXPECT_EQ(e.what(), "unexpected host: " + std::string(host));
    }
  }
}

TEST(HttpUrlBuilderTest, AddPathSegmentAppends) {
  EXPECT_EQ(pathAfter(
                "http://host/a/b/c", [](auto& b) -> auto& { return b.addPathSegment(""); }),
            "/a/b/c/");
  EXPECT_EQ(pathAfter(
                "http://host/a/b/c",
                [](auto& b) -> auto& { return b.addPathSegment("").addPathSegment("d"); }),
            "/a/b/c/d");
  EXPECT_EQ(pathAfter(
                "http://host/a/b/c",
                [](auto& b) -> auto& { return b.addPathSegment("").addPathSegment(""); }),
            "/a/b/c/");
  EXPECT_EQ(pathAfter(
                "http://host/", [](auto& b) -> auto& { return b.addPathSegment("a b"); }),
            "/a%20b");
}

TEST(HttpUrlBuilderTest, AddPathSegmentDotsNavigate) {
  EXPECT_EQ(pathAfter(
                "http://host/a/b/c", [](auto& b) -> auto& { return b.addPathSegment("."); }),
            "/a/b/c");
  EXPECT_EQ(pathAfter(
                "http://host/a/b/c", [](auto& b) -> auto& { return b.addPathSegment(".."); }),
            "/a/b/");
  EXPECT_EQ(pathAfter(
                "http://host/a/b/c",
                [](auto& b) -> auto& { return b.addPathSegment("").addPathSegment(".."); }),
            "/a/b/");
  // Encoded dots are only dots in the encoded variant.
  EXPECT_EQ(pathAfter(
                "http://host/a/b/c", [](auto& b) -> auto& { return b.addPathSegment("%2e"); }),
            "/a/b/c/%252e");
  EXPECT_EQ(
      pathAfter(
          "http://host/a/b/c", [](auto& b) -> auto& { return b.addEncodedPathSegment("%2E"); }),
      "/a/b/c");
  EXPECT_EQ(
      pathAfter(
          "http://host/a/b/c", [](auto& b) -> auto& { return b.addEncodedPathSegment("..\n"); }),
      "/a/b/");
  EXPECT_EQ(pathAfter(
                "http://host/a/b/c", [](auto& b) -> auto& { return b.addPathSegment(".\n"); }),
            "/a/b/c/.%0A");
}

TEST(HttpUrlBuilderTest, AddPathSegmentsSplitsOnSlashes) {
  const auto add = [](const char* base, const char* segments) {
    return HttpUrl::get(base).newBuilder().addPathSegments(segments).build().encodedPath();
  };
  EXPECT_EQ(add("http://host/a/b/c", ""), "/a/b/c/");
  EXPECT_EQ(add("http://host/a/b/c", "d"), "/a/b/c/d");
  EXPECT_EQ(add("http://host/a/b/c", "/"), "/a/b/c//");
  EXPECT_EQ(add("http://host/a/b/c", "d/"), "/a/b/c/d/");
  EXPECT_EQ(add("http://host/a/b/c", "/d"), "/a/b/c//d");
  EXPECT_EQ(add("http://host/a/b/c", "//"), "/a/b/c///");
  EXPECT_EQ(add("http://host/a/b/c", "d/e/f"), "/a/b/c/d/e/f");
  EXPECT_EQ(add("http://host/a/b/c", "/d/e///f"), "/a/b/c//d/e///f");
  EXPECT_EQ(add("http://host/a/b/c/", ""), "/a/b/c/");
  EXPECT_EQ(add("http://host/a/b/c/", "d"), "/a/b/c/d");
  EXPECT_EQ(add("http://host/a/b/c/", "/"), "/a/b/c//");
  EXPECT_EQ(add("http://host/", "d\\e"), "/d/e");
}

TEST(HttpUrlBuilderTest, AddEncodedPathSegmentsKeepsEscapes) {
  EXPECT_EQ(HttpUrl::get("http://host/a/b/c")
                .newBuilder()
                .addEncodedPathSegments("d/e/%20/\n")
                .build()
                .encodedPath(),
            "/a/b/c/d/e/%20/");
  EXPECT_EQ(HttpUrl::get("http://host/")
                .newBuilder()
                .addEncodedPathSegments("d\\e")
                .build()
                .encodedPath(),
            "/d/e");
}

TEST(HttpUrlBuilderTest, SetPathSegmentReplacesAndEncodes) {
  const HttpUrl base = HttpUrl::get("http://host/a/b/c");
  EXPECT_EQ(base.newBuilder().setPathSegment(0, "d").build().encodedPath(), "/d/b/c");
  EXPECT_EQ(base.newBuilder().setPathSegment(2, "d").build().encodedPath(), "/a/b/d");
  EXPECT_EQ(base.newBuilder().setPathSegment(0, "%25").build().encodedPath(), "/%2525/b/c");
  EXPECT_EQ(base.newBuilder().setPathSegment(0, "%2e").build().encodedPath(), "/%252e/b/c");
  EXPECT_EQ(base.newBuilder().setPathSegment(1, "/").build().encodedPath(), "/a/%2F/c");
  EXPECT_EQ(base.newBuilder().setPathSegment(0, "").build().encodedPath(), "//b/c");
  EXPECT_EQ(base.newBuilder().setEncodedPathSegment(0, "%25").build().encodedPath(), "/%25/b/c");
  EXPECT_EQ(base.newBuilder().setEncodedPathSegment(1, "/").build().encodedPath(), "/a/%2F/c");
}

TEST(HttpUrlBuilderTest, SetPathSegmentRejectsDotsAndBadIndexes) {
  HttpUrl::Builder builder = HttpUrl::get("http://host/a/b/c").newBuilder();
  EXPECT_THROW(builder.setPathSegment(0, "."), std::invalid_argument);
  EXPECT_THROW(builder.setPathSegment(0, ".."), std::invalid_argument);
  EXPECT_THROW(builder.setEncodedPathSegment(0, "%2e"), std::invalid_argument);
  EXPECT_THROW(builder.setEncodedPathSegment(0, ".\n"), std::invalid_argument);
  EXPECT_THROW(builder.setEncodedPathSegment(0, "..\n"), std::invalid_argument);
  EXPECT_THROW(HttpUrl::Builder().setPathSegment(1, "a"), std::out_of_range);
  EXPECT_THROW(HttpUrl::Builder().setEncodedPathSegment(1, "a"), std::out_of_range);
  try {
    builder.setPathSegment(0, "..");
  } catch (const std::invalid_argument& e) {
    EXPECT_STREQ(e.what(), "unexpected path segment: ..");
  }
}

TEST(HttpUrlBuilderTest, RemovePathSegmentKeepsAtLeastTheRoot) {
  const HttpUrl base = HttpUrl::get("http://host/a/b/c");
  EXPECT_EQ(base.newBuilder().removePathSegment(0).build().encodedPath(), "/b/c");
  const HttpUrl empty =
      base.newBuilder().removePathSegment(0).removePathSegment(0).removePathSegment(0).build();
  EXPECT_THAT(empty.pathSegments(), ElementsAre(""));
  EXPECT_EQ(empty.encodedPath(), "/");
  EXPECT_THROW(HttpUrl::Builder().removePathSegment(1), std::out_of_range);
}

TEST(HttpUrlBuilderTest, EncodedPathReplacesThePath) {
  const HttpUrl url =
      HttpUrl::Builder().scheme("http").host("host").encodedPath("/a%2Fb/c").build();
  EXPECT_EQ(url.toString(), "http://host/a%2Fb/c");
  EXPECT_THAT(url.pathSegments(), ElementsAre("a/b", "c"));
  EXPECT_EQ(hostBuilder().encodedPath("/a/./b/../c/").build().encodedPath(), "/a/c/");
  EXPECT_THROW(hostBuilder().encodedPath("a/b"), std::invalid_argument);
  EXPECT_THROW(hostBuilder().encodedPath(""), std::invalid_argument);
}

TEST(HttpUrlBuilderTest, MixingPathSegmentVariants) {
  const HttpUrl url = HttpUrl::Builder()
                          .scheme("http")
                          .host("host")
                          .encodedPath("/a%2fb/c")
                          .addPathSegment("d%25e")
                          .addEncodedPathSegment("f%25g")
                          .build();
  EXPECT_EQ(url.toString(), "http://host/a%2fb/c/d%2525e/f%25g");
  EXPECT_THAT(url.encodedPathSegments(), ElementsAre("a%2fb", "c", "d%2525e", "f%25g"));
  EXPECT_THAT(url.pathSegments(), ElementsAre("a/b", "c", "d%25e", "f%g"));
}

TEST(HttpUrlBuilderTest, QueryComponentsEncodeDelimiters) {
  const HttpUrl url = hostBuilder().addQueryParameter("a", "!$(),/:;?@[]\\^`{|}~").build();
  EXPECT_EQ(url.toString(),
            "http://host/?a=%21%24%28%29%2C%2F%3A%3B%3F%40%5B%5D%5C%5E%60%7B%7C%7D%7E");
  EXPECT_THAT(url.queryParameter("a"), Optional(std::string("!$(),/:;?@[]\\^`{|}~")));
}

TEST(HttpUrlBuilderTest, EncodedQueryComponentsAreNotReencoded) {
  const HttpUrl url = hostBuilder().addEncodedQueryParameter("a", "!$(),/:;?@[]\\^`{|}~").build();
  EXPECT_EQ(url.toString(), "http://host/?a=!$(),/:;?@[]\\^`{|}~");
  EXPECT_THAT(url.queryParameter("a"), Optional(std::string("!$(),/:;?@[]\\^`{|}~")));
}

TEST(HttpUrlBuilderTest, ComposeQueryWithComponents) {
  const HttpUrl url = hostBuilder().addQueryParameter("a+=& b", "c+=& d").build();
  EXPECT_EQ(url.toString(), "http://host/?a%2B%3D%26%20b=c%2B%3D%26%20d");
  EXPECT_THAT(url.queryParameterValue(0), Optional(std::string("c+=& d")));
  EXPECT_EQ(url.queryParameterName(0), "a+=& b");
  EXPECT_THAT(url.queryParameter("a+=& b"), Optional(std::string("c+=& d")));
  EXPECT_THAT(url.queryParameterNames(), ElementsAre("a+=& b"));
  EXPECT_THAT(url.queryParameterValues("a+=& b"), ElementsAre(Optional(std::string("c+=& d"))));
  EXPECT_EQ(url.querySize(), 1u);
  EXPECT_THAT(url.query(), Optional(std::string("a+=& b=c+=& d")));  // Ambiguous, as designed.
  EXPECT_THAT(url.encodedQuery(), Optional(std::string("a%2B%3D%26%20b=c%2B%3D%26%20d")));
}

TEST(HttpUrlBuilderTest, ComposeQueryWithEncodedComponents) {
  const HttpUrl url = hostBuilder().addEncodedQueryParameter("a+=& b", "c+=& d").build();
  EXPECT_EQ(url.toString(), "http://host/?a+%3D%26%20b=c+%3D%26%20d");
  EXPECT_THAT(url.queryParameter("a =& b"), Optional(std::string("c =& d")));
}

TEST(HttpUrlBuilderTest, RemoveAllQueryParameters) {
  HttpUrl url = hostBuilder()
                    .addQueryParameter("a+=& b", "c+=& d")
                    .removeAllQueryParameters("a+=& b")
                    .build();
  EXPECT_EQ(url.toString(), "http://host/");
  url = hostBuilder()
            .addEncodedQueryParameter("a+=& b", "c+=& d")
            .removeAllEncodedQueryParameters("a+=& b")
            .build();
  EXPECT_EQ(url.toString(), "http://host/");
  url =
      HttpUrl::get("http://host/?a=1&b=2&a=3&c").newBuilder().removeAllQueryParameters("a").build();
  EXPECT_EQ(url.toString(), "http://host/?b=2&c");
}

TEST(HttpUrlBuilderTest, RemoveAllKeepsTheQueryIfNothingWasRemoved) {
  EXPECT_EQ(hostBuilder().query("").removeAllQueryParameters("a").build().toString(),
            "http://host/?");
  EXPECT_EQ(hostBuilder().removeAllQueryParameters("a").build().toString(), "http://host/");
}

TEST(HttpUrlBuilderTest, SetQueryParameterReplacesAllValues) {
  HttpUrl url = hostBuilder()
                    .addQueryParameter("a+=& b", "c+=& d")
                    .addQueryParameter("x", "1")
                    .addQueryParameter("a+=& b", "e")
                    .setQueryParameter("a+=& b", "ef")
                    .build();
  EXPECT_EQ(url.toString(), "http://host/?x=1&a%2B%3D%26%20b=ef");
  url = hostBuilder()
            .addEncodedQueryParameter("a+=& b", "c+=& d")
            .setEncodedQueryParameter("a+=& b", "ef")
            .build();
  EXPECT_EQ(url.toString(), "http://host/?a+%3D%26%20b=ef");
  EXPECT_THAT(url.queryParameter("a =& b"), Optional(std::string("ef")));
}

// Every query mutator on a URL that already has parameters: an absent name must leave the
// existing ones exactly as they were (the README's tour once lost "q=tern" this way).
TEST(HttpUrlBuilderTest, SetQueryParameterKeepsTheOtherParameters) {
  const HttpUrl base = HttpUrl::get("https://example.com/search?q=tern");
  EXPECT_EQ(
      base.newBuilder().addPathSegment("page 2").setQueryParameter("lang", "en").build().toString(),
      "https://example.com/search/page%202?q=tern&lang=en");
  EXPECT_EQ(base.newBuilder().setQueryParameter("q", "c++").build().toString(),
            "https://example.com/search?q=c%2B%2B");
  EXPECT_EQ(base.newBuilder().setEncodedQueryParameter("lang", "e%20n").build().toString(),
            "https://example.com/search?q=tern&lang=e%20n");
  EXPECT_EQ(base.newBuilder().setQueryParameter("flag", std::nullopt).build().toString(),
            "https://example.com/search?q=tern&flag");
}

TEST(HttpUrlBuilderTest, QueryMutatorsOnExistingParameters) {
  const HttpUrl base = HttpUrl::get("http://host/?a=1&b=2&a=3&c");
  EXPECT_EQ(base.newBuilder().addQueryParameter("d", "4").build().toString(),
            "http://host/?a=1&b=2&a=3&c&d=4");
  EXPECT_EQ(base.newBuilder().addEncodedQueryParameter("d", "%34").build().toString(),
            "http://host/?a=1&b=2&a=3&c&d=%34");
  EXPECT_EQ(base.newBuilder().setQueryParameter("a", "5").build().toString(),
            "http://host/?b=2&c&a=5");
  EXPECT_EQ(base.newBuilder().setEncodedQueryParameter("b", "%35").build().toString(),
            "http://host/?a=1&a=3&c&b=%35");
  EXPECT_EQ(base.newBuilder().removeAllQueryParameters("absent").build().toString(),
            "http://host/?a=1&b=2&a=3&c");
  EXPECT_EQ(base.newBuilder().removeAllEncodedQueryParameters("absent").build().toString(),
            "http://host/?a=1&b=2&a=3&c");
  EXPECT_EQ(base.newBuilder().removeAllQueryParameters("c").build().toString(),
            "http://host/?a=1&b=2&a=3");
  EXPECT_EQ(base.newBuilder().removeAllEncodedQueryParameters("b").build().toString(),
            "http://host/?a=1&a=3&c");
  EXPECT_EQ(base.newBuilder()
                .removeAllQueryParameters("a")
                .removeAllQueryParameters("b")
                .removeAllQueryParameters("c")
                .build()
                .toString(),
            "http://host/");
  // A name written encoded in the URL is matched by its decoded form.
  EXPECT_EQ(HttpUrl::get("http://host/?a%20b=1&x=2")
                .newBuilder()
                .removeAllQueryParameters("a b")
                .build()
                .toString(),
            "http://host/?x=2");
  EXPECT_EQ(HttpUrl::get("http://host/?a%20b=1&x=2")
                .newBuilder()
                .setQueryParameter("y", "3")
                .build()
                .toString(),
            "http://host/?a%20b=1&x=2&y=3");
}

TEST(HttpUrlBuilderTest, MultipleValuesForOneName) {
  const HttpUrl url = hostBuilder()
                          .addQueryParameter("a+=& b", "c+=& d")
                          .addQueryParameter("a+=& b", "e+=& f")
                          .build();
  EXPECT_EQ(url.toString(),
            "http://host/?a%2B%3D%26%20b=c%2B%3D%26%20d&a%2B%3D%26%20b=e%2B%3D%26%20f");
  EXPECT_EQ(url.querySize(), 2u);
  EXPECT_THAT(url.queryParameterNames(), ElementsAre("a+=& b"));
  EXPECT_THAT(url.queryParameterValues("a+=& b"),
              ElementsAre(Optional(std::string("c+=& d")), Optional(std::string("e+=& f"))));
}

TEST(HttpUrlBuilderTest, QueryParameterWithoutValue) {
  const HttpUrl url = hostBuilder().addQueryParameter("flag", std::nullopt).build();
  EXPECT_EQ(url.toString(), "http://host/?flag");
  EXPECT_EQ(url.queryParameterValue(0), std::nullopt);
}

TEST(HttpUrlBuilderTest, QueryNullRemovesAndEmptyKeepsQuestionMark) {
  EXPECT_EQ(HttpUrl::get("http://host/?a").newBuilder().query(std::nullopt).build().querySize(),
            0u);
  const HttpUrl empty = hostBuilder().query("").build();
  EXPECT_EQ(empty.toString(), "http://host/?");
  EXPECT_EQ(empty.querySize(), 1u);
  EXPECT_EQ(empty.queryParameterName(0), "");
  EXPECT_EQ(empty.queryParameterValue(0), std::nullopt);
  const HttpUrl ampersand = hostBuilder().query("&").build();
  EXPECT_EQ(ampersand.querySize(), 2u);
  EXPECT_EQ(ampersand.queryParameterName(1), "");
}

TEST(HttpUrlBuilderTest, QueryEncodesWithTheQuerySet) {
  EXPECT_EQ(hostBuilder().query("a b&c=d+e'#").build().toString(),
            "http://host/?a%20b&c=d%2Be%27%23");
  EXPECT_EQ(hostBuilder().encodedQuery("a%20b&c=d+e").build().toString(),
            "http://host/?a%20b&c=d+e");
}

TEST(HttpUrlBuilderTest, ClearFragment) {
  HttpUrl url = HttpUrl::get("http://host/#fragment").newBuilder().fragment(std::nullopt).build();
  EXPECT_EQ(url.toString(), "http://host/");
  EXPECT_EQ(url.fragment(), std::nullopt);
  url = HttpUrl::get("http://host/#fragment").newBuilder().encodedFragment(std::nullopt).build();
  EXPECT_EQ(url.encodedFragment(), std::nullopt);
  EXPECT_EQ(hostBuilder().fragment("").build().toString(), "http://host/#");
}

TEST(HttpUrlBuilderTest, BuiltUrlsParseBackUnchanged) {
  const HttpUrl url = HttpUrl::Builder()
                          .scheme("https")
                          .username("u s'e:r")
                          .password("p@ss")
                          .host("\xc3\xa9xample.com")
                          .port(8443)
                          .addPathSegments("a b/c?d/#e")
                          .addQueryParameter("k y", "v&l")
                          .fragment("f r<a>g")
                          .build();
  EXPECT_EQ(HttpUrl::get(url.toString()), url);
  EXPECT_EQ(url.toString(),
            "https://u%20s%27e%3Ar:p%40ss@xn--xample-9ua.com:8443/a%20b/c%3Fd/%23e"
            "?k%20y=v%26l#f%20r%3Ca%3Eg");
}

}  // namespace
}  // namespace tern
