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

#include "buffered_source_factories.h"
#include "support/io_fakes.h"
#include "tern/buffer.h"
#include "tern/exceptions.h"

namespace tern::testing {
namespace {

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
  std::vector<std::byte> data(size_t{64} * 1024);  // Many segments; OneBytePerSegment makes 65,536.
  for (auto& b : data) {
    b = static_cast<std::byte>(random() & 0xff);
  }
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

}  // namespace

TERN_INSTANTIATE_BUFFERED_SOURCE_SUITE(BufferedSourceTest);

}  // namespace tern::testing
