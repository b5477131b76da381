// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#include "io/real_buffered_sink.h"

#include <gtest/gtest.h>

#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "support/io_fakes.h"
#include "tern/buffer.h"
#include "tern/exceptions.h"

namespace tern::internal {

namespace {

constexpr int64_t kSeg = static_cast<int64_t>(Buffer::kSegmentSize);

std::string repeat(char c, int64_t n) { return std::string(static_cast<size_t>(n), c); }

TEST(RealBufferedSinkTest, HoldsBytesUntilASegmentIsComplete) {
  testing::RecordingSink out;
  std::unique_ptr<BufferedSink> sink = tern::buffer(out);
  sink->writeUtf8(repeat('a', kSeg - 1));
  EXPECT_TRUE(out.log().empty());
  sink->writeUtf8("a");
  EXPECT_EQ(out.log(), std::vector<std::string>{"write(8192)"});
  EXPECT_EQ(sink->buffer().size(), 0);
}

TEST(RealBufferedSinkTest, SendsAVeryLargeWriteDownstreamInPiecesOfEightSegments) {
  testing::RecordingSink out;
  std::unique_ptr<BufferedSink> sink = tern::buffer(out);
  std::string bytes;
  for (int64_t i = 0; i < kSeg * 20 + 5; ++i) bytes += static_cast<char>('a' + i % 26);
  sink->writeUtf8(bytes);
  // Never more than 8 segments held: the body's segments are reused rather than all allocated.
  EXPECT_EQ(out.log(), (std::vector<std::string>{"write(65536)", "write(65536)", "write(32768)"}));
  EXPECT_EQ(sink->buffer().size(), 5);
  sink->flush();
  EXPECT_EQ(out.data().readUtf8(), bytes);
}

TEST(RealBufferedSinkTest, EmitsOnlyCompleteSegmentsOfALargeWrite) {
  testing::RecordingSink out;
  std::unique_ptr<BufferedSink> sink = tern::buffer(out);
  sink->writeUtf8(repeat('a', kSeg * 2 + 10));
  EXPECT_EQ(out.log(), std::vector<std::string>{"write(16384)"});
  EXPECT_EQ(sink->buffer().size(), 10);
}

TEST(RealBufferedSinkTest, EmitWritesEverythingWithoutFlushing) {
  testing::RecordingSink out;
  std::unique_ptr<BufferedSink> sink = tern::buffer(out);
  sink->writeUtf8("abc").emit();
  sink->emit();  // Nothing left: no empty write.
  EXPECT_EQ(out.log(), std::vector<std::string>{"write(3)"});
}

TEST(RealBufferedSinkTest, FlushWritesThenFlushes) {
  testing::RecordingSink out;
  std::unique_ptr<BufferedSink> sink = tern::buffer(out);
  sink->writeUtf8("abc");
  sink->flush();
  sink->flush();
  EXPECT_EQ(out.log(), (std::vector<std::string>{"write(3)", "flush()", "flush()"}));
  EXPECT_EQ(out.data().readUtf8(), "abc");
}

TEST(RealBufferedSinkTest, CloseWritesBufferedBytesThenCloses) {
  testing::RecordingSink out;
  std::unique_ptr<BufferedSink> sink = tern::buffer(out);
  sink->writeUtf8("abc");
  sink->close();
  sink->close();  // Harmless.
  EXPECT_EQ(out.log(), (std::vector<std::string>{"write(3)", "close()"}));
}

TEST(RealBufferedSinkTest, CloseStillClosesWhenTheFinalWriteFails) {
  testing::RecordingSink out;
  std::unique_ptr<BufferedSink> sink = tern::buffer(out);
  sink->writeUtf8("abc");
  out.failNext("disk full");
  try {
    sink->close();
    FAIL() << "expected IOException";
  } catch (const IOException& e) {
    EXPECT_STREQ(e.what(), "disk full");
  }
  EXPECT_EQ(out.log(), (std::vector<std::string>{"write(3)", "close()"}));
}

TEST(RealBufferedSinkTest, WritingAfterCloseThrowsLogicError) {
  testing::RecordingSink out;
  std::unique_ptr<BufferedSink> sink = tern::buffer(out);
  sink->close();
  EXPECT_THROW(sink->writeUtf8("x"), std::logic_error);
  EXPECT_THROW(sink->flush(), std::logic_error);
  EXPECT_THROW(sink->emit(), std::logic_error);
  Buffer source;
  source.writeUtf8("y");
  EXPECT_THROW(sink->write(source, 1), std::logic_error);
  EXPECT_EQ(out.log(), std::vector<std::string>{"close()"});
}

TEST(RealBufferedSinkTest, DestroyingWithoutFlushDropsBufferedBytes) {
  testing::RecordingSink out;
  tern::buffer(out)->writeUtf8("lost");
  EXPECT_TRUE(out.log().empty());
}

TEST(RealBufferedSinkTest, OwnsAndClosesAnOwnedSink) {
  auto recording = std::make_unique<testing::RecordingSink>();
  testing::RecordingSink& out = *recording;
  std::unique_ptr<BufferedSink> sink = tern::buffer(std::move(recording));
  sink->writeUtf8("x");
  sink->close();
  EXPECT_EQ(out.log(), (std::vector<std::string>{"write(1)", "close()"}));
  EXPECT_THROW(tern::buffer(std::unique_ptr<Sink>()), std::invalid_argument);
}

TEST(RealBufferedSinkTest, TimeoutIsTheUnderlyingSinksTimeout) {
  testing::RecordingSink out;
  std::unique_ptr<BufferedSink> sink = tern::buffer(out);
  EXPECT_EQ(&sink->timeout(), &out.timeout());
}

TEST(RealBufferedSinkTest, FullSegmentsPassThroughWithoutCopying) {
  Buffer destination;
  std::unique_ptr<BufferedSink> sink = tern::buffer(static_cast<Sink&>(destination));
  Buffer source;
  source.writeUtf8(repeat('z', kSeg * 2));
  const std::byte* first = source.readableSegment(0).data();
  const std::byte* second = source.readableSegment(1).data();
  sink->write(source, source.size());
  ASSERT_EQ(destination.segmentCount(), 2u);
  EXPECT_EQ(destination.readableSegment(0).data(), first);
  EXPECT_EQ(destination.readableSegment(1).data(), second);
}

}  // namespace
}  // namespace tern::internal
