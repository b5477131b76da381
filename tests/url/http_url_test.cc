// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
// Parsing and the getters of HttpUrl, in the spirit of OkHttp's HttpUrlTest. Where the WHATWG URL
// Standard (which HttpUrl follows) and OkHttp disagree, the test follows the standard and says so.
#include "tern/http_url.h"  // First: the header must stand alone.

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <sstream>
#include <stdexcept>
#include <string>
#include <unordered_set>

namespace tern {
namespace {

using ::testing::ElementsAre;
using ::testing::Optional;

// Asserts that get() rejects `url` with exactly `message`, and parse() returns std::nullopt.
void expectInvalid(const std::string& url, const std::string& message) {
  EXPECT_EQ(HttpUrl::parse(url), std::nullopt) << url;
  try {
    HttpUrl::get(url);
    ADD_FAILURE() << "expected std::invalid_argument for " << url;
  } catch (const std::invalid_argument& e) {
    EXPECT_EQ(e.what(), message) << url;
  }
}

TEST(HttpUrlTest, ParsesEveryComponent) {
  const HttpUrl url = HttpUrl::get("https://user:pass@example.com:8443/a/b%20c?q=1&r#top");
  EXPECT_EQ(url.scheme(), "https");
  EXPECT_TRUE(url.isHttps());
  EXPECT_EQ(url.username(), "user");
  EXPECT_EQ(url.password(), "pass");
  EXPECT_EQ(url.host(), "example.com");
  EXPECT_EQ(url.port(), 8443);
  EXPECT_EQ(url.encodedPath(), "/a/b%20c");
  EXPECT_THAT(url.pathSegments(), ElementsAre("a", "b c"));
  EXPECT_THAT(url.encodedQuery(), Optional(std::string("q=1&r")));
  EXPECT_THAT(url.fragment(), Optional(std::string("top")));
  EXPECT_EQ(url.toString(), "https://user:pass@example.com:8443/a/b%20c?q=1&r#top");
}

TEST(HttpUrlTest, ParseTrimsC0ControlsAndSpaces) {
  const HttpUrl expected = HttpUrl::get("http://host/");
  EXPECT_EQ(HttpUrl::get("http://host/\f\n\t \r"), expected);
  EXPECT_EQ(HttpUrl::get("\r\n\f \thttp://host/"), expected);
  EXPECT_EQ(HttpUrl::get("    http://host/    "), expected);
  EXPECT_EQ(HttpUrl::get(std::string("\0\x01http://host/\x1f", 15)), expected);
  EXPECT_EQ(expected.resolve("   "), expected);
  EXPECT_EQ(expected.resolve("  .  "), expected);
}

TEST(HttpUrlTest, ParseRemovesTabsAndNewlinesEverywhere) {
  EXPECT_EQ(HttpUrl::get("ht\ttp://ho\nst/pa\rth?q\t#f\n").toString(), "http://host/path?q#f");
}

TEST(HttpUrlTest, ParseDoesNotTrimOtherWhitespace) {
  // Only C0 controls and space are trimmed; other whitespace is percent-encoded.
  EXPECT_EQ(HttpUrl::get("http://h/\u0085").encodedPath(), "/%C2%85");
  EXPECT_EQ(HttpUrl::get("http://h/\u00a0").encodedPath(), "/%C2%A0");
  EXPECT_EQ(HttpUrl::get("http://h/\u1680").encodedPath(), "/%E1%9A%80");
  EXPECT_EQ(HttpUrl::get("http://h/\u2000").encodedPath(), "/%E2%80%80");
  EXPECT_EQ(HttpUrl::get("http://h/\u200b").encodedPath(), "/%E2%80%8B");
  EXPECT_EQ(HttpUrl::get("http://h/\u2028").encodedPath(), "/%E2%80%A8");
  EXPECT_EQ(HttpUrl::get("http://h/\u3000").encodedPath(), "/%E3%80%80");
  // A C0 control inside the URL is kept, encoded; OkHttp's test puts these at the end, where the
  // standard trims them.
  EXPECT_EQ(HttpUrl::get("http://h/a\x0b"
                         "b")
                .encodedPath(),
            "/a%0Bb");
  EXPECT_EQ(HttpUrl::get("http://h/a\x1f"
                         "b")
                .encodedPath(),
            "/a%1Fb");
}

TEST(HttpUrlTest, SchemesAreCaseInsensitiveAndLowercased) {
  EXPECT_EQ(HttpUrl::get("HTTP://host/").scheme(), "http");
  EXPECT_EQ(HttpUrl::get("HtTpS://host/").scheme(), "https");
  EXPECT_EQ(HttpUrl::get("WS://host/").toString(), "ws://host/");
}

TEST(HttpUrlTest, WebSocketSchemesAreKept) {
  const HttpUrl ws = HttpUrl::get("ws://example.com/chat");
  EXPECT_EQ(ws.scheme(), "ws");
  EXPECT_EQ(ws.port(), 80);
  EXPECT_FALSE(ws.isHttps());
  const HttpUrl wss = HttpUrl::get("wss://example.com:443/chat");
  EXPECT_EQ(wss.scheme(), "wss");
  EXPECT_EQ(wss.port(), 443);
  EXPECT_TRUE(wss.isHttps());
  EXPECT_EQ(wss.toString(), "wss://example.com/chat");
}

TEST(HttpUrlTest, RejectsOtherSchemesWithOkHttpsMessage) {
  expectInvalid("ftp://example.com/", "Expected URL scheme 'http' or 'https' but was 'ftp'");
  expectInvalid("file:///etc/passwd", "Expected URL scheme 'http' or 'https' but was 'file'");
  expectInvalid("mailto:a@b.c", "Expected URL scheme 'http' or 'https' but was 'mailto'");
  expectInvalid("Ht+tp://b", "Expected URL scheme 'http' or 'https' but was 'Ht+tp'");
}

TEST(HttpUrlTest, RejectsRelativeInputWithoutBase) {
  expectInvalid("/a/b", "Expected URL scheme 'http' or 'https' but no scheme was found for /a/b");
  expectInvalid(
      "example.com/path",
      "Expected URL scheme 'http' or 'https' but no scheme was found for example.com/path");
  expectInvalid("", "Expected URL scheme 'http' or 'https' but no scheme was found for ");
  // Not a scheme: "http" followed by something other than ':'.
  expectInvalid("http//host/",
                "Expected URL scheme 'http' or 'https' but no scheme was found for http//host/");
  // The message is never cut short, and a control byte cannot end or split it.
  expectInvalid(std::string("www.example.com/a\0b", 19),
                "Expected URL scheme 'http' or 'https' but no scheme was found for "
                "www.example.com/a\\x00b");
}

TEST(HttpUrlTest, AuthoritySlashCountDoesNotMatter) {
  const HttpUrl expected = HttpUrl::get("http://host/path");
  for (const char* url :
       {"http:host/path", "http:/host/path", "http:\\host/path", "http:\\/host/path",
        "http:/\\host/path", "http:\\\\host/path", "http:///host/path", "http:\\//host/path",
        "http://\\host/path", "http:\\\\\\host/path", "http:////host/path"}) {
    EXPECT_EQ(HttpUrl::get(url), expected) << url;
  }
}

TEST(HttpUrlTest, EmptyUsernameAndPasswordAreDropped) {
  EXPECT_EQ(HttpUrl::get("http://@host/path"), HttpUrl::get("http://host/path"));
  EXPECT_EQ(HttpUrl::get("http://:@host/path"), HttpUrl::get("http://host/path"));
  EXPECT_EQ(HttpUrl::get("http://username:@host/path"), HttpUrl::get("http://username@host/path"));
  EXPECT_EQ(HttpUrl::get("http://username:password@host/path").toString(),
            "http://username:password@host/path");
}

TEST(HttpUrlTest, LastAtSignDelimitsUserinfo) {
  const HttpUrl url = HttpUrl::get("http://foo@bar@baz/path");
  EXPECT_EQ(url.username(), "foo@bar");
  EXPECT_EQ(url.encodedUsername(), "foo%40bar");
  EXPECT_EQ(url.password(), "");
  EXPECT_EQ(url.host(), "baz");
  EXPECT_EQ(url, HttpUrl::get("http://foo%40bar@baz/path"));
}

TEST(HttpUrlTest, FirstColonDelimitsPassword) {
  const HttpUrl url = HttpUrl::get("http://foo:pass1@bar:pass2@baz/path");
  EXPECT_EQ(url.username(), "foo");
  EXPECT_EQ(url.password(), "pass1@bar:pass2");
  EXPECT_EQ(url, HttpUrl::get("http://foo:pass1%40bar%3Apass2@baz/path"));
  EXPECT_EQ(HttpUrl::get("http://:password@@host/path").encodedPassword(), "password%40");
}

TEST(HttpUrlTest, UserinfoIsPercentEncodedWithTheUserinfoSet) {
  const HttpUrl url = HttpUrl::get("http://a b\"<>`{}|^;=[]:c d:e@host/");
  EXPECT_EQ(url.encodedUsername(), "a%20b%22%3C%3E%60%7B%7D%7C%5E%3B%3D%5B%5D");
  EXPECT_EQ(url.username(), "a b\"<>`{}|^;=[]");
  EXPECT_EQ(url.encodedPassword(), "c%20d%3Ae");
  EXPECT_EQ(url.password(), "c d:e");
}

TEST(HttpUrlTest, DecodesUsernameAndPasswordAsUtf8) {
  EXPECT_EQ(HttpUrl::get("http://%F0%9F%8D%A9@host/").username(), "\U0001F369");
  EXPECT_EQ(HttpUrl::get("http://user:%F0%9F%8D%A9@host/").password(), "\U0001F369");
  EXPECT_EQ(HttpUrl::get("http://user:@host/").password(), "");
}

TEST(HttpUrlTest, PortDefaultsToTheSchemesPort) {
  EXPECT_EQ(HttpUrl::get("http://host/").port(), 80);
  EXPECT_EQ(HttpUrl::get("https://host/").port(), 443);
  EXPECT_EQ(HttpUrl::get("http://host:8080/").port(), 8080);
  EXPECT_EQ(HttpUrl::get("http://host:/").port(), 80);
  EXPECT_EQ(HttpUrl::get("http://host:/").toString(), "http://host/");
}

TEST(HttpUrlTest, DefaultPortIsOmittedFromToString) {
  EXPECT_EQ(HttpUrl::get("http://host:80/").toString(), "http://host/");
  EXPECT_EQ(HttpUrl::get("https://host:443/").toString(), "https://host/");
  EXPECT_EQ(HttpUrl::get("http://host:443/").toString(), "http://host:443/");
  EXPECT_EQ(HttpUrl::get("http://host:00080/").toString(), "http://host/");
  EXPECT_EQ(HttpUrl::get("http://host:" + std::string(1000, '0') + "8080/").port(), 8080);
}

TEST(HttpUrlTest, PortRangeIsZeroTo65535) {
  // The standard accepts port 0 in a parsed URL (OkHttp does not).
  EXPECT_EQ(HttpUrl::get("http://host:0/").port(), 0);
  EXPECT_EQ(HttpUrl::get("http://host:0/").toString(), "http://host:0/");
  EXPECT_EQ(HttpUrl::get("http://host:65535/").port(), 65535);
  expectInvalid("http://host:65536/", "Invalid URL port: \"65536\"");
  expectInvalid("http://host:99999999999999999999/", "Invalid URL port: \"99999999999999999999\"");
}

TEST(HttpUrlTest, RejectsNonNumericPorts) {
  expectInvalid("http://host:8a/", "Invalid URL port: \"8a\"");
  expectInvalid("http://host:-1/", "Invalid URL port: \"-1\"");
  expectInvalid("http://host:80:80/", "Invalid URL port: \"80:80\"");
  expectInvalid("http://host: 80/", "Invalid URL port: \" 80\"");
}

TEST(HttpUrlTest, DefaultPortByScheme) {
  EXPECT_EQ(HttpUrl::defaultPort("http"), 80);
  EXPECT_EQ(HttpUrl::defaultPort("https"), 443);
  EXPECT_EQ(HttpUrl::defaultPort("ws"), 80);
  EXPECT_EQ(HttpUrl::defaultPort("wss"), 443);
  EXPECT_EQ(HttpUrl::defaultPort("ftp"), -1);
}

TEST(HttpUrlTest, MissingHostIsInvalid) {
  expectInvalid("http://", "Invalid URL host: \"\"");
  expectInvalid("http:///", "Invalid URL host: \"\"");
  // The newline is removed before parsing, leaving nothing (OkHttp reports the "\n").
  expectInvalid("http://\n/", "Invalid URL host: \"\"");
  expectInvalid("https://user:pass@/", "Invalid URL host: \"\"");
  expectInvalid("https://:443", "Invalid URL host: \"\"");
  expectInvalid("https://#fragment", "Invalid URL host: \"\"");
}

TEST(HttpUrlTest, HostWithForbiddenCharacterIsInvalid) {
  expectInvalid("http://a b/", "Invalid URL host: \"a b\"");
  expectInvalid("http:// /", "Invalid URL host: \" \"");
  expectInvalid("http://%20/", "Invalid URL host: \"%20\"");
  expectInvalid("http://host\x01/", "Invalid URL host: \"host\\x01\"");
  expectInvalid("http://exa%23mple.org/", "Invalid URL host: \"exa%23mple.org\"");
  expectInvalid("http://a<b/", "Invalid URL host: \"a<b\"");
  expectInvalid("http://a^b/", "Invalid URL host: \"a^b\"");
  expectInvalid("http://a|b/", "Invalid URL host: \"a|b\"");
  expectInvalid("http://a%/", "Invalid URL host: \"a%\"");
  // what() is a C string: a NUL is escaped so the message is not cut short there.
  expectInvalid(std::string("http://a\0b/", 11), "Invalid URL host: \"a\\x00b\"");
}

TEST(HttpUrlTest, HostIsLowercasedAndKeepsUnderscores) {
  EXPECT_EQ(HttpUrl::get("http://FacebooK.com").host(), "facebook.com");
  EXPECT_EQ(HttpUrl::get("http://my_host.example.com/").host(), "my_host.example.com");
  EXPECT_EQ(HttpUrl::get("http://_dmarc.Example.COM/").host(), "_dmarc.example.com");
  // Characters OkHttp tolerates for URL templating are valid in hosts too.
  EXPECT_EQ(HttpUrl::get("http://{env}.example.com/").host(), "{env}.example.com");
}

TEST(HttpUrlTest, HostMayHaveEmptyLongAndTrailingDotLabels) {
  // The standard does not apply DNS's length and empty-label rules (OkHttp does).
  EXPECT_EQ(HttpUrl::get("http://a..b/").host(), "a..b");
  EXPECT_EQ(HttpUrl::get("http://a./").toString(), "http://a./");
  const std::string a64(64, 'a');
  EXPECT_EQ(HttpUrl::get("http://" + a64 + "/").host(), a64);
  std::string long255;
  for (int i = 0; i < 130; ++i) long255 += "ab.";
  EXPECT_EQ(HttpUrl::get("http://" + long255 + "/").host(), long255);
}

TEST(HttpUrlTest, PercentEncodedHostIsDecoded) {
  EXPECT_EQ(HttpUrl::get("http://%65xample.com/").host(), "example.com");
  EXPECT_EQ(HttpUrl::get("https://%e2%98%83/").host(), "xn--n3h");
  // Bytes that do not decode as UTF-8 make the host invalid.
  expectInvalid("http://%ff.com/", "Invalid URL host: \"%ff.com\"");
}

TEST(HttpUrlTest, PathIsPercentEncodedWithThePathSet) {
  EXPECT_EQ(HttpUrl::get("http://host/a b\"<>`{}^|").encodedPath(), "/a%20b%22%3C%3E%60%7B%7D%5E|");
  EXPECT_EQ(HttpUrl::get("http://host/!$&'()*+,;=:@[]~").encodedPath(), "/!$&'()*+,;=:@[]~");
  EXPECT_EQ(HttpUrl::get("http://host/\xce\xa3").encodedPath(), "/%CE%A3");
}

TEST(HttpUrlTest, UnprintableCharactersArePercentEncoded) {
  EXPECT_EQ(HttpUrl::get(std::string("http://host/\0x", 14)).encodedPath(), "/%00x");
  EXPECT_EQ(HttpUrl::get("http://host/\x08x").encodedPath(), "/%08x");
  EXPECT_EQ(HttpUrl::get("http://host/\x7fx").encodedPath(), "/%7Fx");
  EXPECT_EQ(HttpUrl::get("http://host/\ufffd").encodedPath(), "/%EF%BF%BD");
}

TEST(HttpUrlTest, InvalidUtf8IsReadAsReplacementCharacters) {
  EXPECT_EQ(HttpUrl::get("http://host/\xff").encodedPath(), "/%EF%BF%BD");
  EXPECT_EQ(HttpUrl::get("http://host/a\xe2\x98"
                         "b")
                .encodedPath(),
            "/a%EF%BF%BDb");
  EXPECT_THAT(HttpUrl::get("http://host/?\xc0\x80").encodedQuery(),
              Optional(std::string("%EF%BF%BD%EF%BF%BD")));
  expectInvalid("http://ho\xffst/", "Invalid URL host: \"ho\xef\xbf\xbdst\"");
}

TEST(HttpUrlTest, BackslashIsAPathSeparator) {
  EXPECT_EQ(HttpUrl::get("http://host\\a\\b").encodedPath(), "/a/b");
  EXPECT_EQ(HttpUrl::get("http://host/a\\..\\b").encodedPath(), "/b");
}

TEST(HttpUrlTest, DotSegmentsAreResolved) {
  EXPECT_EQ(HttpUrl::get("http://host/a/./b/../c").encodedPath(), "/a/c");
  EXPECT_EQ(HttpUrl::get("http://host/a/%2e/b/%2E%2e/c").encodedPath(), "/a/c");
  EXPECT_EQ(HttpUrl::get("http://host/../../a").encodedPath(), "/a");
  EXPECT_EQ(HttpUrl::get("http://host/a/..").encodedPath(), "/");
  EXPECT_EQ(HttpUrl::get("http://host/a/.").encodedPath(), "/a/");
  EXPECT_EQ(HttpUrl::get("http://host/a/..b/c..").encodedPath(), "/a/..b/c..");
}

TEST(HttpUrlTest, EncodedPathAndSegments) {
  EXPECT_EQ(HttpUrl::get("http://host").encodedPath(), "/");
  EXPECT_THAT(HttpUrl::get("http://host/").encodedPathSegments(), ElementsAre(""));
  EXPECT_THAT(HttpUrl::get("http://host/a/b/c").encodedPathSegments(), ElementsAre("a", "b", "c"));
  EXPECT_THAT(HttpUrl::get("http://host/a/b/c/").encodedPathSegments(),
              ElementsAre("a", "b", "c", ""));
  EXPECT_THAT(HttpUrl::get("http://host//").encodedPathSegments(), ElementsAre("", ""));
  EXPECT_EQ(HttpUrl::get("http://host/").pathSize(), 1u);
  EXPECT_EQ(HttpUrl::get("http://host/a/b/c").pathSize(), 3u);
  EXPECT_EQ(HttpUrl::get("http://host/a/b/c/").pathSize(), 4u);
}

TEST(HttpUrlTest, PathSegmentsArePercentDecoded) {
  EXPECT_THAT(HttpUrl::get("http://host/a%2Fb%2Fc").pathSegments(), ElementsAre("a/b/c"));
  EXPECT_THAT(HttpUrl::get("http://host/%00").pathSegments(), ElementsAre(std::string(1, '\0')));
  EXPECT_THAT(HttpUrl::get("http://host/a/%E2%98%83/c").pathSegments(),
              ElementsAre("a", "\u2603", "c"));
  EXPECT_THAT(HttpUrl::get("http://host/a/%62/%7a/%7A").pathSegments(),
              ElementsAre("a", "b", "z", "z"));
}

TEST(HttpUrlTest, MalformedPercentEncodingIsKept) {
  EXPECT_THAT(HttpUrl::get("http://host/a%f/b").pathSegments(), ElementsAre("a%f", "b"));
  EXPECT_THAT(HttpUrl::get("http://host/%/b").pathSegments(), ElementsAre("%", "b"));
  EXPECT_THAT(HttpUrl::get("http://host/%").pathSegments(), ElementsAre("%"));
  EXPECT_THAT(HttpUrl::get("http://github.com/%%30%30").pathSegments(), ElementsAre("%00"));
  EXPECT_EQ(HttpUrl::get("http://example/%?%#%").toString(), "http://example/%?%#%");
}

TEST(HttpUrlTest, MalformedUtf8DecodesToReplacementCharacter) {
  EXPECT_THAT(HttpUrl::get("http://host/a/%E2%98x/c").pathSegments(),
              ElementsAre("a", "\ufffdx", "c"));
}

TEST(HttpUrlTest, RawEncodingIsRetained) {
  const std::string spec = "http://%6d%6D:%6d%6D@host/%6d%6D?%6d%6D#%6d%6D";
  const HttpUrl url = HttpUrl::get(spec);
  EXPECT_EQ(url.encodedUsername(), "%6d%6D");
  EXPECT_EQ(url.encodedPassword(), "%6d%6D");
  EXPECT_EQ(url.encodedPath(), "/%6d%6D");
  EXPECT_THAT(url.encodedQuery(), Optional(std::string("%6d%6D")));
  EXPECT_THAT(url.encodedFragment(), Optional(std::string("%6d%6D")));
  EXPECT_EQ(url.toString(), spec);
  EXPECT_EQ(url.newBuilder().build().toString(), spec);
  EXPECT_EQ(url.resolve("")->toString(), "http://%6d%6D:%6d%6D@host/%6d%6D?%6d%6D");
}

TEST(HttpUrlTest, QueryIsEncodedWithTheSpecialQuerySet) {
  EXPECT_THAT(HttpUrl::get("http://host/?a b\"<>'").encodedQuery(),
              Optional(std::string("a%20b%22%3C%3E%27")));
  // Delimiters keep their meaning: they are not re-encoded (OkHttp's
  // queryCharactersNotReencodedWhenParsed).
  const HttpUrl url = HttpUrl::get("http://host/?a=!$(),/:;?@[]\\^`{|}~");
  EXPECT_EQ(url.toString(), "http://host/?a=!$(),/:;?@[]\\^`{|}~");
  EXPECT_THAT(url.queryParameter("a"), Optional(std::string("!$(),/:;?@[]\\^`{|}~")));
}

TEST(HttpUrlTest, AbsentEmptyAndPresentQueryAreDistinct) {
  EXPECT_EQ(HttpUrl::get("http://host/").encodedQuery(), std::nullopt);
  EXPECT_EQ(HttpUrl::get("http://host/").query(), std::nullopt);
  EXPECT_THAT(HttpUrl::get("http://host/?").encodedQuery(), Optional(std::string("")));
  EXPECT_THAT(HttpUrl::get("http://host/?").query(), Optional(std::string("")));
  EXPECT_EQ(HttpUrl::get("http://host/?").toString(), "http://host/?");
  EXPECT_NE(HttpUrl::get("http://host/?"), HttpUrl::get("http://host/"));
}

TEST(HttpUrlTest, QueryDecodesNamesAndValuesAndPlus) {
  const HttpUrl url = HttpUrl::get("http://host/?a=apple&k=key+lime&e=%3D%26");
  EXPECT_THAT(url.query(), Optional(std::string("a=apple&k=key lime&e==&")));
  EXPECT_THAT(url.encodedQuery(), Optional(std::string("a=apple&k=key+lime&e=%3D%26")));
}

TEST(HttpUrlTest, QueryDoesNotIncludeFragment) {
  const HttpUrl url = HttpUrl::get("http://host/?#fragment");
  EXPECT_THAT(url.fragment(), Optional(std::string("fragment")));
  EXPECT_THAT(url.query(), Optional(std::string("")));
  EXPECT_THAT(url.encodedQuery(), Optional(std::string("")));
}

TEST(HttpUrlTest, FragmentIsEncodedWithTheFragmentSet) {
  // The standard percent-encodes non-ASCII fragments; OkHttp leaves them raw.
  const HttpUrl url = HttpUrl::get("http://host/#\xce\xa3 \"<>`#?{}");
  EXPECT_EQ(url.toString(), "http://host/#%CE%A3%20%22%3C%3E%60#?{}");
  EXPECT_THAT(url.fragment(), Optional(std::string("\xce\xa3 \"<>`#?{}")));
  EXPECT_THAT(url.encodedFragment(), Optional(std::string("%CE%A3%20%22%3C%3E%60#?{}")));
}

TEST(HttpUrlTest, FragmentPercentDecoding) {
  EXPECT_THAT(HttpUrl::get("http://host/#%C2%80").fragment(), Optional(std::string("\u0080")));
  EXPECT_THAT(HttpUrl::get("http://host/#%80").fragment(), Optional(std::string("\ufffd")));
  EXPECT_THAT(HttpUrl::get("http://host/#%80").encodedFragment(), Optional(std::string("%80")));
  EXPECT_THAT(HttpUrl::get("http://host/#").fragment(), Optional(std::string("")));
  EXPECT_EQ(HttpUrl::get("http://host/").fragment(), std::nullopt);
}

TEST(HttpUrlTest, EqualityAndHashFollowTheSerializedForm) {
  const HttpUrl a = HttpUrl::get("http://HOST:80/a/./b");
  const HttpUrl b = HttpUrl::get("http://host/a/b");
  const HttpUrl c = HttpUrl::get("https://host/a/b");
  EXPECT_EQ(a, b);
  EXPECT_NE(a, c);
  EXPECT_EQ(std::hash<HttpUrl>()(a), std::hash<HttpUrl>()(b));
  const std::unordered_set<HttpUrl> set{a, b, c};
  EXPECT_EQ(set.size(), 2u);
  EXPECT_EQ(set.count(HttpUrl::get("https://host/a/b")), 1u);
}

TEST(HttpUrlTest, CopiesAreEqualAndIndependentOfTheOriginal) {
  std::optional<HttpUrl> original = HttpUrl::get("https://example.com/a?b#c");
  const HttpUrl copy = *original;
  original.reset();
  EXPECT_EQ(copy.toString(), "https://example.com/a?b#c");
  HttpUrl assigned = HttpUrl::get("http://other/");
  assigned = copy;
  EXPECT_EQ(assigned, copy);
}

TEST(HttpUrlTest, StreamsAsToString) {
  std::ostringstream out;
  out << HttpUrl::get("http://host/a b");
  EXPECT_EQ(out.str(), "http://host/a%20b");
}

TEST(HttpUrlTest, HugeInputsParseInLinearTime) {
  // A megabyte of path, query and userinfo, and many '@' and '/' that the parser revisits.
  const std::string big(1 << 20, 'a');
  const HttpUrl url = HttpUrl::get("http://" + big + "@host/" + big + "?" + big + "#" + big);
  EXPECT_EQ(url.encodedPath().size(), big.size() + 1);
  std::string manyAts;
  for (int i = 0; i < 100000; ++i) manyAts += "a@";
  EXPECT_EQ(HttpUrl::get("http://" + manyAts + "host/").host(), "host");
  std::string manyDots;
  for (int i = 0; i < 100000; ++i) manyDots += "../";
  EXPECT_EQ(HttpUrl::get("http://host/" + manyDots + "a").encodedPath(), "/a");
  std::string manyParams;
  for (int i = 0; i < 100000; ++i) manyParams += "p" + std::to_string(i) + "=v&";
  EXPECT_EQ(HttpUrl::get("http://host/?" + manyParams).queryParameterNames().size(), 100001u);
}

TEST(HttpUrlTest, HugeHostsAreHandledWithoutBlowingUp) {
  EXPECT_EQ(HttpUrl::get("http://" + std::string(1 << 20, 'a') + "/").host().size(), 1u << 20);
  std::string unicode;
  for (int i = 0; i < 5000; ++i) unicode += "\xc3\xa9.";  // "é." repeated: 15000 bytes.
  EXPECT_EQ(HttpUrl::parse("http://" + unicode + "/")->host().substr(0, 16), "xn--9ca.xn--9ca.");
  // Non-ASCII domains are limited to 16 KiB, far beyond DNS's 253 bytes.
  for (int i = 0; i < 1000; ++i) unicode += "\xc3\xa9.";
  EXPECT_EQ(HttpUrl::parse("http://" + unicode + "/"), std::nullopt);
  std::string longLabel;
  for (int i = 0; i < 100000; ++i) longLabel += "\xc3\xa9";
  EXPECT_EQ(HttpUrl::parse("http://" + longLabel + "/"), std::nullopt);
  EXPECT_EQ(HttpUrl::parse("http://1." + std::string(100000, '1') + "/"), std::nullopt);
}

}  // namespace
}  // namespace tern
