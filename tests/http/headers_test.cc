// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#include "tern/headers.h"

#include <chrono>
#include <stdexcept>
#include <string>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace tern {
namespace {

using std::chrono::system_clock;
using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::Not;

// Runs `action`, expecting std::invalid_argument, and returns its message.
template <typename Action>
std::string invalidArgumentMessage(Action action) {
  try {
    action();
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  ADD_FAILURE() << "expected std::invalid_argument";
  return "";
}

TEST(HeadersTest, OfTrimsNamesAndValues) {
  Headers headers = Headers::of({{"\t User-Agent \n", " \r OkHttp "}});
  EXPECT_EQ(headers.name(0), "User-Agent");
  EXPECT_EQ(headers.value(0), "OkHttp");
}

TEST(HeadersTest, OfTakesAlternatingNamesAndValues) {
  Headers headers = Headers::of("A", "1", "B", "2");
  ASSERT_EQ(headers.size(), 2u);
  EXPECT_EQ(headers.name(1), "B");
  EXPECT_EQ(headers.value(1), "2");
}

TEST(HeadersTest, OfWithNoArgumentsIsEmpty) {
  EXPECT_TRUE(Headers::of().empty());
  EXPECT_EQ(Headers::of(), Headers());
}

TEST(HeadersTest, OfAcceptsEmptyValue) {
  EXPECT_EQ(Headers::of({{"User-Agent", ""}}).value(0), "");
}

TEST(HeadersTest, OfRejectsEmptyName) {
  EXPECT_EQ(invalidArgumentMessage([] { Headers::of({{"", "OkHttp"}}); }), "header name is empty");
}

TEST(HeadersTest, OfRejectsBlankName) {
  EXPECT_EQ(invalidArgumentMessage([] { Headers::of("  ", "OkHttp"); }), "header name is empty");
}

TEST(HeadersTest, OfRejectsNulInValue) {
  std::string value("Square\0OkHttp", 13);
  EXPECT_EQ(invalidArgumentMessage([&] {
              Headers::of({{"User-Agent", value}});
            }),
            "Unexpected char 0x00 at 6 in User-Agent value: Square\\x00OkHttp");
}

TEST(HeadersTest, OfCopiesItsInput) {
  std::string value = "OkHttp";
  Headers headers = Headers::of({{"User-Agent", value}});
  value = "Chrome";
  EXPECT_EQ(headers.value(0), "OkHttp");
}

TEST(HeadersTest, RejectsNonAsciiInName) {
  EXPECT_EQ(invalidArgumentMessage([] {
              Headers::Builder().add(
                  "h\xc3\xa9"
                  "ader1",
                  "value1");
            }),
            "Unexpected char 0xe9 at 1 in header name: h\xc3\xa9"
            "ader1");
}

TEST(HeadersTest, RejectsNonAsciiInValue) {
  EXPECT_EQ(invalidArgumentMessage([] {
              Headers::Builder().add("header1",
                                     "valu\xc3\xa9"
                                     "1");
            }),
            "Unexpected char 0xe9 at 4 in header1 value: valu\xc3\xa9"
            "1");
}

TEST(HeadersTest, RejectsLfInValue) {
  EXPECT_EQ(invalidArgumentMessage([] { Headers::Builder().add("X-Foo", "abc\nSet: x"); }),
            "Unexpected char 0x0a at 3 in X-Foo value: abc\\x0aSet: x");
}

TEST(HeadersTest, RejectsCrInValue) {
  EXPECT_EQ(invalidArgumentMessage([] { Headers::Builder().add("X-Foo", "a\rb"); }),
            "Unexpected char 0x0d at 1 in X-Foo value: a\\x0db");
}

TEST(HeadersTest, RejectsDelAndOtherControlsInValue) {
  EXPECT_THAT(invalidArgumentMessage([] { Headers::Builder().add("X-Foo", "a\x7f"); }),
              HasSubstr("Unexpected char 0x7f at 1 in X-Foo value"));
  EXPECT_THAT(invalidArgumentMessage([] { Headers::Builder().add("X-Foo", "\x1b[31m"); }),
              HasSubstr("Unexpected char 0x1b at 0 in X-Foo value"));
}

TEST(HeadersTest, AcceptsTabInsideValue) {
  Headers headers = Headers::Builder().add("X-Foo", "a\tb").build();
  EXPECT_EQ(headers.get("X-Foo"), "a\tb");
}

TEST(HeadersTest, RejectsNamesThatAreNotTokens) {
  EXPECT_EQ(invalidArgumentMessage([] { Headers::Builder().add("X Foo", "1"); }),
            "Unexpected char 0x20 at 1 in header name: X Foo");
  EXPECT_EQ(invalidArgumentMessage([] { Headers::Builder().add("X:Foo", "1"); }),
            "Unexpected char 0x3a at 1 in header name: X:Foo");
  EXPECT_EQ(invalidArgumentMessage([] { Headers::Builder().add("(x)", "1"); }),
            "Unexpected char 0x28 at 0 in header name: (x)");
  EXPECT_EQ(invalidArgumentMessage([] { Headers::Builder().add("X-Foo\r\n", "1"); }),
            "Unexpected char 0x0d at 5 in header name: X-Foo\\x0d\\x0a");
}

TEST(HeadersTest, AcceptsEveryTokenCharacterInName) {
  std::string name = "!#$%&'*+-.^_`|~09azAZ";
  EXPECT_EQ(Headers::Builder().add(name, "v").build().name(0), name);
}

TEST(HeadersTest, SensitiveHeadersNotIncludedInExceptions) {
  for (std::string name :
       {"Authorization", "Cookie", "Proxy-Authorization", "Set-Cookie", "authorization"}) {
    std::string message =
        invalidArgumentMessage([&] { Headers::Builder().add(name, "secr\xc3\xa9t\n"); });
    EXPECT_EQ(message, "Unexpected char 0xe9 at 4 in " + name + " value");
    EXPECT_THAT(message, Not(HasSubstr("secr")));
  }
}

TEST(HeadersTest, InvalidUtf8IsReportedByteByByte) {
  EXPECT_THAT(invalidArgumentMessage([] { Headers::Builder().add("X-Foo", "ab\xff"); }),
              HasSubstr("Unexpected char 0xff at 2 in X-Foo value"));
  // A lead byte without its continuation is not a character either.
  EXPECT_THAT(invalidArgumentMessage([] { Headers::Builder().add("X-Foo", "\xc3"); }),
              HasSubstr("Unexpected char 0xc3 at 0 in X-Foo value"));
}

TEST(HeadersTest, AddUnsafeNonAsciiAcceptsUnicodeValue) {
  Headers headers = Headers::Builder()
                        .addUnsafeNonAscii("header1",
                                           "valu\xc3\xa9"
                                           "1")
                        .build();
  EXPECT_EQ(headers.toString(),
            "header1: valu\xc3\xa9"
            "1\n");
}

TEST(HeadersTest, AddUnsafeNonAsciiRejectsUnicodeName) {
  EXPECT_EQ(invalidArgumentMessage([] {
              Headers::Builder().addUnsafeNonAscii(
                  "h\xc3\xa9"
                  "ader1",
                  "value1");
            }),
            "Unexpected char 0xe9 at 1 in header name: h\xc3\xa9"
            "ader1");
}

TEST(HeadersTest, AddUnsafeNonAsciiStillRejectsLineBreaks) {
  EXPECT_EQ(invalidArgumentMessage(
                [] { Headers::Builder().addUnsafeNonAscii("X-Foo", "\xc3\xa9\r\nEvil: 1"); }),
            "Unexpected char 0x0d at 2 in X-Foo value: \xc3\xa9\\x0d\\x0aEvil: 1");
}

TEST(HeadersTest, AddLineSplitsAtFirstColonAndTrims) {
  Headers headers = Headers::Builder()
                        .add("foo: bar")
                        .add(" foo: baz")  // Leading whitespace of the name is trimmed.
                        .add("foo : bak")  // So is trailing whitespace.
                        .add("\tkey\t:\tvalue\t")
                        .add("ping:  pong  ")  // Value whitespace is trimmed.
                        .add("kit:kat")        // No space after the colon is needed.
                        .add("url: http://x:80/")
                        .build();
  EXPECT_THAT(headers.values("foo"), ElementsAre("bar", "baz", "bak"));
  EXPECT_THAT(headers.values("key"), ElementsAre("value"));
  EXPECT_THAT(headers.values("ping"), ElementsAre("pong"));
  EXPECT_THAT(headers.values("kit"), ElementsAre("kat"));
  EXPECT_THAT(headers.values("url"), ElementsAre("http://x:80/"));
}

TEST(HeadersTest, AddLineRejectsEmptyName) {
  EXPECT_EQ(invalidArgumentMessage([] { Headers::Builder().add(": bar"); }),
            "header name is empty");
  EXPECT_EQ(invalidArgumentMessage([] { Headers::Builder().add(" : bar"); }),
            "header name is empty");
  EXPECT_EQ(invalidArgumentMessage([] { Headers::Builder().add(":status: 200 OK"); }),
            "header name is empty");
}

TEST(HeadersTest, AddLineRejectsMissingColon) {
  EXPECT_EQ(invalidArgumentMessage([] { Headers::Builder().add("foo bar"); }),
            "Unexpected header: foo bar");
}

TEST(HeadersTest, AddLenientKeepsWhatServersSend) {
  Headers headers = Headers::Builder()
                        .addLenient("Content-Type:text/html")
                        .addLenient(":status: 200")  // A leading colon stays in the name.
                        .addLenient(":orphan")       // Only a leading colon: empty name.
                        .addLenient("no colon")      // No colon: empty name.
                        .addLenient("")
                        .addLenient("X-Obs", " caf\xe9 ")  // obs-text (RFC 9110 §5.5).
                        .build();
  ASSERT_EQ(headers.size(), 6u);
  EXPECT_EQ(headers.get("Content-Type"), "text/html");
  EXPECT_EQ(headers.name(1), ":status");
  EXPECT_EQ(headers.value(1), "200");
  EXPECT_EQ(headers.name(2), "");
  EXPECT_EQ(headers.value(2), "orphan");
  EXPECT_EQ(headers.value(3), "no colon");
  EXPECT_EQ(headers.value(4), "");
  EXPECT_EQ(headers.get("x-obs"), "caf\xe9");
}

TEST(HeadersTest, GetReturnsLastValueIgnoringCase) {
  Headers headers = Headers::of("Accept", "a", "accept", "b", "Other", "c");
  EXPECT_EQ(headers.get("ACCEPT"), "b");
  EXPECT_EQ(headers.get("Missing"), std::nullopt);
}

TEST(HeadersTest, ValuesAreInMessageOrder) {
  Headers headers = Headers::of("Vary", "a", "X", "1", "vary", "b");
  EXPECT_THAT(headers.values("VARY"), ElementsAre("a", "b"));
  EXPECT_TRUE(headers.values("Missing").empty());
}

TEST(HeadersTest, NamesAreCaseInsensitiveSortedSet) {
  Headers headers = Headers::of("b", "1", "A", "2", "a", "3", "C", "4");
  EXPECT_THAT(headers.names(), ElementsAre("A", "b", "C"));
  EXPECT_EQ(headers.names().count("c"), 1u);
}

TEST(HeadersTest, IndexesAreStrict) {
  Headers headers = Headers::of("a", "b", "c", "d");
  EXPECT_EQ(headers.name(0), "a");
  EXPECT_EQ(headers.name(1), "c");
  EXPECT_EQ(headers.value(1), "d");
  EXPECT_THROW(headers.name(2), std::out_of_range);
  EXPECT_THROW(headers.value(2), std::out_of_range);
  EXPECT_THROW(Headers().name(0), std::out_of_range);
}

TEST(HeadersTest, ByteCountCountsSeparatorsAndLineEnds) {
  EXPECT_EQ(Headers().byteCount(), 0);
  EXPECT_EQ(Headers::of("abc", "def").byteCount(), 10);
  EXPECT_EQ(Headers::of("abc", "def", "ghi", "jkl").byteCount(), 20);
}

TEST(HeadersTest, ToMultimapGroupsValuesUnderLowerCaseNames) {
  Headers headers =
      Headers::of("cache-control", "no-store", "Cache-Control", "no-cache", "User-Agent", "OkHttp");
  auto map = headers.toMultimap();
  ASSERT_EQ(map.size(), 2u);
  EXPECT_EQ(map.begin()->first, "cache-control");
  EXPECT_THAT(map["cache-control"], ElementsAre("no-store", "no-cache"));
  EXPECT_THAT(map.at("Cache-Control"), ElementsAre("no-store", "no-cache"));  // Any case works.
  EXPECT_THAT(map.at("user-agent"), ElementsAre("OkHttp"));
}

TEST(HeadersTest, EqualHeadersHaveSameNamesValuesAndOrder) {
  Headers a =
      Headers::Builder().add("Connection", "close").add("Transfer-Encoding", "chunked").build();
  Headers b =
      Headers::Builder().add("Connection", "close").add("Transfer-Encoding", "chunked").build();
  EXPECT_EQ(a, b);
  EXPECT_NE(a, Headers::of("Connection", "keep-alive", "Transfer-Encoding", "chunked"));
  EXPECT_NE(a, Headers::of("connection", "close", "transfer-encoding", "chunked"));
  EXPECT_NE(a, Headers::of("Transfer-Encoding", "chunked", "Connection", "close"));
}

TEST(HeadersTest, ToStringIsOneLinePerField) {
  EXPECT_EQ(Headers::of("A", "a", "B", "bb").toString(), "A: a\nB: bb\n");
  EXPECT_EQ(Headers().toString(), "");
}

TEST(HeadersTest, ToStringRedactsSensitiveHeaders) {
  Headers headers = Headers::Builder()
                        .add("content-length", "99")
                        .add("authorization", "peanutbutter")
                        .add("proxy-authorization", "chocolate")
                        .add("cookie", "drink=coffee")
                        .add("Set-Cookie", "accessory=sugar")
                        .add("user-agent", "OkHttp")
                        .build();
  EXPECT_EQ(headers.toString(),
            "content-length: 99\n"
            "authorization: \u2588\u2588\n"
            "proxy-authorization: \u2588\u2588\n"
            "cookie: \u2588\u2588\n"
            "Set-Cookie: \u2588\u2588\n"
            "user-agent: OkHttp\n");
}

TEST(HeadersTest, AddAllKeepsOrderAndCase) {
  Headers source = Headers::Builder().add("A", "aa").add("a", "aa").add("B", "bb").build();
  Headers headers = Headers::Builder().add("A", "a").addAll(source).add("C", "c").build();
  EXPECT_EQ(headers.toString(), "A: a\nA: aa\na: aa\nB: bb\nC: c\n");
}

TEST(HeadersTest, SetReplacesEveryValue) {
  Headers headers = Headers::Builder()
                        .add("Accept", "a")
                        .add("X", "1")
                        .add("accept", "b")
                        .set("ACCEPT", "c")
                        .build();
  EXPECT_EQ(headers.toString(), "X: 1\nACCEPT: c\n");
}

TEST(HeadersTest, SetValidatesLikeAdd) {
  EXPECT_THAT(invalidArgumentMessage([] { Headers::Builder().set("X-Foo", "a\nb"); }),
              HasSubstr("Unexpected char 0x0a at 1 in X-Foo value"));
  EXPECT_EQ(invalidArgumentMessage([] { Headers::Builder().set("", "a"); }),
            "header name is empty");
}

TEST(HeadersTest, RemoveAllIgnoresCase) {
  Headers headers =
      Headers::Builder().add("A", "1").add("B", "2").add("a", "3").removeAll("a").build();
  EXPECT_EQ(headers.toString(), "B: 2\n");
}

TEST(HeadersTest, BuilderGetSeesLastValue) {
  Headers::Builder builder;
  builder.add("X", "1").add("x", "2");
  EXPECT_EQ(builder.get("X"), "2");
  EXPECT_EQ(builder.get("Y"), std::nullopt);
}

TEST(HeadersTest, NewBuilderLeavesOriginalUnchanged) {
  Headers original = Headers::of("A", "1");
  Headers copy = original;
  Headers derived = original.newBuilder().add("B", "2").set("A", "0").build();
  EXPECT_EQ(original.toString(), "A: 1\n");
  EXPECT_EQ(copy, original);
  EXPECT_EQ(derived.toString(), "B: 2\nA: 0\n");  // set() appends after removing.
}

TEST(HeadersTest, UnchangedNewBuilderBuildsTheSameHeaders) {
  Headers original = Headers::of("A", "1", "B", "2");
  Headers::Builder builder = original.newBuilder();
  EXPECT_EQ(builder.get("a"), "1");
  EXPECT_EQ(builder.build(), original);
  EXPECT_EQ(std::move(builder).build(), original);
}

TEST(HeadersTest, NewBuilderChangedAfterBuildingLeavesTheFirstResultUnchanged) {
  Headers original = Headers::of("A", "1");
  Headers::Builder builder = original.newBuilder();
  Headers first = builder.build();
  builder.removeAll("A").add("C", "3");
  EXPECT_EQ(first.toString(), "A: 1\n");
  EXPECT_EQ(builder.build().toString(), "C: 3\n");
  EXPECT_EQ(original.toString(), "A: 1\n");
}

TEST(HeadersTest, BuilderCanBuildMoreThanOnce) {
  Headers::Builder builder;
  builder.add("A", "1");
  Headers first = builder.build();
  builder.add("B", "2");
  EXPECT_EQ(first.size(), 1u);
  EXPECT_EQ(builder.build().size(), 2u);
}

TEST(HeadersTest, IteratesOverPairsInOrder) {
  Headers headers = Headers::of("A", "1", "B", "2");
  std::string seen;
  for (const auto& [name, value] : headers) {
    seen += name + "=" + value + ";";
  }
  EXPECT_EQ(seen, "A=1;B=2;");
}

TEST(HeadersTest, AddDateWritesImfFixdate) {
  Headers headers = Headers::Builder().add("Test-Date", system_clock::time_point()).build();
  EXPECT_EQ(headers.get("Test-Date"), "Thu, 01 Jan 1970 00:00:00 GMT");
  EXPECT_EQ(headers.getDate("Test-Date"), system_clock::time_point());
}

TEST(HeadersTest, SetDateReplacesValue) {
  auto oneSecond = system_clock::time_point(std::chrono::seconds(1));
  Headers headers = Headers::Builder()
                        .add("Test-Date", system_clock::time_point())
                        .set("Test-Date", oneSecond)
                        .build();
  EXPECT_EQ(headers.values("Test-Date").size(), 1u);
  EXPECT_EQ(headers.get("Test-Date"), "Thu, 01 Jan 1970 00:00:01 GMT");
  EXPECT_EQ(headers.getDate("test-date"), oneSecond);
}

TEST(HeadersTest, GetDateIsNulloptForAbsentOrMalformed) {
  Headers headers = Headers::of("Date", "yesterday");
  EXPECT_EQ(headers.getDate("Date"), std::nullopt);
  EXPECT_EQ(headers.getDate("Expires"), std::nullopt);
}

TEST(HeadersTest, EveryByteInNameOrValueIsAcceptedOrRejectedCleanly) {
  for (int b = 0; b < 256; ++b) {
    std::string text = "a" + std::string(1, static_cast<char>(b)) + "z";
    bool tokenChar =
        std::string_view("!#$%&'*+-.^_`|~").find(static_cast<char>(b)) != std::string_view::npos ||
        (b >= '0' && b <= '9') || (b >= 'a' && b <= 'z') || (b >= 'A' && b <= 'Z');
    bool valueChar = b == '\t' || (b >= 0x20 && b < 0x7f);
    try {
      Headers::Builder().add(text, "v");
      EXPECT_TRUE(tokenChar) << b;
    } catch (const std::invalid_argument& e) {
      EXPECT_FALSE(tokenChar) << b;
      EXPECT_THAT(e.what(), HasSubstr("at 1 in header name"));
    }
    try {
      Headers headers = Headers::Builder().add("X-Byte", text).build();
      EXPECT_TRUE(valueChar) << b;
      EXPECT_EQ(headers.value(0), text);
    } catch (const std::invalid_argument& e) {
      EXPECT_FALSE(valueChar) << b;
      EXPECT_THAT(e.what(), HasSubstr("at 1 in X-Byte value"));
    }
  }
}

TEST(HeadersTest, VeryLongValueIsKeptWhole) {
  std::string value(1 << 20, 'x');
  Headers headers = Headers::Builder().add("X-Long", value).build();
  EXPECT_EQ(headers.get("X-Long")->size(), value.size());
  EXPECT_EQ(headers.byteCount(), static_cast<int64_t>(value.size() + 6 + 4));
}

}  // namespace
}  // namespace tern
