// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#include "http/charset.h"

#include <gtest/gtest.h>

namespace tern::internal {
namespace {

using namespace std::string_literals;

TEST(CharsetTest, Utf8IsTheDefaultAndPassesThrough) {
  EXPECT_EQ(decodeToUtf8("h\xC3\xA9llo", std::nullopt), "h\xC3\xA9llo");
  EXPECT_EQ(decodeToUtf8("h\xC3\xA9llo", "UTF-8"), "h\xC3\xA9llo");
}

TEST(CharsetTest, Latin1IsConvertedToUtf8) {
  EXPECT_EQ(decodeToUtf8("h\xE9llo", "ISO-8859-1"), "h\xC3\xA9llo");
  EXPECT_EQ(decodeToUtf8("h\xE9llo", "iso-8859-1"), "h\xC3\xA9llo");
}

TEST(CharsetTest, Utf8BomIsDroppedAndWinsOverDeclaredCharset) {
  EXPECT_EQ(decodeToUtf8("\xEF\xBB\xBFh\xC3\xA9", "ISO-8859-1"), "h\xC3\xA9");
}

TEST(CharsetTest, Utf16AndUtf32BomsAreDecoded) {
  EXPECT_EQ(decodeToUtf8("\xFE\xFF\x00h\x00\xE9"s, std::nullopt), "h\xC3\xA9");
  EXPECT_EQ(decodeToUtf8("\xFF\xFEh\x00\xE9\x00"s, std::nullopt), "h\xC3\xA9");
  EXPECT_EQ(decodeToUtf8("\x00\x00\xFE\xFF\x00\x00\x00h"s, std::nullopt), "h");
  EXPECT_EQ(decodeToUtf8("\xFF\xFE\x00\x00h\x00\x00\x00"s, std::nullopt), "h");
}

TEST(CharsetTest, DeclaredUtf16WithoutBom) {
  EXPECT_EQ(decodeToUtf8("\x00h\x00i"s, "UTF-16BE"), "hi");
}

TEST(CharsetTest, UnknownCharsetFallsBackToTheBytes) {
  EXPECT_EQ(decodeToUtf8("abc\xFF", "x-no-such-charset"), "abc\xFF");
}

TEST(CharsetTest, UnconvertibleBytesBecomeReplacementCharacters) {
  // A lone high byte is not valid US-ASCII; the rest of the text survives.
  EXPECT_EQ(decodeToUtf8("a\xFFz", "US-ASCII"), "a\xEF\xBF\xBDz");
  // A truncated UTF-16 unit at the end.
  EXPECT_EQ(decodeToUtf8("\x00h\x00"s, "UTF-16BE"), "h\xEF\xBF\xBD");
}

TEST(CharsetTest, EmptyInput) {
  EXPECT_EQ(decodeToUtf8("", std::nullopt), "");
  EXPECT_EQ(decodeToUtf8("", "UTF-16BE"), "");
}

TEST(CharsetTest, EncodeFromUtf8ToLatin1) {
  EXPECT_EQ(encodeFromUtf8("h\xC3\xA9llo", "ISO-8859-1"), "h\xE9llo");
  EXPECT_EQ(encodeFromUtf8("h\xC3\xA9llo", "utf-8"), "h\xC3\xA9llo");
}

TEST(CharsetTest, EncodeReplacesUnrepresentableCharactersWithQuestionMarks) {
  // U+2603 SNOWMAN has no Latin-1 form: one '?' for its three UTF-8 bytes.
  EXPECT_EQ(encodeFromUtf8("a\xE2\x98\x83"
                           "b",
                           "ISO-8859-1"),
            "a?b");
}

TEST(CharsetTest, EncodeToUnknownCharsetKeepsUtf8) {
  EXPECT_EQ(encodeFromUtf8("h\xC3\xA9", "x-unknown"), "h\xC3\xA9");
}

}  // namespace
}  // namespace tern::internal
