// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#include "ws/web_socket_protocol.h"

#include <gtest/gtest.h>

#include <array>
#include <set>
#include <string>
#include <vector>

#include "io/base64.h"
#include "ws/utf8_validator.h"

namespace tern::internal {
namespace {

TEST(WebSocketProtocolTest, AcceptHeaderIsRfc6455Example) {
  // RFC 6455 §1.3.
  EXPECT_EQ(ws::acceptHeader("dGhlIHNhbXBsZSBub25jZQ=="), "s3pPLMBiTxaQ9kYGzzhZRbK+xOo=");
}

TEST(WebSocketProtocolTest, NewKeyIsSixteenRandomBytesInBase64) {
  std::set<std::string> keys;
  for (int i = 0; i < 20; ++i) {
    const std::string key = ws::newKey();
    EXPECT_EQ(key.size(), 24U) << key;
    auto decoded = decodeBase64(key);
    ASSERT_TRUE(decoded.has_value()) << key;
    EXPECT_EQ(decoded->size(), 16U);
    keys.insert(key);
  }
  EXPECT_EQ(keys.size(), 20U);  // Fresh each time.
}

TEST(WebSocketProtocolTest, CloseCodeRanges) {
  EXPECT_EQ(ws::closeCodeExceptionMessage(999), "Code must be in range [1000,5000): 999");
  EXPECT_EQ(ws::closeCodeExceptionMessage(5000), "Code must be in range [1000,5000): 5000");
  EXPECT_EQ(ws::closeCodeExceptionMessage(0), "Code must be in range [1000,5000): 0");
  EXPECT_EQ(ws::closeCodeExceptionMessage(-1), "Code must be in range [1000,5000): -1");
  for (int code : {1004, 1005, 1006, 1015, 1016, 2000, 2999}) {
    EXPECT_EQ(ws::closeCodeExceptionMessage(code),
              "Code " + std::to_string(code) + " is reserved and may not be used.");
  }
  for (int code :
       {1000, 1001, 1002, 1003, 1007, 1008, 1009, 1010, 1011, 1012, 1013, 1014, 3000, 4000, 4999}) {
    EXPECT_EQ(ws::closeCodeExceptionMessage(code), std::nullopt) << code;
  }
}

TEST(WebSocketProtocolTest, ToggleMaskIsItsOwnInverseAndContinuesAcrossCalls) {
  const std::array<std::byte, 4> key{std::byte{0x60}, std::byte{0xb4}, std::byte{0x20},
                                     std::byte{0xbb}};
  std::string hello = "Hello";
  std::vector<std::byte> bytes(reinterpret_cast<const std::byte*>(hello.data()),
                               reinterpret_cast<const std::byte*>(hello.data()) + hello.size());
  // "Hello" masked with 60b420bb is 28d14cd70f (OkHttp's WebSocketWriterTest).
  EXPECT_EQ(ws::toggleMask(bytes, key, 0), 1U);
  const std::vector<std::byte> masked{std::byte{0x28}, std::byte{0xd1}, std::byte{0x4c},
                                      std::byte{0xd7}, std::byte{0x0f}};
  EXPECT_EQ(bytes, masked);
  // In two pieces, continuing at the returned offset: the same result, and unmasks.
  size_t offset = ws::toggleMask(std::span(bytes).first(3), key, 0);
  EXPECT_EQ(offset, 3U);
  offset = ws::toggleMask(std::span(bytes).subspan(3), key, offset);
  EXPECT_EQ(offset, 1U);
  EXPECT_EQ(std::string(reinterpret_cast<const char*>(bytes.data()), bytes.size()), "Hello");
  // A starting offset past 3 wraps.
  std::vector<std::byte> one{std::byte{0}};
  EXPECT_EQ(ws::toggleMask(one, key, 6), 3U);
  EXPECT_EQ(one[0], std::byte{0x20});
}

TEST(Utf8ValidatorTest, AcceptsWellFormed) {
  for (std::string_view s : {"", "Hello", "\xc2\x80", "\xdf\xbf", "\xe0\xa0\x80", "\xed\x9f\xbf",
                             "\xee\x80\x80", "\xef\xbf\xbf", "\xf0\x90\x80\x80", "\xf4\x8f\xbf\xbf",
                             "h\xc3\xa9llo \xe2\x82\xac \xf0\x9f\x98\x80"}) {
    EXPECT_TRUE(isStrictUtf8(s)) << s;
  }
}

TEST(Utf8ValidatorTest, RejectsOverlongsSurrogatesAndOutOfRange) {
  for (std::string_view s : {
           "\x80",              // Stray continuation.
           "\xc0\x80",          // Overlong NUL.
           "\xc1\xbf",          // Overlong.
           "\xe0\x9f\xbf",      // Overlong 3-byte.
           "\xf0\x8f\xbf\xbf",  // Overlong 4-byte.
           "\xed\xa0\x80",      // U+D800, a surrogate.
           "\xed\xbf\xbf",      // U+DFFF.
           "\xf4\x90\x80\x80",  // U+110000.
           "\xf5\x80\x80\x80",
           "\xff",
           "\xfe",
           "\xc3",      // Truncated.
           "\xe2\x82",  // Truncated.
           "\xc3\x28",  // Bad continuation.
           "a\xe2\x82\xe2\x82\xac",
       }) {
    EXPECT_FALSE(isStrictUtf8(s)) << testing::PrintToString(s);
  }
}

TEST(Utf8ValidatorTest, CodePointMaySpanUpdates) {
  Utf8Validator validator;
  EXPECT_TRUE(validator.update(std::string_view("\xf0\x9f")));
  EXPECT_FALSE(validator.finish());  // Unfinished.
  EXPECT_TRUE(validator.update(std::string_view("\x98")));
  EXPECT_TRUE(validator.update(std::string_view("\x80!")));
  EXPECT_TRUE(validator.finish());

  validator.reset();
  EXPECT_TRUE(validator.update(std::string_view("\xed")));
  EXPECT_FALSE(validator.update(std::string_view("\xa0\x80")));  // A surrogate across updates.
  EXPECT_FALSE(validator.update(std::string_view("ok")));        // Stays failed.
  EXPECT_FALSE(validator.finish());
}

}  // namespace
}  // namespace tern::internal
