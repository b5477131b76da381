// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#include "io/brotli_source.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>

#include "support/compression.h"
#include "support/io_fakes.h"
#include "tern/buffer.h"
#include "tern/exceptions.h"

namespace tern::internal {
namespace {

using ::testing::MatchesRegex;

std::unique_ptr<Source> over(std::string_view bytes) {
  auto buffer = std::make_unique<Buffer>();
  buffer->writeUtf8(bytes);
  return buffer;
}

std::string unbrotli(std::string_view compressed) {
  BrotliSource source(over(compressed));
  return tern::buffer(source)->readUtf8();
}

TEST(BrotliSourceTest, RoundTripsEveryQuality) {
  const std::string text = testing::compressibleText(100 * 1024, 1);
  for (int quality : {0, 5, 11}) {
    EXPECT_TRUE(unbrotli(testing::brotliCompress(text, quality)) == text) << quality;
  }
}

TEST(BrotliSourceTest, ReadsAByteAtATime) {
  // Input trickling in one byte per read: every decoder state split across reads.
  const std::string text = testing::compressibleText(20 * 1024, 2);
  Buffer compressed;
  compressed.writeUtf8(testing::brotliCompress(text));
  BrotliSource source(std::make_unique<testing::TrickleSource>(compressed, 1));
  EXPECT_TRUE(tern::buffer(source)->readUtf8() == text);
}

TEST(BrotliSourceTest, CorruptNamesLibbrotlisError) {
  try {
    unbrotli("\xff\xff\xff\xff not brotli");
    FAIL();
  } catch (const IOException& e) {
    // libbrotli's name for the error, e.g. "PADDING_2" or "EXUBERANT_NIBBLE".
    EXPECT_THAT(std::string(e.what()), MatchesRegex("br decoding failed: [A-Z0-9_]+"));
  }
}

TEST(BrotliSourceTest, TruncatedIsEof) {
  std::string compressed = testing::brotliCompress(testing::compressibleText(50 * 1024, 3));
  EXPECT_THROW(
      {
        try {
          unbrotli(compressed.substr(0, compressed.size() - 3));
        } catch (const EOFException& e) {
          EXPECT_STREQ(e.what(), "br stream truncated");
          throw;
        }
      },
      EOFException);
}

TEST(BrotliSourceTest, TrailingBytesFail) {
  try {
    unbrotli(testing::brotliCompress("hello") + "x");
    FAIL();
  } catch (const IOException& e) {
    EXPECT_STREQ(e.what(), "br finished without exhausting source");
  }
}

TEST(BrotliSourceTest, ReadZeroAndNegative) {
  BrotliSource source(over(testing::brotliCompress("abc")));
  Buffer sink;
  EXPECT_EQ(source.read(sink, 0), 0);
  EXPECT_THROW(source.read(sink, -1), std::invalid_argument);
  EXPECT_EQ(source.read(sink, 100), 3);
  EXPECT_EQ(source.read(sink, 100), -1);
  EXPECT_EQ(source.read(sink, 100), -1);
}

}  // namespace
}  // namespace tern::internal
