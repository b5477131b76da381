// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#include "http1/status_line.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>

#include "tern/exceptions.h"

namespace tern::internal {
namespace {

using ::testing::HasSubstr;

// The message ProtocolException gives for `line`, or "" if it parses.
std::string failure(std::string_view line) {
  try {
    StatusLine::parse(line);
  } catch (const ProtocolException& e) {
    return e.what();
  }
  return "";
}

TEST(StatusLineTest, ParsesHttp11WithReasonPhrase) {
  StatusLine line = StatusLine::parse("HTTP/1.1 200 OK");
  EXPECT_EQ(line.protocol, Protocol::HTTP_1_1);
  EXPECT_EQ(line.code, 200);
  EXPECT_EQ(line.message, "OK");
}

TEST(StatusLineTest, ParsesHttp10) {
  StatusLine line = StatusLine::parse("HTTP/1.0 404 Not Found");
  EXPECT_EQ(line.protocol, Protocol::HTTP_1_0);
  EXPECT_EQ(line.code, 404);
  EXPECT_EQ(line.message, "Not Found");
}

TEST(StatusLineTest, ReasonPhraseIsOptional) {
  StatusLine bare = StatusLine::parse("HTTP/1.1 204");
  EXPECT_EQ(bare.code, 204);
  EXPECT_EQ(bare.message, "");
  StatusLine trailingSpace = StatusLine::parse("HTTP/1.1 204 ");
  EXPECT_EQ(trailingSpace.code, 204);
  EXPECT_EQ(trailingSpace.message, "");
}

TEST(StatusLineTest, KeepsTheReasonPhraseVerbatim) {
  EXPECT_EQ(StatusLine::parse("HTTP/1.1 418 I'm  a teapot\t!").message, "I'm  a teapot\t!");
}

TEST(StatusLineTest, AcceptsNonAsciiReasonPhraseAsObsText) {
  EXPECT_EQ(StatusLine::parse("HTTP/1.1 200 D\xc3\xa9j\xc3\xa0 vu").message,
            "D\xc3\xa9j\xc3\xa0 vu");
}

TEST(StatusLineTest, ParsesShoutcastIcyAsHttp10) {
  StatusLine line = StatusLine::parse("ICY 200 OK");
  EXPECT_EQ(line.protocol, Protocol::HTTP_1_0);
  EXPECT_EQ(line.code, 200);
  EXPECT_EQ(line.message, "OK");
}

TEST(StatusLineTest, AcceptsAnyThreeDigitCode) {
  EXPECT_EQ(StatusLine::parse("HTTP/1.1 000 Zero").code, 0);
  EXPECT_EQ(StatusLine::parse("HTTP/1.1 999 Custom").code, 999);
  EXPECT_EQ(StatusLine::parse("HTTP/1.1 103 Early Hints").code, 103);
}

TEST(StatusLineTest, RejectsUnknownVersions) {
  for (std::string_view line : {"HTTP/1.2 200 OK", "HTTP/2.0 200 OK", "HTTP/2 200 OK",
                                "HTTP/0.9 200 OK", "http/1.1 200 OK", "HTTP/1.x 200 OK"}) {
    EXPECT_EQ(failure(line), "Unexpected status line: " + std::string(line)) << line;
  }
}

TEST(StatusLineTest, RejectsMalformedCodes) {
  for (std::string_view line :
       {"HTTP/1.1 2x0 OK", "HTTP/1.1 +20 OK", "HTTP/1.1 -20 OK", "HTTP/1.1 20 OK", "HTTP/1.1 20",
        "HTTP/1.1 2000 OK", "HTTP/1.1  200 OK", "HTTP/1.1 \xd9\xa0\xd9\xa0\xd9\xa0 OK"}) {
    EXPECT_THAT(failure(line), HasSubstr("Unexpected status line: ")) << line;
  }
}

TEST(StatusLineTest, RejectsMissingSeparators) {
  for (std::string_view line : {"HTTP/1.1200 OK", "HTTP/1.1", "HTTP/1.1 ", "HTTP/1.", "ICY",
                                "ICY 20", "HTTP/1.1 200\tOK"}) {
    EXPECT_THAT(failure(line), HasSubstr("Unexpected status line")) << line;
  }
}

TEST(StatusLineTest, RejectsGarbage) {
  EXPECT_EQ(failure(""), "Unexpected status line: ");
  EXPECT_EQ(failure("<html>hello</html>"), "Unexpected status line: <html>hello</html>");
  EXPECT_EQ(failure(" HTTP/1.1 200 OK"), "Unexpected status line:  HTTP/1.1 200 OK");
}

TEST(StatusLineTest, RejectsControlCharactersAndEscapesThemInTheMessage) {
  EXPECT_EQ(failure(std::string_view("HTTP/1.1 200 O\0K", 16)),
            "Unexpected status line: HTTP/1.1 200 O\\x00K");
  EXPECT_EQ(failure("HTTP/1.1 200 OK\r"), "Unexpected status line: HTTP/1.1 200 OK\\x0d");
  EXPECT_EQ(failure("HTTP/1.1 200 O\x7fK"), "Unexpected status line: HTTP/1.1 200 O\\x7fK");
}

TEST(StatusLineTest, EveryPrefixOfAValidLineParsesOrFailsCleanly) {
  std::string line = "HTTP/1.1 200 OK";
  for (size_t i = 0; i <= line.size(); ++i) {
    std::string prefix = line.substr(0, i);
    try {
      StatusLine parsed = StatusLine::parse(prefix);
      EXPECT_GE(i, 12u) << prefix;  // Only "HTTP/1.1 200" and longer are complete.
    } catch (const ProtocolException&) {
      EXPECT_LT(i, 12u) << prefix;
    }
  }
}

TEST(StatusLineTest, FormatsAsHttp1) {
  EXPECT_EQ(StatusLine::parse("HTTP/1.1 200 OK").toString(), "HTTP/1.1 200 OK");
  EXPECT_EQ(StatusLine::parse("HTTP/1.0 304 Not Modified").toString(), "HTTP/1.0 304 Not Modified");
  EXPECT_EQ(StatusLine::parse("ICY 200 OK").toString(), "HTTP/1.0 200 OK");
  EXPECT_EQ((StatusLine{Protocol::HTTP_2, 200, ""}).toString(), "HTTP/1.1 200 ");
}

TEST(StatusLineTest, ToStringParsesBackToTheSameLine) {
  StatusLine original{Protocol::HTTP_1_0, 503, "Service Unavailable"};
  EXPECT_EQ(StatusLine::parse(original.toString()), original);
}

}  // namespace
}  // namespace tern::internal
