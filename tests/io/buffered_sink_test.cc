// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#include "tern/buffered_sink.h"

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

// Each way of getting a BufferedSink, as Okio's BufferedSinkTest factories. Tests write to
// `sink_` and check what reached `data_` after flush().
enum class Factory {
  kBuffer,        // The Buffer itself.
  kBufferedSink,  // tern::buffer() over a Buffer.
};

class BufferedSinkTest : public ::testing::TestWithParam<Factory> {
 protected:
  void SetUp() override {
    if (GetParam() == Factory::kBuffer) {
      sink_ = &data_;
    } else {
      ownedSink_ = tern::buffer(static_cast<Sink&>(data_));
      sink_ = ownedSink_.get();
    }
  }

  // Flushes and returns what the sink's destination holds, as hex, consuming it.
  std::string flushedHex() {
    sink_->flush();
    std::string result;
    static constexpr char kDigits[] = "0123456789abcdef";
    while (data_.size() > 0) {
      auto b = std::to_integer<unsigned>(data_.readByte());
      result += kDigits[b >> 4];
      result += kDigits[b & 0xf];
    }
    return result;
  }

  std::string flushedUtf8() {
    sink_->flush();
    return data_.readUtf8();
  }

  Buffer data_;
  std::unique_ptr<BufferedSink> ownedSink_;
  BufferedSink* sink_ = nullptr;
};

TEST_P(BufferedSinkTest, WriteNothingLeavesNothing) {
  sink_->writeUtf8("");
  sink_->write(nullptr, 0);
  sink_->flush();
  EXPECT_EQ(data_.size(), 0);
}

TEST_P(BufferedSinkTest, WriteBytesAndUtf8) {
  sink_->writeByte(std::byte{0x12}).writeByte(std::byte{0x34});
  sink_->write("\xab\xcd", 2);
  EXPECT_EQ(flushedHex(), "1234abcd");
  sink_->writeUtf8("caf\xc3\xa9");
  EXPECT_EQ(flushedUtf8(), "caf\xc3\xa9");
}

TEST_P(BufferedSinkTest, WriteLastByteInSegment) {
  sink_->writeUtf8(repeat('a', kSeg - 1));
  sink_->writeByte(std::byte{0x20}).writeByte(std::byte{0x21});
  sink_->flush();
  EXPECT_EQ(data_.readUtf8(kSeg - 1), repeat('a', kSeg - 1));
  EXPECT_EQ(data_.readUtf8(), " !");
}

TEST_P(BufferedSinkTest, WriteShortBothByteOrders) {
  sink_->writeShort(0xabcd).writeShort(0x4321).writeShortLe(0xabcd).writeShort(-1);
  EXPECT_EQ(flushedHex(), "abcd4321cdabffff");
}

TEST_P(BufferedSinkTest, WriteShortUsesOnlyTheLow16Bits) {
  sink_->writeShort(0x12345678);
  EXPECT_EQ(flushedHex(), "5678");
}

TEST_P(BufferedSinkTest, WriteIntBothByteOrders) {
  sink_->writeInt(static_cast<int32_t>(0xabcdef01))
      .writeInt(static_cast<int32_t>(0x87654321))
      .writeIntLe(0x01020304);
  EXPECT_EQ(flushedHex(), "abcdef018765432104030201");
}

TEST_P(BufferedSinkTest, WriteIntThatStraddlesASegmentBoundary) {
  sink_->writeUtf8(repeat('a', kSeg - 3));
  sink_->writeInt(static_cast<int32_t>(0xabcdef01));
  sink_->flush();
  data_.skip(kSeg - 3);
  EXPECT_EQ(data_.readInt(), static_cast<int32_t>(0xabcdef01));
}

TEST_P(BufferedSinkTest, WriteLongBothByteOrders) {
  sink_->writeLong(static_cast<int64_t>(0xabcdef0187654321)).writeLongLe(0x0102030405060708);
  EXPECT_EQ(flushedHex(), "abcdef01876543210807060504030201");
}

TEST_P(BufferedSinkTest, WriteLongThatStraddlesASegmentBoundary) {
  sink_->writeUtf8(repeat('a', kSeg - 5));
  sink_->writeLong(std::numeric_limits<int64_t>::min());
  sink_->flush();
  data_.skip(kSeg - 5);
  EXPECT_EQ(data_.readLong(), std::numeric_limits<int64_t>::min());
}

TEST_P(BufferedSinkTest, WriteDecimalLong) {
  struct Case {
    int64_t value;
    std::string text;
  };
  for (const Case& c : std::vector<Case>{
           {0, "0"},
           {-1, "-1"},
           {1, "1"},
           {9, "9"},
           {10, "10"},
           {-10, "-10"},
           {1234567890, "1234567890"},
           {std::numeric_limits<int64_t>::max(), "9223372036854775807"},
           {std::numeric_limits<int64_t>::min(), "-9223372036854775808"},
       }) {
    sink_->writeDecimalLong(c.value);
    EXPECT_EQ(flushedUtf8(), c.text);
  }
}

TEST_P(BufferedSinkTest, WriteHexadecimalUnsignedLong) {
  struct Case {
    uint64_t value;
    std::string text;
  };
  for (const Case& c : std::vector<Case>{
           {0, "0"},
           {0xf, "f"},
           {0x10, "10"},
           {0xabcdef, "abcdef"},
           {0x7fffffffffffffff, "7fffffffffffffff"},
           {0xffffffffffffffff, "ffffffffffffffff"},
       }) {
    sink_->writeHexadecimalUnsignedLong(c.value);
    EXPECT_EQ(flushedUtf8(), c.text);
  }
}

TEST_P(BufferedSinkTest, DecimalAndHexRoundTripThroughTheReaders) {
  std::mt19937_64 random(11);
  for (int i = 0; i < 2000; ++i) {
    auto value = static_cast<int64_t>(random() >> (random() % 64));
    if (i % 2 == 1) {
      value = -value;
    }
    sink_->writeDecimalLong(value).writeUtf8(" ");
    sink_->writeHexadecimalUnsignedLong(static_cast<uint64_t>(value)).writeUtf8("\n");
    sink_->flush();
    ASSERT_EQ(data_.readDecimalLong(), value);
    data_.skip(1);
    ASSERT_EQ(data_.readHexadecimalUnsignedLong(), static_cast<uint64_t>(value));
    data_.skip(1);
  }
}

TEST_P(BufferedSinkTest, WriteAllDrainsTheSource) {
  Buffer source;
  source.writeUtf8(repeat('w', kSeg * 2 + 3));
  EXPECT_EQ(sink_->writeAll(source), kSeg * 2 + 3);
  EXPECT_EQ(source.size(), 0);
  EXPECT_EQ(flushedUtf8(), repeat('w', kSeg * 2 + 3));
}

TEST_P(BufferedSinkTest, WriteAllFromASlowSourceGetsEveryByte) {
  Buffer data;
  data.writeUtf8("slow and steady");
  testing::TrickleSource slow(data, 2);
  EXPECT_EQ(sink_->writeAll(slow), 15);
  EXPECT_EQ(flushedUtf8(), "slow and steady");
}

TEST_P(BufferedSinkTest, WriteFromSourceTakesExactlyByteCount) {
  Buffer data;
  data.writeUtf8("abcdef");
  testing::TrickleSource slow(data, 1);
  sink_->write(slow, 4);
  EXPECT_EQ(flushedUtf8(), "abcd");
  EXPECT_EQ(data.readUtf8(), "ef");
}

TEST_P(BufferedSinkTest, WriteFromSourceThatEndsEarlyThrowsEofKeepingWhatWasRead) {
  Buffer data;
  data.writeUtf8("abc");
  testing::TrickleSource slow(data, 1);
  EXPECT_THROW(sink_->write(slow, 5), EOFException);
  EXPECT_EQ(flushedUtf8(), "abc");
  EXPECT_THROW(sink_->write(slow, -1), std::invalid_argument);
}

TEST_P(BufferedSinkTest, WriteBufferMovesItsBytes) {
  Buffer source;
  source.writeUtf8("moved" + repeat('!', kSeg));
  sink_->write(source, 5);
  EXPECT_EQ(source.size(), kSeg);
  EXPECT_EQ(flushedUtf8(), "moved");
}

TEST_P(BufferedSinkTest, LargeWritesRoundTrip) {
  std::mt19937 random(17);
  std::vector<std::byte> data(size_t{3} * 1024 * 1024 + 7);
  for (auto& b : data) {
    b = static_cast<std::byte>(random() & 0xff);
  }
  for (size_t pos = 0; pos < data.size();) {
    size_t n = std::min<size_t>(data.size() - pos, random() % 50000 + 1);
    sink_->write(std::span<const std::byte>(data.data() + pos, n));
    pos += n;
  }
  sink_->flush();
  EXPECT_EQ(data_.readByteArray(), data);
}

std::string factoryName(const ::testing::TestParamInfo<Factory>& info) {
  return info.param == Factory::kBuffer ? "Buffer" : "BufferedSink";
}

INSTANTIATE_TEST_SUITE_P(Factories, BufferedSinkTest,
                         ::testing::Values(Factory::kBuffer, Factory::kBufferedSink), factoryName);

}  // namespace
}  // namespace tern
