// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#include "tern/media_type.h"

#include <stdexcept>
#include <string>

#include <gtest/gtest.h>

namespace tern {
namespace {

// The message MediaType::get throws for `text`, or "" if it parses.
std::string getMessage(std::string_view text) {
  try {
    MediaType::get(text);
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return "";
}

// Both entry points agree that `text` is invalid, and get() says why.
void expectInvalid(std::string_view text, std::string_view message) {
  EXPECT_EQ(MediaType::parse(text), std::nullopt) << text;
  EXPECT_EQ(getMessage(text), message) << text;
}

// `text` parses and prints back unchanged.
void expectValid(std::string_view text) {
  std::optional<MediaType> parsed = MediaType::parse(text);
  ASSERT_TRUE(parsed.has_value()) << text;
  EXPECT_EQ(parsed->toString(), text);
  EXPECT_EQ(MediaType::get(text), *parsed);
}

TEST(MediaTypeTest, ParsesTypeSubtypeAndParameters) {
  MediaType mediaType = MediaType::get("text/plain;boundary=foo;charset=utf-8");
  EXPECT_EQ(mediaType.type(), "text");
  EXPECT_EQ(mediaType.subtype(), "plain");
  EXPECT_EQ(mediaType.charset(), "utf-8");
  EXPECT_EQ(mediaType.parameter("boundary"), "foo");
  EXPECT_EQ(mediaType.toString(), "text/plain;boundary=foo;charset=utf-8");
  EXPECT_EQ(mediaType, MediaType::get("text/plain;boundary=foo;charset=utf-8"));
}

TEST(MediaTypeTest, AcceptsWellFormedMediaTypes) {
  for (const char* text :
       {"text/plain", "application/atom+xml; charset=utf-8", "application/atom+xml; a=1; a=2; b=3",
        "image/gif; foo=bar", "text/plain; a=1", "text/plain; charset=utf-16",
        "text/plain; \t \n \r a=b", "text/plain;", "text/plain; ", "text/plain; a=1;",
        "text/plain; a=1; ", "text/plain; a=1;; b=2", "text/plain;;", "text/plain; ;"}) {
    expectValid(text);
  }
}

TEST(MediaTypeTest, RejectsMissingSubtype) {
  expectInvalid("", "No subtype found for: \"\"");
  expectInvalid("/", "No subtype found for: \"/\"");
  expectInvalid("text", "No subtype found for: \"text\"");
  expectInvalid("text/", "No subtype found for: \"text/\"");
  expectInvalid("te<t/plain", "No subtype found for: \"te<t/plain\"");
  expectInvalid(" text/plain", "No subtype found for: \" text/plain\"");
  expectInvalid("te xt/plain", "No subtype found for: \"te xt/plain\"");
  expectInvalid("text /plain", "No subtype found for: \"text /plain\"");
  expectInvalid("text/ plain", "No subtype found for: \"text/ plain\"");
}

TEST(MediaTypeTest, RejectsMalformedParameters) {
  expectInvalid("text/pl@in", "Parameter is not formatted correctly: \"@in\" for: \"text/pl@in\"");
  expectInvalid("text/plain; a",
                "Parameter is not formatted correctly: \"a\" for: \"text/plain; a\"");
  expectInvalid("text/plain; a=",
                "Parameter is not formatted correctly: \"a=\" for: \"text/plain; a=\"");
  expectInvalid("text/plain; a=@",
                "Parameter is not formatted correctly: \"a=@\" for: \"text/plain; a=@\"");
  expectInvalid("text/plain; a=\"@",
                "Parameter is not formatted correctly: \"a=\"@\" for: \"text/plain; a=\"@\"");
  expectInvalid("text/plain; a=1; b",
                "Parameter is not formatted correctly: \"b\" for: \"text/plain; a=1; b\"");
  expectInvalid("text/plain; a=1; b=",
                "Parameter is not formatted correctly: \"b=\" for: \"text/plain; a=1; b=\"");
  expectInvalid("text/plain; a=\xe2\x80\xa5",
                "Parameter is not formatted correctly: \"a=\xe2\x80\xa5\" for: \"text/plain; "
                "a=\xe2\x80\xa5\"");
  expectInvalid("text/pl ain",
                "Parameter is not formatted correctly: \" ain\" for: \"text/pl ain\"");
  expectInvalid("text/plain ", "Parameter is not formatted correctly: \" \" for: \"text/plain \"");
  expectInvalid("text/plain ; a=1",
                "Parameter is not formatted correctly: \" ; a=1\" for: \"text/plain ; a=1\"");
}

TEST(MediaTypeTest, LowerCasesTypeAndSubtypeButKeepsText) {
  MediaType mediaType = MediaType::get("IMAGE/JPEG; Q=1");
  EXPECT_EQ(mediaType.type(), "image");
  EXPECT_EQ(mediaType.subtype(), "jpeg");
  EXPECT_EQ(mediaType.toString(), "IMAGE/JPEG; Q=1");
  EXPECT_EQ(mediaType.parameter("q"), "1");
}

TEST(MediaTypeTest, EqualityComparesOriginalText) {
  EXPECT_NE(MediaType::get("text/plain"), MediaType::get("TEXT/PLAIN"));
  EXPECT_NE(MediaType::get("text/plain;a=1"), MediaType::get("text/plain; a=1"));
}

TEST(MediaTypeTest, DoubleQuotesAreSpecial) {
  MediaType mediaType = MediaType::get("text/plain;a=\";charset=utf-8;b=\"");
  EXPECT_EQ(mediaType.charset(), std::nullopt);
  EXPECT_EQ(mediaType.parameter("a"), ";charset=utf-8;b=");
}

TEST(MediaTypeTest, SingleQuotesAreNotSpecial) {
  MediaType mediaType = MediaType::get("text/plain;a=';charset=utf-8;b='");
  EXPECT_EQ(mediaType.charset(), "utf-8");
  EXPECT_EQ(mediaType.parameter("a"), "'");
}

TEST(MediaTypeTest, AcceptsEveryTokenCharacter) {
  MediaType mediaType = MediaType::get("!#$%&'*+-.^_`|~/!#$%&'*+-.^_`|~; !#$%&'*+-.^_`|~=x");
  EXPECT_EQ(mediaType.type(), "!#$%&'*+-.^_`|~");
  EXPECT_EQ(mediaType.subtype(), "!#$%&'*+-.^_`|~");
  EXPECT_EQ(mediaType.parameter("!#$%&'*+-.^_`|~"), "x");
}

TEST(MediaTypeTest, CharsetIsOneOfManyParameters) {
  MediaType mediaType = MediaType::get("text/plain;a=1;b=2;charset=utf-8;c=3");
  EXPECT_EQ(mediaType.charset(), "utf-8");
  EXPECT_EQ(mediaType.parameter("CHARSET"), "utf-8");
  EXPECT_EQ(mediaType.parameter("A"), "1");
  EXPECT_EQ(mediaType.parameter("b"), "2");
  EXPECT_EQ(mediaType.parameter("C"), "3");
  EXPECT_EQ(mediaType.parameter("d"), std::nullopt);
}

TEST(MediaTypeTest, QuotedParameterThatLooksLikeCharsetIsNotOne) {
  MediaType mediaType =
      MediaType::get("text/plain;a=\";charset=us-ascii\";charset=\"utf-8\";b=\"iso-8859-1\"");
  EXPECT_EQ(mediaType.charset(), "utf-8");
}

TEST(MediaTypeTest, RepeatedCharsetUsesFirst) {
  EXPECT_EQ(MediaType::get("text/plain; charset=utf-8; charset=UTF-8").charset(), "utf-8");
  // Conflicting charsets: current OkHttp takes the first rather than rejecting the type.
  EXPECT_EQ(MediaType::get("text/plain; charset=utf-8; charset=utf-16").charset(), "utf-8");
}

TEST(MediaTypeTest, SingleQuotedCharsetIsUnquoted) {
  // Invalid per RFC 2045, but what Chrome does.
  EXPECT_EQ(MediaType::get("text/plain;charset='utf-8'").charset(), "utf-8");
  EXPECT_EQ(MediaType::get("text/plain;charset=''").parameter("charset"), "''");
}

TEST(MediaTypeTest, IllegalCharsetNameIsNoCharset) {
  EXPECT_EQ(MediaType::get("text/plain; charset=\"!@#$%^&*()\"").charset(), std::nullopt);
  EXPECT_EQ(MediaType::get("text/plain;charset=\"'utf-8'\"").charset(), std::nullopt);
  EXPECT_EQ(MediaType::get("text/plain;charset=\"'\"").charset(), std::nullopt);
  EXPECT_EQ(MediaType::get("text/plain;charset=\"\"").charset(), std::nullopt);
  // The raw parameter is still there.
  EXPECT_EQ(MediaType::get("text/plain;charset=\"'\"").parameter("charset"), "'");
}

TEST(MediaTypeTest, DanglingSemicolonHasNoParameters) {
  MediaType mediaType = MediaType::get("text/plain;");
  EXPECT_EQ(mediaType.type(), "text");
  EXPECT_EQ(mediaType.subtype(), "plain");
  EXPECT_EQ(mediaType.charset(), std::nullopt);
  EXPECT_EQ(mediaType.toString(), "text/plain;");
}

TEST(MediaTypeTest, QuotedParameterValueLosesItsQuotes) {
  MediaType mediaType = MediaType::get("multipart/mixed; boundary=\"abcd\"");
  EXPECT_EQ(mediaType.parameter("boundary"), "abcd");
  EXPECT_EQ(mediaType.parameter("BOUNDARY"), "abcd");
  EXPECT_EQ(MediaType::get("a/b; x=\"\"").parameter("x"), "");
}

TEST(MediaTypeTest, MultipleParameters) {
  MediaType mediaType =
      MediaType::get("Message/Partial; number=2; total=3; id=\"oc=abc@example.com\"");
  EXPECT_EQ(mediaType.parameter("number"), "2");
  EXPECT_EQ(mediaType.parameter("total"), "3");
  EXPECT_EQ(mediaType.parameter("id"), "oc=abc@example.com");
  EXPECT_EQ(mediaType.parameter("foo"), std::nullopt);
}

TEST(MediaTypeTest, RepeatedParameterUsesFirst) {
  EXPECT_EQ(MediaType::get("multipart/mixed; number=2; number=3").parameter("number"), "2");
}

TEST(MediaTypeTest, ErrorMessagesEscapeControlBytes) {
  expectInvalid(std::string_view("a/b\0c", 5),
                "Parameter is not formatted correctly: \"\\x00c\" for: \"a/b\\x00c\"");
  expectInvalid("a/b\r\nX: y",
                "Parameter is not formatted correctly: \"\\x0d\\x0aX: y\" for: "
                "\"a/b\\x0d\\x0aX: y\"");
}

TEST(MediaTypeTest, ArbitraryBytesNeverCrash) {
  for (int b = 0; b < 256; ++b) {
    std::string c(1, static_cast<char>(b));
    for (std::string text : {c, "text/" + c, "text/plain;" + c, "text/plain; a=" + c,
                             "text/plain; a=\"" + c, c + "/plain"}) {
      std::optional<MediaType> parsed = MediaType::parse(text);
      if (parsed) {
        EXPECT_EQ(MediaType::parse(parsed->toString()), parsed);
      }
    }
  }
  std::string huge = "text/plain" + std::string(1 << 20, ';');
  EXPECT_TRUE(MediaType::parse(huge).has_value());
  EXPECT_EQ(MediaType::parse("text/plain; a=\"" + std::string(1 << 20, 'x')), std::nullopt);
}

}  // namespace
}  // namespace tern
