// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
// BufferedSource's line readers, as Okio's ReadUtf8LineTest: readUtf8LineStrict(limit) is what
// keeps the HTTP/1 parser safe from endless header lines, so its edges get their own suite.
#include <gtest/gtest.h>

#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>

#include "buffered_source_factories.h"
#include "tern/buffer.h"
#include "tern/buffered_source.h"
#include "tern/exceptions.h"

namespace tern::testing {
namespace {

class ReadUtf8LineTest : public BufferedSourceTest {};

TEST_P(ReadUtf8LineTest, ReadUtf8LineHandlesLfCrlfAndAFinalUnterminatedLine) {
  write("abc\ndef\r\n\nghi\rjkl\r\nlast");
  EXPECT_EQ(source_->readUtf8Line(), "abc");
  EXPECT_EQ(source_->readUtf8Line(), "def");
  EXPECT_EQ(source_->readUtf8Line(), "");
  EXPECT_EQ(source_->readUtf8Line(), "ghi\rjkl");  // A lone CR is not a terminator.
  EXPECT_EQ(source_->readUtf8Line(), "last");
  EXPECT_EQ(source_->readUtf8Line(), std::nullopt);
}

TEST_P(ReadUtf8LineTest, ReadUtf8LineWithTrailingNewlineEndsWithNullopt) {
  write("abc\ndef\n");
  EXPECT_EQ(source_->readUtf8Line(), "abc");
  EXPECT_EQ(source_->readUtf8Line(), "def");
  EXPECT_EQ(source_->readUtf8Line(), std::nullopt);
}

TEST_P(ReadUtf8LineTest, ReadUtf8LineWithCrlfSplitAcrossSegments) {
  write(repeat('a', kSeg - 1) + "\r\nnext\r\n");
  EXPECT_EQ(source_->readUtf8Line(), repeat('a', kSeg - 1));
  EXPECT_EQ(source_->readUtf8LineStrict(), "next");
}

TEST_P(ReadUtf8LineTest, ReadUtf8LineStrictReadsLines) {
  write("abc\ndef\r\n");
  EXPECT_EQ(source_->readUtf8LineStrict(), "abc");
  EXPECT_EQ(source_->readUtf8LineStrict(), "def");
  try {
    source_->readUtf8LineStrict();
    FAIL() << "expected EOFException";
  } catch (const EOFException& e) {
    EXPECT_STREQ(e.what(), "\\n not found: limit=0 content=\u2026");
  }
}

TEST_P(ReadUtf8LineTest, ReadUtf8LineStrictAcceptsALineOfExactlyTheLimit) {
  write("12345\n");
  EXPECT_EQ(source_->readUtf8LineStrict(5), "12345");
  write("12345\r\n");
  EXPECT_EQ(source_->readUtf8LineStrict(5), "12345");
  EXPECT_TRUE(source_->exhausted());
}

TEST_P(ReadUtf8LineTest, ReadUtf8LineStrictRejectsALineOfLimitPlusOne) {
  write("123456\r\n");
  try {
    source_->readUtf8LineStrict(5);
    FAIL() << "expected EOFException";
  } catch (const EOFException& e) {
    // The content shows what was buffered, which depends on how the source delivers bytes.
    EXPECT_EQ(std::string(e.what()).rfind("\\n not found: limit=5 content=313233343536", 0), 0u)
        << e.what();
  }
  EXPECT_EQ(source_->readUtf8LineStrict(6), "123456") << "nothing consumed";
}

TEST_P(ReadUtf8LineTest, ReadUtf8LineStrictNeedsTheWholeCrlfAtTheLimit) {
  write("abc\r");
  try {
    source_->readUtf8LineStrict(3);
    FAIL() << "expected EOFException";
  } catch (const EOFException& e) {
    EXPECT_STREQ(e.what(), "\\n not found: limit=3 content=6162630d\u2026");
  }
  source_->readUtf8();
  write("abc");
  try {
    source_->readUtf8LineStrict(3);
    FAIL() << "expected EOFException";
  } catch (const EOFException& e) {
    EXPECT_STREQ(e.what(), "\\n not found: limit=3 content=616263\u2026");
  }
}

TEST_P(ReadUtf8LineTest, ReadUtf8LineStrictEmptyLineWithZeroLimit) {
  write("\r\nabc");
  EXPECT_EQ(source_->readUtf8LineStrict(0), "");
  EXPECT_EQ(source_->readUtf8(), "abc");
  EXPECT_THROW(source_->readUtf8LineStrict(-1), std::invalid_argument);
}

TEST_P(ReadUtf8LineTest, ReadUtf8LineStrictErrorShowsAtMost32Bytes) {
  write("aaaaaaaabbbbbbbbccccccccdddddddde");
  try {
    source_->readUtf8LineStrict();
    FAIL() << "expected EOFException";
  } catch (const EOFException& e) {
    EXPECT_STREQ(e.what(),
                 "\\n not found: limit=33 content=6161616161616161626262626262626263636363636363636"
                 "464646464646464\u2026");
  }
}

TEST_P(ReadUtf8LineTest, ReadUtf8LineStrictWithLimitsAroundTheSegmentSize) {
  for (int64_t length : {int64_t{1}, kSeg - 2, kSeg - 1, kSeg, kSeg * 3}) {
    for (std::string_view terminator : {"\n", "\r\n"}) {
      write(repeat('a', length) + std::string(terminator) + repeat('b', length));
      EXPECT_EQ(source_->readUtf8LineStrict(length), repeat('a', length))
          << length << " " << terminator.size();
      EXPECT_EQ(source_->readUtf8(), repeat('b', length));
    }
  }
}

}  // namespace

TERN_INSTANTIATE_BUFFERED_SOURCE_SUITE(ReadUtf8LineTest);

}  // namespace tern::testing
