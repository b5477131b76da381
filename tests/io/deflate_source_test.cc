// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#include "io/deflate_source.h"

#include <gtest/gtest.h>

#include <string>

#include "support/compression.h"
#include "tern/buffer.h"
#include "tern/exceptions.h"

namespace tern::internal {
namespace {

std::string inflate(std::string_view compressed) {
  auto buffer = std::make_unique<Buffer>();
  buffer->writeUtf8(compressed);
  DeflateSource source(std::move(buffer));
  return tern::buffer(source)->readUtf8();
}

TEST(DeflateSourceTest, ZlibAndRawBothDecode) {
  // RFC 9110's "deflate" is zlib; many servers send raw DEFLATE under the name.
  const std::string text = testing::compressibleText(64 * 1024, 1);
  EXPECT_TRUE(inflate(testing::zlibCompress(text)) == text);
  EXPECT_TRUE(inflate(testing::rawDeflate(text)) == text);
}

TEST(DeflateSourceTest, ZlibChecksumIsChecked) {
  std::string compressed = testing::zlibCompress("hello, adler");
  compressed.back() ^= 1;
  EXPECT_THROW(inflate(compressed), IOException);
}

TEST(DeflateSourceTest, TrailingBytesFail) {
  try {
    inflate(testing::zlibCompress("hello") + "zz");
    FAIL();
  } catch (const IOException& e) {
    EXPECT_STREQ(e.what(), "deflate finished without exhausting source");
  }
}

TEST(DeflateSourceTest, TruncatedIsEof) {
  std::string compressed = testing::rawDeflate(testing::compressibleText(32 * 1024, 2));
  EXPECT_THROW(inflate(compressed.substr(0, compressed.size() / 2)), EOFException);
}

}  // namespace
}  // namespace tern::internal
