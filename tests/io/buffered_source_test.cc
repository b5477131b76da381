// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#include "tern/buffered_source.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <limits>
#include <memory>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include "support/io_fakes.h"
#include "tern/buffer.h"
#include "tern/exceptions.h"

namespace tern {
namespace {

constexpr int64_t kSeg = static_cast<int64_t>(Buffer::kSegmentSize);

std::string repeat(char c, int64_t n) { return std::string(static_cast<size_t>(n), c); }

std::vector<std::byte> bytes(std::initializer_list<int> values) {
  std::vector<std::byte> result;
  for (int v : values) result.push_back(static_cast<std::byte>(v));
  return result;
}

// Each way of getting a BufferedSource, as Okio's BufferedSourceTest factories. Tests write to
// `sink` (then emit()) and read from `source`.
enum class Factory {
  kBuffer,                // The Buffer itself.
  kBufferedSource,        // tern::buffer() over a Buffer.
  kOneByteAtATimeSource,  // tern::buffer() over a source that returns one byte per read.
  kOneBytePerSegment,     // A Buffer whose every byte sits in its own segment.
  kPeek,                  // Buffer::peek().
};

class BufferedSourceTest : public ::testing::TestWithParam<Factory> {
 protected:
  void SetUp() override {
    switch (GetParam()) {
      case Factory::kBuffer:
        sink_ = &data_;
        source_ = &data_;
        break;
      case Factory::kBufferedSource:
        sink_ = &data_;
        ownedSource_ = tern::buffer(static_cast<Source&>(data_));
        break;
      case Factory::kOneByteAtATimeSource:
        sink_ = &data_;
        ownedSource_ = tern::buffer(std::make_unique<testing::TrickleSource>(data_, 1));
        break;
      case Factory::kOneBytePerSegment:
        ownedSink_ = tern::buffer(std::make_unique<testing::OneBytePerSegmentSink>(data_));
        source_ = &data_;
        break;
      case Factory::kPeek:
        sink_ = &data_;
        ownedSource_ = data_.peek();
        break;
    }
    if (ownedSink_) sink_ = ownedSink_.get();
    if (ownedSource_) source_ = ownedSource_.get();
  }

  bool oneByteAtATime() const { return GetParam() == Factory::kOneByteAtATimeSource; }

  // Writes `text` and makes it readable.
  void write(std::string_view text) { sink_->writeUtf8(text).emit(); }

  Buffer data_;
  std::unique_ptr<BufferedSink> ownedSink_;
  std::unique_ptr<BufferedSource> ownedSource_;
  BufferedSink* sink_ = nullptr;
  BufferedSource* source_ = nullptr;
};

TEST_P(BufferedSourceTest, ReadBytes) {
  sink_->write(bytes({0xab, 0xcd})).emit();
  EXPECT_EQ(source_->readByte(), std::byte{0xab});
  EXPECT_EQ(source_->readByte(), std::byte{0xcd});
  EXPECT_TRUE(source_->exhausted());
}

TEST_P(BufferedSourceTest, ReadByteFromEmptySourceThrowsEof) {
  EXPECT_THROW(source_->readByte(), EOFException);
}

TEST_P(BufferedSourceTest, ReadShortBothByteOrders) {
  sink_->write(bytes({0xab, 0xcd, 0xef, 0x01, 0xab, 0xcd})).emit();
  EXPECT_EQ(source_->readShort(), static_cast<int16_t>(0xabcd));
  EXPECT_EQ(source_->readShort(), static_cast<int16_t>(0xef01));
  EXPECT_EQ(source_->readShortLe(), static_cast<int16_t>(0xcdab));
  EXPECT_TRUE(source_->exhausted());
}

TEST_P(BufferedSourceTest, ReadIntBothByteOrders) {
  sink_->write(bytes({0xab, 0xcd, 0xef, 0x01, 0x87, 0x65, 0x43, 0x21})).emit();
  EXPECT_EQ(source_->readInt(), static_cast<int32_t>(0xabcdef01));
  EXPECT_EQ(source_->readIntLe(), 0x21436587);
  EXPECT_TRUE(source_->exhausted());
}

TEST_P(BufferedSourceTest, ReadLongBothByteOrders) {
  sink_
      ->write(bytes({0xab, 0xcd, 0xef, 0x10, 0x87, 0x65, 0x43, 0x21, 0x36, 0x47, 0x58, 0x69, 0x12,
                     0x23, 0x34, 0x45}))
      .emit();
  EXPECT_EQ(source_->readLong(), static_cast<int64_t>(0xabcdef1087654321));
  EXPECT_EQ(source_->readLongLe(), 0x4534231269584736);
  EXPECT_TRUE(source_->exhausted());
}

// Values that straddle two segments of the underlying buffer.
TEST_P(BufferedSourceTest, ReadIntegersSplitAcrossSegments) {
  write(repeat('a', kSeg - 1));
  sink_->write(bytes({0xab, 0xcd})).emit();
  source_->skip(kSeg - 1);
  EXPECT_EQ(source_->readShort(), static_cast<int16_t>(0xabcd));

  write(repeat('a', kSeg - 3));
  sink_->write(bytes({0xab, 0xcd, 0xef, 0x01})).emit();
  source_->skip(kSeg - 3);
  EXPECT_EQ(source_->readInt(), static_cast<int32_t>(0xabcdef01));

  write(repeat('a', kSeg - 7));
  sink_->write(bytes({0xab, 0xcd, 0xef, 0x01, 0x87, 0x65, 0x43, 0x21})).emit();
  source_->skip(kSeg - 7);
  EXPECT_EQ(source_->readLong(), static_cast<int64_t>(0xabcdef0187654321));
  EXPECT_TRUE(source_->exhausted());
}

TEST_P(BufferedSourceTest, ReadingAnIntegerTooShortThrowsEofAndConsumesNothing) {
  sink_->writeLong(std::numeric_limits<int64_t>::max()).emit();
  source_->readByte();
  EXPECT_THROW(source_->readLong(), EOFException);
  EXPECT_THROW(source_->readLongLe(), EOFException);
  EXPECT_EQ(source_->readInt(), 0xffffffff);
  EXPECT_THROW(source_->readInt(), EOFException);
  EXPECT_EQ(source_->readShort(), -1);
  EXPECT_THROW(source_->readShort(), EOFException);
  EXPECT_EQ(source_->readByte(), std::byte{0xff});
}

TEST_P(BufferedSourceTest, ReadAllMovesBufferedAndUnreadBytes) {
  source_->buffer().writeUtf8("abc");
  write("def");
  Buffer out;
  EXPECT_EQ(source_->readAll(out), 6);
  EXPECT_EQ(out.readUtf8(), "abcdef");
  EXPECT_TRUE(source_->exhausted());
}

TEST_P(BufferedSourceTest, ReadAllFromAnExhaustedSourceWritesNothing) {
  testing::RecordingSink out;
  EXPECT_EQ(source_->readAll(out), 0);
  EXPECT_TRUE(out.log().empty());
}

TEST_P(BufferedSourceTest, ReadAllEmitsWholeSegmentsToTheSink) {
  write(repeat('r', kSeg * 3 + 5));
  testing::RecordingSink out;
  EXPECT_EQ(source_->readAll(out), kSeg * 3 + 5);
  EXPECT_EQ(out.data().readUtf8(), repeat('r', kSeg * 3 + 5));
}

TEST_P(BufferedSourceTest, ReadFromAnExhaustedSourceReturnsMinusOne) {
  Buffer out;
  out.writeUtf8("0123456789");
  EXPECT_EQ(source_->read(out, 10), -1);
  EXPECT_EQ(out.size(), 10);
  EXPECT_TRUE(source_->exhausted());
}

TEST_P(BufferedSourceTest, ReadZeroBytesReturnsZeroOrMinusOne) {
  Buffer out;
  int64_t result = source_->read(out, 0);
  EXPECT_TRUE(result == 0 || result == -1) << result;
  EXPECT_EQ(out.size(), 0);
  EXPECT_THROW(source_->read(out, -1), std::invalid_argument);
}

TEST_P(BufferedSourceTest, ReadFullyIntoBuffer) {
  write(repeat('a', 10000));
  Buffer out;
  source_->readFully(out, 9999);
  EXPECT_EQ(out.readUtf8(), repeat('a', 9999));
  EXPECT_EQ(source_->readUtf8(), "a");
}

TEST_P(BufferedSourceTest, ReadFullyTooShortThrowsAfterMovingWhatItCould) {
  write("Hi");
  Buffer out;
  EXPECT_THROW(source_->readFully(out, 5), EOFException);
  EXPECT_EQ(out.readUtf8(), "Hi");
}

TEST_P(BufferedSourceTest, ReadFullyIntoSpan) {
  write("Hello" + repeat('e', kSeg));
  std::vector<std::byte> out(static_cast<size_t>(kSeg) + 5);
  source_->readFully(out);
  EXPECT_EQ(out.front(), std::byte{'H'});
  EXPECT_EQ(out[4], std::byte{'o'});
  EXPECT_EQ(out.back(), std::byte{'e'});
  EXPECT_TRUE(source_->exhausted());
}

TEST_P(BufferedSourceTest, ReadFullyIntoSpanTooShortCopiesWhatItCould) {
  write("Hello");
  std::vector<std::byte> out(6);
  EXPECT_THROW(source_->readFully(out), EOFException);
  EXPECT_EQ(out, bytes({'H', 'e', 'l', 'l', 'o', 0}));
}

TEST_P(BufferedSourceTest, ReadIntoSpanReturnsWhatIsAvailable) {
  write("abcd");
  std::vector<std::byte> out(5);
  int64_t read = source_->read(out);
  if (oneByteAtATime()) {
    EXPECT_EQ(read, 1);
    EXPECT_EQ(out, bytes({'a', 0, 0, 0, 0}));
  } else {
    EXPECT_EQ(read, 4);
    EXPECT_EQ(out, bytes({'a', 'b', 'c', 'd', 0}));
  }
  std::vector<std::byte> empty;
  EXPECT_EQ(source_->read(std::span<std::byte>(empty)), 0);
}

TEST_P(BufferedSourceTest, ReadIntoSpanAtEndReturnsMinusOne) {
  std::vector<std::byte> out(3);
  EXPECT_EQ(source_->read(out), -1);
}

TEST_P(BufferedSourceTest, ReadByteArrayToEnd) {
  std::string text = "abcd" + repeat('e', kSeg);
  write(text);
  std::vector<std::byte> result = source_->readByteArray();
  EXPECT_EQ(std::string(reinterpret_cast<const char*>(result.data()), result.size()), text);
}

TEST_P(BufferedSourceTest, ReadByteArrayPartial) {
  write("abcd");
  EXPECT_EQ(source_->readByteArray(3), bytes({'a', 'b', 'c'}));
  EXPECT_EQ(source_->readUtf8(1), "d");
}

TEST_P(BufferedSourceTest, ReadByteArrayTooShortThrowsAndConsumesNothing) {
  write("abc");
  EXPECT_THROW(source_->readByteArray(4), EOFException);
  EXPECT_EQ(source_->readUtf8(), "abc");
}

TEST_P(BufferedSourceTest, ReadUtf8SpansSegments) {
  write(repeat('a', kSeg * 2));
  source_->skip(kSeg - 1);
  EXPECT_EQ(source_->readUtf8(2), "aa");
  EXPECT_EQ(source_->readUtf8(), repeat('a', kSeg - 1));
}

TEST_P(BufferedSourceTest, ReadUtf8TooShortThrowsAndConsumesNothing) {
  write("abc");
  EXPECT_THROW(source_->readUtf8(4), EOFException);
  EXPECT_THROW(source_->readUtf8(-1), std::invalid_argument);
  EXPECT_EQ(source_->readUtf8(), "abc");
}

TEST_P(BufferedSourceTest, ReadUtf8ReturnsBytesUnchanged) {
  sink_->write(bytes({'a', 0x00, 0xff, 0xc3, 0xa9})).emit();  // NUL, invalid UTF-8, then "é".
  EXPECT_EQ(source_->readUtf8(), std::string("a\0\xff\xc3\xa9", 5));
}

TEST_P(BufferedSourceTest, SkipDiscardsAcrossSegments) {
  write(repeat('a', kSeg) + "b" + repeat('c', kSeg));
  source_->skip(kSeg);
  EXPECT_EQ(source_->readUtf8(1), "b");
  source_->skip(kSeg - 1);
  EXPECT_EQ(source_->readUtf8(), "c");
}

TEST_P(BufferedSourceTest, SkipPastTheEndThrowsEof) {
  write("a");
  EXPECT_THROW(source_->skip(2), EOFException);
  EXPECT_THROW(source_->skip(-1), std::invalid_argument);
}

TEST_P(BufferedSourceTest, ExhaustedReflectsRemainingBytes) {
  EXPECT_TRUE(source_->exhausted());
  write("x");
  EXPECT_FALSE(source_->exhausted());
  source_->readByte();
  EXPECT_TRUE(source_->exhausted());
}

TEST_P(BufferedSourceTest, RequestAndRequire) {
  write("abc");
  EXPECT_TRUE(source_->request(3));
  EXPECT_GE(source_->buffer().size(), 3);
  EXPECT_FALSE(source_->request(4));
  EXPECT_NO_THROW(source_->require(3));
  EXPECT_THROW(source_->require(4), EOFException);
  EXPECT_THROW(source_->request(-1), std::invalid_argument);
  EXPECT_EQ(source_->readUtf8(), "abc");
}

TEST_P(BufferedSourceTest, IndexOfByte) {
  write("abcabc");
  EXPECT_EQ(source_->indexOf(std::byte{'a'}), 0);
  EXPECT_EQ(source_->indexOf(std::byte{'c'}), 2);
  EXPECT_EQ(source_->indexOf(std::byte{'a'}, 1), 3);
  EXPECT_EQ(source_->indexOf(std::byte{'d'}), -1);
  EXPECT_EQ(source_->readUtf8(), "abcabc");  // Consumes nothing.
}

TEST_P(BufferedSourceTest, IndexOfByteHonoursTheRange) {
  write("a...b...c");
  EXPECT_EQ(source_->indexOf(std::byte{'b'}, 0, 4), -1);
  EXPECT_EQ(source_->indexOf(std::byte{'b'}, 0, 5), 4);
  EXPECT_EQ(source_->indexOf(std::byte{'b'}, 5), -1);
  EXPECT_EQ(source_->indexOf(std::byte{'c'}, 8, 9), 8);
  EXPECT_EQ(source_->indexOf(std::byte{'c'}, 8, 8), -1);
  EXPECT_EQ(source_->indexOf(std::byte{'a'}, 100), -1);
  EXPECT_THROW(source_->indexOf(std::byte{'a'}, -1), std::invalid_argument);
  EXPECT_THROW(source_->indexOf(std::byte{'a'}, 5, 4), std::invalid_argument);
}

TEST_P(BufferedSourceTest, IndexOfByteFarAwayAcrossSegments) {
  write(repeat('a', kSeg * 3) + "z" + repeat('a', 10));
  EXPECT_EQ(source_->indexOf(std::byte{'z'}), kSeg * 3);
  EXPECT_EQ(source_->indexOf(std::byte{'z'}, kSeg * 3), kSeg * 3);
  EXPECT_EQ(source_->indexOf(std::byte{'z'}, kSeg * 3 + 1), -1);
}

TEST_P(BufferedSourceTest, IndexOfBytes) {
  write("abcabcabd");
  EXPECT_EQ(source_->indexOf("abd"), 6);
  EXPECT_EQ(source_->indexOf("abc"), 0);
  EXPECT_EQ(source_->indexOf("abc", 1), 3);
  EXPECT_EQ(source_->indexOf("abcabd"), 3);
  EXPECT_EQ(source_->indexOf("abe"), -1);
  EXPECT_EQ(source_->indexOf("abdx"), -1);  // Runs off the end.
  EXPECT_THROW(source_->indexOf(""), std::invalid_argument);
  EXPECT_EQ(source_->readUtf8(), "abcabcabd");
}

TEST_P(BufferedSourceTest, IndexOfBytesSpanningSegments) {
  write(repeat('-', kSeg - 2) + "\r\n--boundary" + repeat('-', kSeg));
  EXPECT_EQ(source_->indexOf("\r\n--boundary"), kSeg - 2);
}

TEST_P(BufferedSourceTest, RangeEquals) {
  write(repeat('x', kSeg - 1) + "HTTP/1.1");
  EXPECT_TRUE(source_->rangeEquals(kSeg - 1, "HTTP/"));
  EXPECT_TRUE(source_->rangeEquals(kSeg - 1, "HTTP/1.1"));
  EXPECT_FALSE(source_->rangeEquals(kSeg - 1, "HTTP/1.1 "));  // Past the end.
  EXPECT_FALSE(source_->rangeEquals(kSeg, "HTTP"));
  EXPECT_FALSE(source_->rangeEquals(-1, "x"));
  EXPECT_TRUE(source_->rangeEquals(0, ""));
}

TEST_P(BufferedSourceTest, ReadDecimalLongValues) {
  struct Case {
    std::string text;
    int64_t value;
  };
  for (const Case& c : std::vector<Case>{
           {"0", 0},
           {"-0", 0},
           {"1", 1},
           {"-1", -1},
           {"10", 10},
           {"000000000000000000000000000000042", 42},
           {"9223372036854775807", std::numeric_limits<int64_t>::max()},
           {"-9223372036854775808", std::numeric_limits<int64_t>::min()},
           {"-9223372036854775807", -9223372036854775807},
       }) {
    write(c.text + " ");
    EXPECT_EQ(source_->readDecimalLong(), c.value) << c.text;
    EXPECT_EQ(source_->readUtf8(1), " ") << "stops before the first non-digit";
  }
}

TEST_P(BufferedSourceTest, ReadDecimalLongAtEndOfStream) {
  write("12345");
  EXPECT_EQ(source_->readDecimalLong(), 12345);
  EXPECT_TRUE(source_->exhausted());
}

TEST_P(BufferedSourceTest, ReadDecimalLongSpanningSegments) {
  write(repeat('a', kSeg - 3) + "1234567890;");
  source_->skip(kSeg - 3);
  EXPECT_EQ(source_->readDecimalLong(), 1234567890);
  EXPECT_EQ(source_->readUtf8(), ";");
}

TEST_P(BufferedSourceTest, ReadDecimalLongOverflowThrowsProtocolException) {
  for (std::string text : {"9223372036854775808", "-9223372036854775809", "99999999999999999999",
                           "-99999999999999999999", "12345678901234567890123"}) {
    write(text);
    try {
      source_->readDecimalLong();
      ADD_FAILURE() << "expected overflow for " << text;
    } catch (const ProtocolException& e) {
      EXPECT_EQ(std::string(e.what()).rfind("Number too large: ", 0), 0u) << e.what();
    }
    source_->readUtf8();  // Discard the unparsed rest.
  }
}

TEST_P(BufferedSourceTest, ReadDecimalLongOverflowMessageShowsTheDigits) {
  write("92233720368547758080");
  try {
    source_->readDecimalLong();
    FAIL() << "expected overflow";
  } catch (const ProtocolException& e) {
    EXPECT_STREQ(e.what(), "Number too large: 9223372036854775808");
  }
}

TEST_P(BufferedSourceTest, ReadDecimalLongRejectsGarbage) {
  write("abc");
  try {
    source_->readDecimalLong();
    FAIL() << "expected a ProtocolException";
  } catch (const ProtocolException& e) {
    EXPECT_STREQ(e.what(), "Expected a digit or '-' but was 0x61");
  }
  EXPECT_EQ(source_->readUtf8(), "abc");

  write("-x");
  try {
    source_->readDecimalLong();
    FAIL() << "expected a ProtocolException";
  } catch (const ProtocolException& e) {
    EXPECT_STREQ(e.what(), "Expected a digit but was 0x78");
  }
  source_->readUtf8();

  write(" 1");
  EXPECT_THROW(source_->readDecimalLong(), ProtocolException);
}

TEST_P(BufferedSourceTest, ReadDecimalLongWithoutDigitsBeforeEndThrowsEof) {
  EXPECT_THROW(source_->readDecimalLong(), EOFException);
  write("-");
  EXPECT_THROW(source_->readDecimalLong(), EOFException);
}

TEST_P(BufferedSourceTest, ReadHexadecimalUnsignedLongValues) {
  struct Case {
    std::string text;
    uint64_t value;
  };
  for (const Case& c : std::vector<Case>{
           {"0", 0},
           {"a", 10},
           {"FF", 255},
           {"aBcDeF", 0xabcdef},
           {"7fffffffffffffff", 0x7fffffffffffffff},
           {"ffffffffffffffff", 0xffffffffffffffff},
           {"00000000000000000000000000001", 1},
           {"0000000000000000ffffffffffffffff", 0xffffffffffffffff},
       }) {
    write(c.text + ";ext");
    EXPECT_EQ(source_->readHexadecimalUnsignedLong(), c.value) << c.text;
    EXPECT_EQ(source_->readUtf8(4), ";ext") << "stops before the first non-hex byte";
  }
}

TEST_P(BufferedSourceTest, ReadHexadecimalSpanningSegments) {
  write(repeat('x', kSeg - 2) + "1f2e\r\n");
  source_->skip(kSeg - 2);
  EXPECT_EQ(source_->readHexadecimalUnsignedLong(), 0x1f2eu);
  EXPECT_EQ(source_->readUtf8(), "\r\n");
}

TEST_P(BufferedSourceTest, ReadHexadecimalOverflowThrowsProtocolException) {
  write("10000000000000000");  // 2^64: seventeen digits.
  try {
    source_->readHexadecimalUnsignedLong();
    FAIL() << "expected overflow";
  } catch (const ProtocolException& e) {
    EXPECT_STREQ(e.what(), "Number too large: 10000000000000000");
  }
  source_->readUtf8();
  write("fffffffffffffffff");
  EXPECT_THROW(source_->readHexadecimalUnsignedLong(), ProtocolException);
}

TEST_P(BufferedSourceTest, ReadHexadecimalRejectsGarbage) {
  for (std::string text : {"g", " 1", "-1", "\r\n", "x1"}) {
    write(text);
    try {
      source_->readHexadecimalUnsignedLong();
      ADD_FAILURE() << "expected a ProtocolException for " << text;
    } catch (const ProtocolException& e) {
      EXPECT_EQ(std::string(e.what()).rfind("Expected leading [0-9a-fA-F] character but was 0x", 0),
                0u)
          << e.what();
    }
    EXPECT_EQ(source_->readUtf8(), text) << "nothing consumed";
  }
  EXPECT_THROW(source_->readHexadecimalUnsignedLong(), EOFException);
}

TEST_P(BufferedSourceTest, ReadUtf8LineHandlesLfCrlfAndAFinalUnterminatedLine) {
  write("abc\ndef\r\n\nghi\rjkl\r\nlast");
  EXPECT_EQ(source_->readUtf8Line(), "abc");
  EXPECT_EQ(source_->readUtf8Line(), "def");
  EXPECT_EQ(source_->readUtf8Line(), "");
  EXPECT_EQ(source_->readUtf8Line(), "ghi\rjkl");  // A lone CR is not a terminator.
  EXPECT_EQ(source_->readUtf8Line(), "last");
  EXPECT_EQ(source_->readUtf8Line(), std::nullopt);
}

TEST_P(BufferedSourceTest, ReadUtf8LineWithTrailingNewlineEndsWithNullopt) {
  write("abc\ndef\n");
  EXPECT_EQ(source_->readUtf8Line(), "abc");
  EXPECT_EQ(source_->readUtf8Line(), "def");
  EXPECT_EQ(source_->readUtf8Line(), std::nullopt);
}

TEST_P(BufferedSourceTest, ReadUtf8LineWithCrlfSplitAcrossSegments) {
  write(repeat('a', kSeg - 1) + "\r\nnext\r\n");
  EXPECT_EQ(source_->readUtf8Line(), repeat('a', kSeg - 1));
  EXPECT_EQ(source_->readUtf8LineStrict(), "next");
}

TEST_P(BufferedSourceTest, ReadUtf8LineStrictReadsLines) {
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

TEST_P(BufferedSourceTest, ReadUtf8LineStrictAcceptsALineOfExactlyTheLimit) {
  write("12345\n");
  EXPECT_EQ(source_->readUtf8LineStrict(5), "12345");
  write("12345\r\n");
  EXPECT_EQ(source_->readUtf8LineStrict(5), "12345");
  EXPECT_TRUE(source_->exhausted());
}

TEST_P(BufferedSourceTest, ReadUtf8LineStrictRejectsALineOfLimitPlusOne) {
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

TEST_P(BufferedSourceTest, ReadUtf8LineStrictNeedsTheWholeCrlfAtTheLimit) {
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

TEST_P(BufferedSourceTest, ReadUtf8LineStrictEmptyLineWithZeroLimit) {
  write("\r\nabc");
  EXPECT_EQ(source_->readUtf8LineStrict(0), "");
  EXPECT_EQ(source_->readUtf8(), "abc");
  EXPECT_THROW(source_->readUtf8LineStrict(-1), std::invalid_argument);
}

TEST_P(BufferedSourceTest, ReadUtf8LineStrictErrorShowsAtMost32Bytes) {
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

TEST_P(BufferedSourceTest, ReadUtf8LineStrictWithLimitsAroundTheSegmentSize) {
  for (int64_t length : {int64_t{1}, kSeg - 2, kSeg - 1, kSeg, kSeg * 3}) {
    for (std::string_view terminator : {"\n", "\r\n"}) {
      write(repeat('a', length) + std::string(terminator) + repeat('b', length));
      EXPECT_EQ(source_->readUtf8LineStrict(length), repeat('a', length))
          << length << " " << terminator.size();
      EXPECT_EQ(source_->readUtf8(), repeat('b', length));
    }
  }
}

TEST_P(BufferedSourceTest, PeekReadsAheadWithoutConsuming) {
  write("abcdefghi");
  EXPECT_EQ(source_->readUtf8(3), "abc");
  std::unique_ptr<BufferedSource> peek = source_->peek();
  EXPECT_EQ(peek->readUtf8(3), "def");
  EXPECT_EQ(peek->readUtf8(3), "ghi");
  EXPECT_TRUE(peek->exhausted());
  EXPECT_EQ(source_->readUtf8(3), "def");
}

TEST_P(BufferedSourceTest, PeekSeesLargeDataAcrossSegments) {
  write(repeat('a', kSeg) + repeat('b', kSeg) + repeat('c', kSeg));
  std::unique_ptr<BufferedSource> peek = source_->peek();
  EXPECT_EQ(peek->readUtf8(kSeg), repeat('a', kSeg));
  peek->skip(kSeg);
  EXPECT_EQ(peek->readUtf8(), repeat('c', kSeg));
  EXPECT_EQ(source_->readUtf8(), repeat('a', kSeg) + repeat('b', kSeg) + repeat('c', kSeg));
}

TEST_P(BufferedSourceTest, RoundTripOfRandomDataWithMixedReads) {
  std::mt19937 random(5);
  std::vector<std::byte> data(256 * 1024);
  for (auto& b : data) b = static_cast<std::byte>(random() & 0xff);
  sink_->write(std::span<const std::byte>(data)).emit();
  std::vector<std::byte> result;
  while (!source_->exhausted()) {
    auto n = std::min<int64_t>(static_cast<int64_t>(random() % 20000) + 1,
                               static_cast<int64_t>(data.size() - result.size()));
    std::vector<std::byte> chunk = source_->readByteArray(n);
    result.insert(result.end(), chunk.begin(), chunk.end());
  }
  EXPECT_EQ(result, data);
}

std::string factoryName(const ::testing::TestParamInfo<Factory>& info) {
  switch (info.param) {
    case Factory::kBuffer:
      return "Buffer";
    case Factory::kBufferedSource:
      return "BufferedSource";
    case Factory::kOneByteAtATimeSource:
      return "OneByteAtATimeSource";
    case Factory::kOneBytePerSegment:
      return "OneBytePerSegment";
    case Factory::kPeek:
      return "Peek";
  }
  return "Unknown";
}

INSTANTIATE_TEST_SUITE_P(Factories, BufferedSourceTest,
                         ::testing::Values(Factory::kBuffer, Factory::kBufferedSource,
                                           Factory::kOneByteAtATimeSource,
                                           Factory::kOneBytePerSegment, Factory::kPeek),
                         factoryName);

// RealBufferedSource (what tern::buffer() returns) ---------------------------------------------

TEST(RealBufferedSourceTest, ReadsFromTheSourceOneSegmentAtATime) {
  Buffer data;
  data.writeUtf8(repeat('a', kSeg * 2) + repeat('b', 10));
  testing::TrickleSource upstream(data, kSeg * 10);
  std::unique_ptr<BufferedSource> source = tern::buffer(upstream);
  source->readByte();
  EXPECT_EQ(source->buffer().size(), kSeg - 1);
  EXPECT_EQ(data.size(), kSeg + 10);
  EXPECT_EQ(source->readUtf8(kSeg * 2 - 1), repeat('a', kSeg * 2 - 1));
  EXPECT_EQ(source->readUtf8(), repeat('b', 10));
}

TEST(RealBufferedSourceTest, ReadLineStrictNeverBuffersMuchMoreThanTheLimit) {
  auto endless = std::make_unique<testing::EndlessSource>('a');
  testing::EndlessSource& upstream = *endless;
  std::unique_ptr<BufferedSource> source = tern::buffer(std::move(endless));
  EXPECT_THROW(source->readUtf8LineStrict(100000), EOFException);
  // The scan stopped near the limit: a peer cannot make us buffer an endless header line.
  EXPECT_LE(upstream.bytesProduced(), 100000 + 2 + kSeg);
  EXPECT_LE(source->buffer().size(), 100000 + 2 + kSeg);
}

TEST(RealBufferedSourceTest, IndexOfStopsReadingAtToIndex) {
  auto endless = std::make_unique<testing::EndlessSource>('a');
  testing::EndlessSource& upstream = *endless;
  std::unique_ptr<BufferedSource> source = tern::buffer(std::move(endless));
  EXPECT_EQ(source->indexOf(std::byte{'\n'}, 0, 50000), -1);
  EXPECT_LE(upstream.bytesProduced(), 50000 + kSeg);
}

TEST(RealBufferedSourceTest, DecimalDigitsAreConsumedAsTheyAreParsed) {
  // Leading zeros are valid, so the parser must walk them without buffering them all.
  Buffer data;
  data.writeUtf8(repeat('0', kSeg * 64) + "7\n");
  testing::TrickleSource upstream(data, kSeg);
  std::unique_ptr<BufferedSource> source = tern::buffer(upstream);
  EXPECT_EQ(source->readDecimalLong(), 7);
  EXPECT_EQ(source->readUtf8(), "\n");
}

TEST(RealBufferedSourceTest, CloseClosesTheSourceAndLaterReadsThrow) {
  Buffer data;
  data.writeUtf8("abc");
  auto trickle = std::make_unique<testing::TrickleSource>(data, 10);
  testing::TrickleSource& upstream = *trickle;
  std::unique_ptr<BufferedSource> source = tern::buffer(std::move(trickle));
  EXPECT_EQ(source->readUtf8(1), "a");
  source->close();
  source->close();  // Harmless.
  EXPECT_EQ(upstream.closeCount(), 1);
  EXPECT_THROW(source->readByte(), std::logic_error);
  Buffer out;
  EXPECT_THROW(source->read(out, 1), std::logic_error);
  EXPECT_THROW(source->exhausted(), std::logic_error);
}

TEST(RealBufferedSourceTest, NonOwningSourceStillForwardsClose) {
  Buffer data;
  testing::TrickleSource upstream(data);
  {
    std::unique_ptr<BufferedSource> source = tern::buffer(upstream);
    source->close();
  }
  EXPECT_EQ(upstream.closeCount(), 1);
  EXPECT_EQ(upstream.readCount(), 0);
}

TEST(RealBufferedSourceTest, TimeoutIsTheUnderlyingSourcesTimeout) {
  Buffer data;
  testing::TrickleSource upstream(data);
  std::unique_ptr<BufferedSource> source = tern::buffer(upstream);
  EXPECT_EQ(&source->timeout(), &upstream.timeout());
}

TEST(RealBufferedSourceTest, NullSourceIsRejected) {
  EXPECT_THROW(tern::buffer(std::unique_ptr<Source>()), std::invalid_argument);
}

TEST(RealBufferedSourceTest, ReadMovesBufferedSegmentsWithoutCopying) {
  Buffer data;
  data.writeUtf8(repeat('s', kSeg));
  const std::byte* segment = data.readableSegment(0).data();
  std::unique_ptr<BufferedSource> source = tern::buffer(static_cast<Source&>(data));
  Buffer out;
  EXPECT_EQ(source->read(out, kSeg), kSeg);
  EXPECT_EQ(out.readableSegment(0).data(), segment);
}

}  // namespace
}  // namespace tern
