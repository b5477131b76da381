// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#include "tern/form_body.h"

#include <gtest/gtest.h>

#include "support/body_text.h"
#include "tern/buffer.h"

namespace tern {
namespace {

using testing::writtenBody;

TEST(FormBodyTest, UrlEncodesNamesAndValues) {
  auto body =
      FormBody::Builder().add("a+=& b", "c+=& d").add("space, the", "final frontier").build();
  EXPECT_EQ(body->size(), 2u);
  EXPECT_EQ(body->encodedName(0), "a%2B%3D%26%20b");
  EXPECT_EQ(body->encodedValue(0), "c%2B%3D%26%20d");
  EXPECT_EQ(body->name(0), "a+=& b");
  EXPECT_EQ(body->value(0), "c+=& d");
  EXPECT_EQ(body->encodedName(1), "space%2C%20the");
  std::string expected = "a%2B%3D%26%20b=c%2B%3D%26%20d&space%2C%20the=final%20frontier";
  EXPECT_EQ(writtenBody(*body), expected);
  EXPECT_EQ(body->contentLength(), static_cast<int64_t>(expected.size()));
  EXPECT_EQ(body->contentType()->toString(), "application/x-www-form-urlencoded");
}

TEST(FormBodyTest, AddEncodedKeepsEscapesAndPlus) {
  auto body = FormBody::Builder().addEncoded("a+=& b", "c+=& d").addEncoded("e%20f", "%2B").build();
  EXPECT_EQ(body->encodedName(0), "a+%3D%26%20b");
  EXPECT_EQ(body->encodedValue(0), "c+%3D%26%20d");
  EXPECT_EQ(body->name(0), "a =& b");  // '+' decodes to a space.
  EXPECT_EQ(body->encodedName(1), "e%20f");
  EXPECT_EQ(body->value(1), "+");
}

TEST(FormBodyTest, NonAsciiIsUtf8PercentEncoded) {
  auto body = FormBody::Builder().add("\xC3\xA9", "\xE2\x98\x83").build();
  EXPECT_EQ(writtenBody(*body), "%C3%A9=%E2%98%83");
  EXPECT_EQ(body->name(0), "\xC3\xA9");
}

TEST(FormBodyTest, ControlCharactersAreEncoded) {
  auto body = FormBody::Builder().add("k", std::string("\r\n\0\x7f", 4)).build();
  EXPECT_EQ(body->encodedValue(0), "%0D%0A%00%7F");
}

TEST(FormBodyTest, EveryAsciiCharacterEncodesAsOkHttpDoes) {
  // The characters a form leaves as they are: letters, digits and "*-._".
  for (int c = 0x20; c < 0x7f; ++c) {
    std::string s(1, static_cast<char>(c));
    std::string encoded = FormBody::Builder().add(s, "").build()->encodedName(0);
    bool unreserved = std::isalnum(c) || c == '*' || c == '-' || c == '.' || c == '_';
    if (unreserved) {
      EXPECT_EQ(encoded, s) << c;
    } else {
      char expected[4];
      std::snprintf(expected, sizeof(expected), "%%%02X", c);
      EXPECT_EQ(encoded, expected) << c;
    }
  }
}

TEST(FormBodyTest, EmptyForm) {
  auto body = FormBody::Builder().build();
  EXPECT_EQ(body->size(), 0u);
  EXPECT_EQ(body->contentLength(), 0);
  EXPECT_EQ(writtenBody(*body), "");
}

TEST(FormBodyTest, IndexOutOfRangeThrows) {
  auto body = FormBody::Builder().add("a", "b").build();
  EXPECT_THROW(body->encodedName(1), std::out_of_range);
  EXPECT_THROW(body->value(5), std::out_of_range);
}

}  // namespace
}  // namespace tern
