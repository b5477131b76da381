// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#include "tern/buffer.h"

#include <gtest/gtest.h>

#include <cstring>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include "support/io_fakes.h"

namespace tern {
namespace {

constexpr size_t kSeg = Buffer::kSegmentSize;

std::vector<std::byte> randomBytes(size_t size, uint32_t seed) {
  std::mt19937 random(seed);
  std::vector<std::byte> result(size);
  for (auto& b : result) {
    b = static_cast<std::byte>(random() & 0xff);
  }
  return result;
}

// Where each segment's readable bytes start: identity of the memory, to prove moves don't copy.
std::vector<const std::byte*> segmentData(const Buffer& buffer) {
  std::vector<const std::byte*> result;
  for (size_t i = 0; i < buffer.segmentCount(); ++i) {
    result.push_back(buffer.readableSegment(i).data());
  }
  return result;
}

std::vector<size_t> segmentSizes(const Buffer& buffer) {
  std::vector<size_t> result;
  for (size_t i = 0; i < buffer.segmentCount(); ++i) {
    result.push_back(buffer.readableSegment(i).size());
  }
  return result;
}

TEST(BufferTest, NewBufferIsEmptyAndHoldsNoSegments) {
  Buffer buffer;
  EXPECT_EQ(buffer.size(), 0);
  EXPECT_TRUE(buffer.exhausted());
  EXPECT_EQ(buffer.segmentCount(), 0u);
  EXPECT_EQ(buffer.completeSegmentByteCount(), 0);
  EXPECT_EQ(buffer.readUtf8(), "");
}

TEST(BufferTest, WritesAppendAndReadsConsumeInOrder) {
  Buffer buffer;
  buffer.writeUtf8("hello, ").writeUtf8("world");
  EXPECT_EQ(buffer.size(), 12);
  EXPECT_EQ(buffer.readUtf8(5), "hello");
  EXPECT_EQ(buffer.size(), 7);
  EXPECT_EQ(buffer.readUtf8(), ", world");
  EXPECT_EQ(buffer.size(), 0);
}

TEST(BufferTest, WriteRawPointerAndSpan) {
  Buffer buffer;
  const char text[] = "abc";
  buffer.write(text, 3);
  std::byte bytes[] = {std::byte{'d'}, std::byte{'e'}};
  buffer.write(std::span<const std::byte>(bytes));
  buffer.write(nullptr, 0);
  EXPECT_EQ(buffer.readUtf8(), "abcde");
  EXPECT_THROW(buffer.write(nullptr, 1), std::invalid_argument);
}

TEST(BufferTest, LongWritesFillWholeSegments) {
  Buffer buffer;
  buffer.writeUtf8(std::string(kSeg * 2 + 1, 'a'));
  EXPECT_EQ(segmentSizes(buffer), (std::vector<size_t>{kSeg, kSeg, 1}));
  EXPECT_EQ(buffer.completeSegmentByteCount(), static_cast<int64_t>(kSeg * 2));
}

TEST(BufferTest, CompleteSegmentByteCountCountsAFullTail) {
  Buffer buffer;
  buffer.writeUtf8(std::string(kSeg, 'a'));
  EXPECT_EQ(buffer.completeSegmentByteCount(), static_cast<int64_t>(kSeg));
  buffer.writeUtf8("b");
  EXPECT_EQ(buffer.completeSegmentByteCount(), static_cast<int64_t>(kSeg));
}

TEST(BufferTest, MovingWholeSegmentsDoesNotCopyTheirBytes) {
  Buffer source;
  source.writeUtf8(std::string(kSeg * 3, 'x'));
  std::vector<const std::byte*> before = segmentData(source);
  ASSERT_EQ(before.size(), 3u);

  Buffer sink;
  sink.write(source, source.size());

  EXPECT_EQ(segmentData(sink), before);
  EXPECT_EQ(sink.size(), static_cast<int64_t>(kSeg * 3));
  EXPECT_EQ(source.size(), 0);
  EXPECT_EQ(source.segmentCount(), 0u);
}

TEST(BufferTest, MovingAFullSegmentAfterAPartialTailKeepsBothSegments) {
  Buffer sink;
  sink.writeUtf8("head");
  const std::byte* sinkTail = segmentData(sink)[0];
  Buffer source;
  source.writeUtf8(std::string(kSeg, 'y'));
  const std::byte* moved = segmentData(source)[0];

  sink.write(source, static_cast<int64_t>(kSeg));

  EXPECT_EQ(segmentData(sink), (std::vector<const std::byte*>{sinkTail, moved}));
  EXPECT_EQ(sink.readUtf8(4), "head");
  EXPECT_EQ(sink.readUtf8(), std::string(kSeg, 'y'));
}

TEST(BufferTest, MovingASmallPrefixCopiesItAndLeavesTheSegmentInPlace) {
  Buffer source;
  source.writeUtf8(std::string(kSeg, 'a'));
  const std::byte* original = segmentData(source)[0];

  Buffer sink;
  sink.write(source, 100);

  EXPECT_EQ(segmentData(source)[0], original + 100);  // Same memory, 100 bytes consumed.
  EXPECT_EQ(source.size(), static_cast<int64_t>(kSeg - 100));
  EXPECT_NE(segmentData(sink)[0], original + 0);
  EXPECT_EQ(sink.readUtf8(), std::string(100, 'a'));
}

TEST(BufferTest, MovingALargePrefixMovesTheSegmentAndCopiesTheRest) {
  Buffer source;
  source.writeUtf8(std::string(kSeg - 192, 'a') + std::string(192, 'b'));
  const std::byte* original = segmentData(source)[0];

  Buffer sink;
  sink.write(source, static_cast<int64_t>(kSeg - 192));

  EXPECT_EQ(segmentData(sink)[0], original);  // The big part moved without a copy.
  EXPECT_EQ(sink.size(), static_cast<int64_t>(kSeg - 192));
  EXPECT_EQ(source.readUtf8(), std::string(192, 'b'));
  EXPECT_EQ(sink.readUtf8(), std::string(kSeg - 192, 'a'));
}

TEST(BufferTest, MovingBytesThatFitInTheTailCopiesThemThere) {
  Buffer sink;
  sink.writeUtf8("abc");
  Buffer source;
  source.writeUtf8(std::string(kSeg, 'd'));
  sink.write(source, 10);
  EXPECT_EQ(sink.segmentCount(), 1u);
  EXPECT_EQ(sink.readUtf8(), "abc" + std::string(10, 'd'));
}

TEST(BufferTest, MovingSmallSegmentsCompactsThemIntoTheTail) {
  Buffer sink;
  sink.writeUtf8(std::string(3000, 'a'));
  for (int i = 0; i < 5; ++i) {
    Buffer small;
    small.writeUtf8(std::string(1000, static_cast<char>('b' + i)));
    sink.write(small, small.size());
  }
  // 8000 bytes in 6 moves end up in one segment, not six half-empty ones.
  EXPECT_EQ(sink.segmentCount(), 1u);
  EXPECT_EQ(sink.readUtf8(3000), std::string(3000, 'a'));
  EXPECT_EQ(sink.readUtf8(1000), std::string(1000, 'b'));
  EXPECT_EQ(sink.readUtf8(), std::string(1000, 'c') + std::string(1000, 'd') +
                                 std::string(1000, 'e') + std::string(1000, 'f'));
}

TEST(BufferTest, ManySingleByteMovesStayCompact) {
  Buffer sink;
  Buffer source;
  source.writeUtf8(std::string(kSeg * 2, 'z'));
  while (source.size() > 0) {
    sink.write(source, 1);
  }
  EXPECT_EQ(segmentSizes(sink), (std::vector<size_t>{kSeg, kSeg}));
}

TEST(BufferTest, ReadIntoAnotherBufferMovesAtMostByteCount) {
  Buffer source;
  source.writeUtf8("abcdef");
  Buffer sink;
  EXPECT_EQ(source.read(sink, 4), 4);
  EXPECT_EQ(source.read(sink, 100), 2);
  EXPECT_EQ(source.read(sink, 1), -1);
  EXPECT_EQ(sink.readUtf8(), "abcdef");
}

TEST(BufferTest, WriteRejectsItselfAndCountsOutOfRange) {
  Buffer buffer;
  buffer.writeUtf8("abc");
  Buffer other;
  EXPECT_THROW(buffer.write(buffer, 1), std::invalid_argument);
  EXPECT_THROW(other.write(buffer, 4), std::invalid_argument);
  EXPECT_THROW(other.write(buffer, -1), std::invalid_argument);
  EXPECT_THROW(buffer.read(other, -1), std::invalid_argument);
  EXPECT_EQ(buffer.readUtf8(), "abc");
}

TEST(BufferTest, GetByteReadsAnyPositionWithoutConsuming) {
  Buffer buffer;
  buffer.writeUtf8(std::string(kSeg - 1, 'a') + "bc" + std::string(kSeg, 'd') + "e");
  EXPECT_EQ(buffer.getByte(0), std::byte{'a'});
  EXPECT_EQ(buffer.getByte(static_cast<int64_t>(kSeg) - 1), std::byte{'b'});
  EXPECT_EQ(buffer.getByte(static_cast<int64_t>(kSeg)), std::byte{'c'});
  EXPECT_EQ(buffer.getByte(buffer.size() - 1), std::byte{'e'});
  EXPECT_EQ(buffer.getByte(buffer.size() - 2), std::byte{'d'});
  EXPECT_EQ(buffer.size(), static_cast<int64_t>(kSeg * 2 + 2));
  EXPECT_THROW(buffer.getByte(buffer.size()), std::out_of_range);
  EXPECT_THROW(buffer.getByte(-1), std::out_of_range);
}

TEST(BufferTest, CopyToCopiesARangeWithoutConsuming) {
  Buffer source;
  source.writeUtf8(std::string(kSeg, 'a') + "bcd" + std::string(kSeg, 'e'));
  Buffer out;
  out.writeUtf8(">");
  source.copyTo(out, static_cast<int64_t>(kSeg) - 1, 5);
  EXPECT_EQ(out.readUtf8(), ">abcde");
  EXPECT_EQ(source.size(), static_cast<int64_t>(kSeg * 2 + 3));

  source.copyTo(out, source.size() - 2);
  EXPECT_EQ(out.readUtf8(), "ee");
  source.copyTo(out, source.size(), 0);
  EXPECT_EQ(out.size(), 0);
}

TEST(BufferTest, CopyToItselfAppendsACopy) {
  Buffer buffer;
  buffer.writeUtf8("abc");
  buffer.copyTo(buffer, 1, 2);
  EXPECT_EQ(buffer.readUtf8(), "abcbc");
}

TEST(BufferTest, CopyToRejectsRangesOutsideTheBuffer) {
  Buffer buffer;
  buffer.writeUtf8("abc");
  Buffer out;
  EXPECT_THROW(buffer.copyTo(out, 2, 2), std::out_of_range);
  EXPECT_THROW(buffer.copyTo(out, -1, 1), std::out_of_range);
  EXPECT_THROW(buffer.copyTo(out, 0, -1), std::out_of_range);
  EXPECT_THROW(buffer.copyTo(out, 4), std::out_of_range);
  EXPECT_EQ(out.size(), 0);
}

TEST(BufferTest, CopyIsDeepAndIndependent) {
  Buffer original;
  original.writeUtf8(std::string(kSeg + 10, 'q'));
  Buffer copy = original.copy();
  EXPECT_EQ(copy, original);
  EXPECT_NE(segmentData(copy)[0], segmentData(original)[0]);
  copy.skip(5);
  copy.writeUtf8("more");
  EXPECT_EQ(original.size(), static_cast<int64_t>(kSeg + 10));
  EXPECT_EQ(original.readUtf8(), std::string(kSeg + 10, 'q'));
}

TEST(BufferTest, SnapshotReturnsTheBytesWithoutConsuming) {
  Buffer buffer;
  buffer.writeUtf8(std::string(kSeg, 'a')).writeUtf8("z");
  std::vector<std::byte> bytes = buffer.snapshot();
  ASSERT_EQ(bytes.size(), kSeg + 1);
  EXPECT_EQ(bytes.front(), std::byte{'a'});
  EXPECT_EQ(bytes.back(), std::byte{'z'});
  EXPECT_EQ(buffer.size(), static_cast<int64_t>(kSeg + 1));
}

TEST(BufferTest, EqualityComparesContentNotSegmentation) {
  Buffer contiguous;
  contiguous.writeUtf8("abcdef");
  Buffer fragmented;
  testing::OneBytePerSegmentSink fragmenter(fragmented);
  Buffer input;
  input.writeUtf8("abcdef");
  fragmenter.write(input, input.size());
  ASSERT_EQ(fragmented.segmentCount(), 6u);

  EXPECT_EQ(contiguous, fragmented);
  fragmented.skip(1);
  fragmented.writeUtf8("g");
  EXPECT_NE(contiguous, fragmented);  // Same size, different bytes.
  fragmented.skip(1);
  EXPECT_NE(contiguous, fragmented);  // Different size.
  EXPECT_EQ(Buffer(), Buffer());
}

TEST(BufferTest, MoveLeavesTheSourceEmptyAndUsable) {
  Buffer a;
  a.writeUtf8(std::string(kSeg + 1, 'm'));
  const std::byte* data = segmentData(a)[0];
  Buffer b(std::move(a));
  EXPECT_EQ(segmentData(b)[0], data);
  // A moved-from buffer is documented to be empty and usable.
  EXPECT_EQ(a.size(), 0);  // NOLINT(bugprone-use-after-move,clang-analyzer-cplusplus.Move)
  a.writeUtf8("again");    // NOLINT(bugprone-use-after-move,clang-analyzer-cplusplus.Move)
  Buffer c;
  c = std::move(b);
  EXPECT_EQ(c.size(), static_cast<int64_t>(kSeg + 1));
  EXPECT_EQ(a.readUtf8(), "again");
}

TEST(BufferTest, ClearDiscardsEverything) {
  Buffer buffer;
  buffer.writeUtf8(std::string(kSeg * 3, 'c'));
  buffer.clear();
  EXPECT_EQ(buffer.size(), 0);
  EXPECT_EQ(buffer.segmentCount(), 0u);
  buffer.writeUtf8("x");
  EXPECT_EQ(buffer.readUtf8(), "x");
}

TEST(BufferTest, ReadableSegmentsListEveryByteInOrder) {
  Buffer buffer;
  std::vector<std::byte> data = randomBytes(kSeg * 2 + 500, 7);
  buffer.write(std::span<const std::byte>(data));
  buffer.skip(100);
  std::vector<std::byte> joined;
  for (size_t i = 0; i < buffer.segmentCount(); ++i) {
    auto bytes = buffer.readableSegment(i);
    joined.insert(joined.end(), bytes.begin(), bytes.end());
  }
  EXPECT_EQ(joined, std::vector<std::byte>(data.begin() + 100, data.end()));
  EXPECT_THROW(buffer.readableSegment(buffer.segmentCount()), std::out_of_range);
}

TEST(BufferTest, WritableSegmentTakesBytesWrittenInPlace) {
  Buffer buffer;
  std::span<std::byte> space = buffer.writableSegment(1);
  ASSERT_EQ(space.size(), kSeg);
  std::memcpy(space.data(), "hello", 5);
  buffer.commitWrite(5);
  EXPECT_EQ(buffer.size(), 5);

  space = buffer.writableSegment(3);
  EXPECT_EQ(space.size(), kSeg - 5);  // The same segment's remaining room.
  std::memcpy(space.data(), "!!", 2);
  buffer.commitWrite(2);
  EXPECT_EQ(buffer.segmentCount(), 1u);
  EXPECT_EQ(buffer.readUtf8(), "hello!!");
}

TEST(BufferTest, WritableSegmentAppendsASegmentWhenTheTailIsTooFull) {
  Buffer buffer;
  buffer.writeUtf8(std::string(kSeg - 2, 'a'));
  std::span<std::byte> space = buffer.writableSegment(3);
  EXPECT_EQ(space.size(), kSeg);
  space[0] = std::byte{'b'};
  buffer.commitWrite(1);
  EXPECT_EQ(segmentSizes(buffer), (std::vector<size_t>{kSeg - 2, 1}));
}

TEST(BufferTest, CommittingNothingLeavesNoEmptySegment) {
  Buffer buffer;
  buffer.writableSegment(kSeg);
  buffer.commitWrite(0);
  EXPECT_EQ(buffer.segmentCount(), 0u);
  EXPECT_EQ(buffer.size(), 0);

  buffer.writeUtf8("abc");
  buffer.writableSegment(kSeg);  // Appends an empty segment after "abc".
  buffer.commitWrite(0);
  EXPECT_EQ(buffer.segmentCount(), 1u);
  EXPECT_EQ(buffer.readUtf8(), "abc");
}

TEST(BufferTest, WritableSegmentAndCommitRejectBadSizes) {
  Buffer buffer;
  EXPECT_THROW(buffer.writableSegment(0), std::invalid_argument);
  EXPECT_THROW(buffer.writableSegment(kSeg + 1), std::invalid_argument);
  EXPECT_THROW(buffer.commitWrite(1), std::invalid_argument);  // Nothing to commit into.
  std::span<std::byte> space = buffer.writableSegment(1);
  EXPECT_THROW(buffer.commitWrite(space.size() + 1), std::invalid_argument);
  buffer.commitWrite(0);
  EXPECT_EQ(buffer.size(), 0);
}

TEST(BufferTest, WritableSegmentsOfferTheTailsRoomThenNewSegments) {
  Buffer buffer;
  buffer.writeUtf8(std::string(kSeg - 3, 'a'));
  std::span<std::byte> spans[4];
  ASSERT_EQ(buffer.writableSegments(spans, 3 + 2 * kSeg), 3u);
  EXPECT_EQ(spans[0].size(), 3u);
  EXPECT_EQ(spans[1].size(), kSeg);
  EXPECT_EQ(spans[2].size(), kSeg);
  std::memset(spans[0].data(), 'b', 3);
  std::memset(spans[1].data(), 'c', kSeg);
  std::memset(spans[2].data(), 'd', 10);
  buffer.commitWrite(3 + kSeg + 10);  // As a readv() that came up short.
  EXPECT_EQ(segmentSizes(buffer), (std::vector<size_t>{kSeg, kSeg, 10}));
  EXPECT_EQ(buffer.readUtf8(),
            std::string(kSeg - 3, 'a') + "bbb" + std::string(kSeg, 'c') + std::string(10, 'd'));
}

TEST(BufferTest, WritableSegmentsStopAtTheSpansGiven) {
  Buffer buffer;
  std::span<std::byte> spans[2];
  EXPECT_EQ(buffer.writableSegments(spans, 10 * kSeg), 2u);
  buffer.commitWrite(kSeg + 1);
  EXPECT_EQ(segmentSizes(buffer), (std::vector<size_t>{kSeg, 1}));
}

TEST(BufferTest, WritableSegmentsCommittedShortLeaveNoEmptySegments) {
  Buffer buffer;
  buffer.writeUtf8(std::string(kSeg, 'a'));  // A full tail: every span is a new segment.
  std::span<std::byte> spans[3];
  ASSERT_EQ(buffer.writableSegments(spans, 3 * kSeg), 3u);
  EXPECT_THROW(buffer.commitWrite(3 * kSeg + 1), std::invalid_argument);
  buffer.commitWrite(0);
  EXPECT_EQ(segmentSizes(buffer), (std::vector<size_t>{kSeg}));
  ASSERT_EQ(buffer.writableSegments(spans, 3 * kSeg), 3u);
  spans[0][0] = std::byte{'b'};
  buffer.commitWrite(1);
  EXPECT_EQ(segmentSizes(buffer), (std::vector<size_t>{kSeg, 1}));
  EXPECT_THROW(buffer.writableSegments(std::span<std::span<std::byte>>(), 1),
               std::invalid_argument);
  EXPECT_THROW(buffer.writableSegments(spans, 0), std::invalid_argument);
}

TEST(BufferTest, UncommittedEmptySegmentIsDroppedWhenSegmentsMoveIn) {
  Buffer sink;
  sink.writeUtf8(std::string(kSeg, 'a'));
  sink.writableSegment(kSeg);  // Abandoned without commitWrite().
  Buffer source;
  source.writeUtf8(std::string(kSeg, 'b'));
  sink.write(source, source.size());
  EXPECT_EQ(segmentSizes(sink), (std::vector<size_t>{kSeg, kSeg}));
  EXPECT_EQ(sink.readUtf8(), std::string(kSeg, 'a') + std::string(kSeg, 'b'));
}

TEST(BufferTest, BufferIsABufferedSourceAndSinkWithNoTimeout) {
  Buffer buffer;
  BufferedSink& sink = buffer;
  BufferedSource& source = buffer;
  sink.writeUtf8("abc").writeInt(42);
  EXPECT_EQ(source.readUtf8(3), "abc");
  EXPECT_EQ(source.readInt(), 42);
  EXPECT_EQ(&buffer.timeout(), &Timeout::none());
  EXPECT_EQ(&source.buffer(), &buffer);
  buffer.flush();
  buffer.close();
  buffer.writeUtf8("still open");
  EXPECT_EQ(buffer.readUtf8(), "still open");
}

TEST(BufferTest, SeveralMebibytesRoundTripThroughWritesOfVaryingSize) {
  std::vector<std::byte> data = randomBytes(size_t{5} * 1024 * 1024 + 123, 42);
  Buffer buffer;
  std::mt19937 random(1);
  for (size_t pos = 0; pos < data.size();) {
    size_t n = std::min<size_t>(data.size() - pos, random() % (3 * kSeg) + 1);
    buffer.write(data.data() + pos, n);
    pos += n;
  }
  EXPECT_EQ(buffer.size(), static_cast<int64_t>(data.size()));
  EXPECT_EQ(buffer.readByteArray(), data);
}

TEST(BufferTest, SeveralMebibytesSurviveRandomMovesBetweenBuffers) {
  std::vector<std::byte> data = randomBytes(size_t{4} * 1024 * 1024, 99);
  Buffer a;
  a.write(std::span<const std::byte>(data));
  Buffer b;
  Buffer c;
  std::mt19937 random(2);
  // a → b → c in random-sized steps, so segments are moved, divided and compacted.
  while (a.size() > 0 || b.size() > 0) {
    if (a.size() > 0) {
      b.write(a, std::min<int64_t>(a.size(), random() % (2 * kSeg) + 1));
    }
    if (b.size() > 0) {
      c.write(b, std::min<int64_t>(b.size(), random() % (2 * kSeg) + 1));
    }
  }
  EXPECT_EQ(c.size(), static_cast<int64_t>(data.size()));
  // Compaction keeps memory bounded: at most about one partial segment per move of a segment.
  EXPECT_LE(c.segmentCount(), data.size() / kSeg * 2 + 2);
  EXPECT_EQ(c.snapshot(), data);
}

TEST(BufferTest, InterleavedWritesAndReadsKeepFifoOrderAcrossManySegments) {
  Buffer buffer;
  std::mt19937 random(3);
  int64_t next = 0;
  for (int round = 0; round < 2000; ++round) {
    int count = static_cast<int>(random() % 1000);
    for (int i = 0; i < count; ++i) {
      buffer.writeLong(next++);
    }
    int64_t reads = std::min<int64_t>(buffer.size() / 8, random() % 900);
    for (int64_t i = 0; i < reads; ++i) {
      int64_t expected = next - buffer.size() / 8;
      ASSERT_EQ(buffer.readLong(), expected);
    }
  }
  while (buffer.size() > 0) {
    int64_t expected = next - buffer.size() / 8;
    ASSERT_EQ(buffer.readLong(), expected);
  }
}

}  // namespace
}  // namespace tern
