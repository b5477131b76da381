// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#include "io/real_buffered_source.h"

#include <gtest/gtest.h>

#include <memory>
#include <stdexcept>
#include <string>

#include "support/io_fakes.h"
#include "tern/buffer.h"
#include "tern/exceptions.h"

namespace tern::internal {

namespace {

constexpr int64_t kSeg = static_cast<int64_t>(Buffer::kSegmentSize);

std::string repeat(char c, int64_t n) { return std::string(static_cast<size_t>(n), c); }

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
}  // namespace tern::internal
