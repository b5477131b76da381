// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#include "tls/pem.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "io/base64.h"

namespace tern::internal {
namespace {

using ::testing::ElementsAre;

std::vector<uint8_t> bytes(std::string_view s) { return {s.begin(), s.end()}; }

TEST(Base64Test, EncodesWithPadding) {
  EXPECT_EQ(encodeBase64(bytes("")), "");
  EXPECT_EQ(encodeBase64(bytes("f")), "Zg==");
  EXPECT_EQ(encodeBase64(bytes("fo")), "Zm8=");
  EXPECT_EQ(encodeBase64(bytes("foo")), "Zm9v");
  EXPECT_EQ(encodeBase64(bytes("foob")), "Zm9vYg==");
  EXPECT_EQ(encodeBase64(std::vector<uint8_t>{0xfb, 0xff}), "+/8=");
}

TEST(Base64Test, DecodesLikeOkio) {
  EXPECT_EQ(decodeBase64("Zm9vYg=="), bytes("foob"));
  EXPECT_EQ(decodeBase64("Zm9vYg"), bytes("foob"));                    // Padding is optional.
  EXPECT_EQ(decodeBase64("Zm9v\r\nYg==\n"), bytes("foob"));            // Whitespace is skipped.
  EXPECT_EQ(decodeBase64("-_8"), (std::vector<uint8_t>{0xfb, 0xff}));  // URL-safe alphabet.
  EXPECT_EQ(decodeBase64(""), bytes(""));
  EXPECT_EQ(decodeBase64("Z"), std::nullopt);         // 6 bits are not a byte.
  EXPECT_EQ(decodeBase64("Zm9v!"), std::nullopt);     // Not an alphabet character.
  EXPECT_EQ(decodeBase64("Zg==Zg=="), std::nullopt);  // Data after padding.
}

TEST(PemTest, EncodesInLinesOf64) {
  std::string pem = encodePem("TEST", std::vector<uint8_t>(60, 0) /* 80 base64 characters */);
  EXPECT_EQ(pem,
            "-----BEGIN TEST-----\n"
            "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA\n"
            "AAAAAAAAAAAAAAAA\n"
            "-----END TEST-----\n");
}

TEST(PemTest, DecodesEveryBlockInOrder) {
  std::vector<PemBlock> blocks = decodePemBlocks("intro\n" + encodePem("A", bytes("one")) +
                                                 "between\n" + encodePem("B C", bytes("two")));
  ASSERT_EQ(blocks.size(), 2u);
  EXPECT_EQ(blocks[0].label, "A");
  EXPECT_EQ(blocks[0].der, bytes("one"));
  EXPECT_EQ(blocks[1].label, "B C");
  EXPECT_EQ(blocks[1].der, bytes("two"));
  EXPECT_TRUE(decodePemBlocks("no blocks at all").empty());
}

TEST(PemTest, RejectsMalformedBlocks) {
  auto message = [](std::string_view text) {
    try {
      decodePemBlocks(text);
    } catch (const std::invalid_argument& e) {
      return std::string(e.what());
    }
    return std::string("no exception");
  };
  EXPECT_EQ(message("-----BEGIN A-----\nAAAA\n-----END B-----\n"), "unterminated PEM block A");
  EXPECT_EQ(message("-----BEGIN A-----\nAAAA\n-----BEGIN A-----\n-----END A-----\n"),
            "unterminated PEM block A");
  EXPECT_EQ(message("-----BEGIN " + std::string(100, 'A') + "-----\n"), "malformed PEM BEGIN line");
  EXPECT_EQ(message("-----BEGIN A\x01-----\n-----END A\x01-----"), "malformed PEM BEGIN line");
  EXPECT_EQ(message("-----BEGIN A-----\n!!!!\n-----END A-----\n"), "PEM block A is not base64");
}

TEST(PemTest, ManyTruncatedBeginsFailFast) {
  std::string text;
  for (int i = 0; i < 100'000; ++i) text += "-----BEGIN ";
  EXPECT_THROW(decodePemBlocks(text), std::invalid_argument);
}

}  // namespace
}  // namespace tern::internal
