// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#include "io/zstd_source.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>

#include "support/compression.h"
#include "support/io_fakes.h"
#include "tern/buffer.h"
#include "tern/exceptions.h"

namespace tern::internal {
namespace {

using ::testing::HasSubstr;
using ::testing::StartsWith;

std::unique_ptr<Source> over(std::string_view bytes) {
  auto buffer = std::make_unique<Buffer>();
  buffer->writeUtf8(bytes);
  return buffer;
}

std::string unzstd(std::string_view compressed) {
  ZstdSource source(over(compressed));
  return tern::buffer(source)->readUtf8();
}

std::string failure(std::string_view compressed) {
  try {
    unzstd(compressed);
  } catch (const IOException& e) {
    return e.what();
  }
  ADD_FAILURE() << "no exception";
  return "";
}

TEST(ZstdSourceTest, RoundTripsLevels) {
  const std::string text = testing::compressibleText(100 * 1024, 1);
  for (int level : {1, 3, 19}) {
    EXPECT_TRUE(unzstd(testing::zstdCompress(text, level)) == text) << level;
  }
}

TEST(ZstdSourceTest, ReadsAByteAtATime) {
  const std::string text = testing::compressibleText(20 * 1024, 2);
  Buffer compressed;
  compressed.writeUtf8(testing::zstdCompress(text));
  ZstdSource source(std::make_unique<testing::TrickleSource>(compressed, 1));
  EXPECT_TRUE(tern::buffer(source)->readUtf8() == text);
}

TEST(ZstdSourceTest, ConcatenatedFramesReadAsOne) {
  EXPECT_EQ(unzstd(testing::zstdCompress("hello, ") + testing::zstdCompress("world")),
            "hello, world");
}

TEST(ZstdSourceTest, SkippableFramesAreSkipped) {
  // RFC 8878 §3.1.2: magic 0x184D2A5?, a 4-byte little-endian size, then that many bytes.
  std::string skippable(
      "\x50\x2a\x4d\x18\x03\x00\x00\x00"
      "abc",
      11);
  EXPECT_EQ(unzstd(testing::zstdCompress("one") + skippable + testing::zstdCompress("two")),
            "onetwo");
}

TEST(ZstdSourceTest, CorruptNamesLibzstdsError) {
  EXPECT_EQ(failure("this is not zstd"), "zstd decoding failed: Unknown frame descriptor");
}

TEST(ZstdSourceTest, ChecksumMismatchFails) {
  std::string compressed = testing::zstdCompress("hello, checksum");
  compressed.back() ^= 1;  // The last 4 bytes are the content checksum.
  EXPECT_THAT(failure(compressed), StartsWith("zstd decoding failed: "));
}

TEST(ZstdSourceTest, TruncatedIsEof) {
  std::string compressed = testing::zstdCompress(testing::compressibleText(50 * 1024, 3));
  for (size_t keep : {size_t{2}, compressed.size() / 2, compressed.size() - 1}) {
    try {
      unzstd(compressed.substr(0, keep));
      ADD_FAILURE() << keep;
    } catch (const EOFException& e) {
      EXPECT_STREQ(e.what(), "zstd stream truncated") << keep;
    }
  }
}

TEST(ZstdSourceTest, TrailingBytesFail) {
  EXPECT_EQ(failure(testing::zstdCompress("hello") + "garbage"),
            "zstd finished without exhausting source");
  EXPECT_EQ(failure(testing::zstdCompress("hello") + "x"),
            "zstd finished without exhausting source");
}

TEST(ZstdSourceTest, WindowOver8MiBIsRefused) {
  // RFC 9659 §3: a frame needing a 16 MiB window would make each response hold 16 MiB.
  const std::string text = testing::randomBytes(9 * 1024 * 1024, 5);
  EXPECT_TRUE(unzstd(testing::zstdCompress(text, 3, 23)) == text);
  EXPECT_THAT(failure(testing::zstdCompress(text, 3, 24)), HasSubstr("zstd decoding failed: "));
}

TEST(ZstdSourceTest, ReadZeroAndNegative) {
  ZstdSource source(over(testing::zstdCompress("abc")));
  Buffer sink;
  EXPECT_EQ(source.read(sink, 0), 0);
  EXPECT_THROW(source.read(sink, -1), std::invalid_argument);
  EXPECT_EQ(source.read(sink, 100), 3);
  EXPECT_EQ(source.read(sink, 100), -1);
}

}  // namespace
}  // namespace tern::internal
