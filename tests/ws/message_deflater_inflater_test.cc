// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#include <gtest/gtest.h>
#include <sys/resource.h>

#include <string>

#include "io/hex.h"
#include "support/sanitizers.h"
#include "tern/exceptions.h"
#include "ws/message_deflater.h"
#include "ws/message_inflater.h"
#include "ws/web_socket_protocol.h"
#include "ws/ws_test_util.h"

namespace tern::internal {
namespace {

using wstest::bufferOf;
using wstest::bufferOfHex;

constexpr int64_t kMax = 16 * 1024 * 1024;

std::string deflateHex(MessageDeflater& deflater, std::string_view text) {
  Buffer buffer = bufferOf(text);
  deflater.deflate(buffer);
  return hex(buffer);
}

std::string inflate(MessageInflater& inflater, Buffer buffer, int64_t maxSize = kMax) {
  inflater.inflate(buffer, maxSize);
  return buffer.readUtf8();
}

std::string repeat(std::string_view s, int n) {
  std::string out;
  for (int i = 0; i < n; ++i) out += s;
  return out;
}

TEST(MessageDeflaterInflaterTest, Rfc7692HelloExamples) {
  // RFC 7692 §7.2.3.1 and §7.2.3.2: "Hello" once, then again with the window kept.
  MessageDeflater deflater(false);
  EXPECT_EQ(deflateHex(deflater, "Hello"), "f248cdc9c90700");
  EXPECT_EQ(deflateHex(deflater, "Hello"), "f200110000");

  MessageInflater inflater(false);
  EXPECT_EQ(inflate(inflater, bufferOfHex("f248cdc9c90700")), "Hello");
  EXPECT_EQ(inflate(inflater, bufferOfHex("f200110000")), "Hello");
}

TEST(MessageDeflaterInflaterTest, Rfc7692OtherExamples) {
  MessageInflater inflater(true);
  // §7.2.3.3: a DEFLATE block with no compression.
  EXPECT_EQ(inflate(inflater, bufferOfHex("0005 00faff48656c6c6f00")), "Hello");
  // §7.2.3.4: BFINAL set; the rest of the message is unreachable and dropped.
  EXPECT_EQ(inflate(inflater, bufferOfHex("f348cdc9c90700")), "Hello");
  // §7.2.3.5: two DEFLATE blocks in one message.
  EXPECT_EQ(inflate(inflater, bufferOfHex("f24805000000ffffcac9c90700")), "Hello");
}

TEST(MessageDeflaterInflaterTest, NoContextTakeoverCompressesEachMessageAlike) {
  MessageDeflater deflater(true);
  EXPECT_EQ(deflateHex(deflater, "Hello"), "f248cdc9c90700");
  EXPECT_EQ(deflateHex(deflater, "Hello"), "f248cdc9c90700");
  MessageInflater inflater(true);
  EXPECT_EQ(inflate(inflater, bufferOfHex("f248cdc9c90700")), "Hello");
  EXPECT_EQ(inflate(inflater, bufferOfHex("f248cdc9c90700")), "Hello");
}

TEST(MessageDeflaterInflaterTest, InflaterWithoutContextTakeoverForgetsTheWindow) {
  // The second message refers back to the first; an inflater that reset its window cannot read it.
  MessageInflater inflater(true);
  EXPECT_EQ(inflate(inflater, bufferOfHex("f248cdc9c90700")), "Hello");
  try {
    inflate(inflater, bufferOfHex("f200110000"));
    FAIL() << "expected a DEFLATE error";
  } catch (const WebSocketProtocolException& e) {
    EXPECT_EQ(e.closeCode(), ws::kCloseProtocolError);
  }
}

TEST(MessageDeflaterInflaterTest, GoldenValues) {
  MessageInflater inflater(false);
  EXPECT_EQ(inflate(inflater, bufferOfHex("f248cdc9c957c8cc4bcb492cc9cccf530400")),
            "Hello inflation!");
  MessageDeflater deflater(false);
  EXPECT_EQ(deflateHex(deflater, "Hello deflate!"), "f248cdc9c95748494dcb492c49550400");
}

TEST(MessageDeflaterInflaterTest, InflateStopsAtAFinalBlockBeforeTheInputEnds) {
  // OkHttp #8078: a self-finishing stream must not loop forever.
  MessageInflater inflater(false);
  Buffer buffer = bufferOfHex("53621260020000");
  inflater.inflate(buffer, kMax);
  EXPECT_EQ(hex(buffer), "22021002");
}

TEST(MessageDeflaterInflaterTest, TrailingDataAfterAFinalBlockIsDropped) {
  // OkHttp #8551: the final block, then junk (a segment of zeros); the next message still reads.
  MessageInflater inflater(false);
  Buffer buffer = bufferOfHex("f348cdc9c90700");
  buffer.writeUtf8(std::string(Buffer::kSegmentSize, '\0'));
  EXPECT_EQ(inflate(inflater, std::move(buffer)), "Hello");
  EXPECT_EQ(inflate(inflater, bufferOfHex("f248cdc9c90700")), "Hello");
}

TEST(MessageDeflaterInflaterTest, RoundTripWithContextTakeoverShrinksTheSecondMessage) {
  MessageDeflater deflater(false);
  MessageInflater inflater(false);
  const std::string one = repeat("Hello deflate!", 100);
  const std::string two = repeat("Hello deflate?", 100);
  Buffer d1 = bufferOf(one);
  deflater.deflate(d1);
  EXPECT_LT(d1.size(), static_cast<int64_t>(one.size()));
  const int64_t d1Size = d1.size();
  EXPECT_EQ(inflate(inflater, std::move(d1)), one);
  Buffer d2 = bufferOf(two);
  deflater.deflate(d2);
  EXPECT_LT(d2.size(), d1Size);
  EXPECT_EQ(inflate(inflater, std::move(d2)), two);
}

TEST(MessageDeflaterInflaterTest, RoundTripWithNoContextTakeoverRepeatsTheSameBytes) {
  MessageDeflater deflater(true);
  MessageInflater inflater(true);
  const std::string text = repeat("Hello deflate!", 100);
  const std::string first = deflateHex(deflater, text);
  EXPECT_EQ(deflateHex(deflater, text), first);
  EXPECT_EQ(inflate(inflater, bufferOfHex(first)), text);
  EXPECT_EQ(inflate(inflater, bufferOfHex(first)), text);
}

TEST(MessageDeflaterInflaterTest, EmptyMessageIsOneZeroByte) {
  // RFC 7692 §7.2.3.6.
  MessageDeflater deflater(false);
  EXPECT_EQ(deflateHex(deflater, ""), "00");
  MessageInflater inflater(false);
  EXPECT_EQ(inflate(inflater, bufferOfHex("00")), "");
  // An empty payload too (some peers send nothing at all).
  EXPECT_EQ(inflate(inflater, Buffer()), "");
}

TEST(MessageDeflaterInflaterTest, EmptyMessagesAfterOthersWithTheWindowKept) {
  // zlib writes nothing for a flush right after a flush; the message must still be one 0x00
  // (found by message_inflater_fuzzer).
  MessageDeflater deflater(false);
  MessageInflater inflater(false);
  EXPECT_EQ(deflateHex(deflater, "Hello"), "f248cdc9c90700");
  EXPECT_EQ(deflateHex(deflater, ""), "00");
  EXPECT_EQ(deflateHex(deflater, ""), "00");
  EXPECT_EQ(deflateHex(deflater, "Hello"), "f200110000");
  EXPECT_EQ(inflate(inflater, bufferOfHex("f248cdc9c90700")), "Hello");
  EXPECT_EQ(inflate(inflater, bufferOfHex("00")), "");
  EXPECT_EQ(inflate(inflater, bufferOfHex("00")), "");
  EXPECT_EQ(inflate(inflater, bufferOfHex("f200110000")), "Hello");
}

TEST(MessageDeflaterInflaterTest, LargeRandomishMessagesOverManySegmentsRoundTrip) {
  MessageDeflater deflater(false);
  MessageInflater inflater(false);
  std::string text;
  uint32_t x = 12345;
  for (int i = 0; i < 300000; ++i) {
    x = x * 1103515245 + 12345;
    text.push_back(static_cast<char>('a' + (x >> 16) % 7));
  }
  for (int round = 0; round < 3; ++round) {
    Buffer buffer = bufferOf(text);
    deflater.deflate(buffer);
    EXPECT_EQ(inflate(inflater, std::move(buffer)), text);
  }
}

TEST(MessageDeflaterInflaterTest, InflatedSizeLimitIsExact) {
  MessageDeflater deflater(false);
  const std::string text(10000, 'x');
  Buffer deflated = bufferOf(text);
  deflater.deflate(deflated);
  MessageInflater ok(false);
  EXPECT_EQ(inflate(ok, deflated.copy(), 10000), text);
  MessageInflater tooSmall(false);
  try {
    inflate(tooSmall, deflated.copy(), 9999);
    FAIL() << "expected 1009";
  } catch (const WebSocketProtocolException& e) {
    EXPECT_EQ(e.closeCode(), ws::kCloseMessageTooBig);
    EXPECT_STREQ(e.what(), "message inflated past 9999 bytes");
  }
}

int64_t maxRssKiB() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  return usage.ru_maxrss;
}

TEST(MessageDeflaterInflaterTest, DecompressionBombFailsWith1009HoldingLittleMemory) {
  // 1 GiB of zeros, about 1 MiB compressed. Inflating it whole would need a gigabyte; the
  // inflater must stop just past the 16 MiB limit. The peak RSS of the process (which only ever
  // grows) shows any gigabyte held, whatever earlier tests held.
  const std::string bomb = wstest::deflatedZeros(int64_t{1} << 30);
  ASSERT_LT(bomb.size(), 2U << 20);
  const int64_t before = maxRssKiB();
  MessageInflater inflater(false);
  try {
    inflate(inflater, bufferOf(bomb));
    FAIL() << "expected 1009";
  } catch (const WebSocketProtocolException& e) {
    EXPECT_EQ(e.closeCode(), ws::kCloseMessageTooBig);
  }
  if (!tern::testing::kSanitizedAllocator) {  // Shadow memory makes the figure meaningless.
    EXPECT_LT(maxRssKiB() - before, 64 * 1024) << "KiB of peak RSS added by the inflation";
  }
}

TEST(MessageDeflaterInflaterTest, InvalidDeflateDataIs1002) {
  MessageInflater inflater(false);
  try {
    inflate(inflater, bufferOfHex("ffffffff"));  // BTYPE 11 is reserved.
    FAIL() << "expected 1002";
  } catch (const WebSocketProtocolException& e) {
    EXPECT_EQ(e.closeCode(), ws::kCloseProtocolError);
    EXPECT_NE(std::string(e.what()).find("invalid DEFLATE data"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace tern::internal
