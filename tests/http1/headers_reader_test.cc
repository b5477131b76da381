// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#include "http1/headers_reader.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>

#include "support/io_fakes.h"
#include "tern/buffer.h"
#include "tern/exceptions.h"

namespace tern::internal {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::Pair;
using namespace std::string_literals;

Headers readHeaders(std::string_view bytes) {
  Buffer source;
  source.writeUtf8(bytes);
  HeadersReader reader(source);
  return reader.readHeaders();
}

TEST(HeadersReaderTest, ReadsFieldsUntilTheEmptyLineAndLeavesTheRest) {
  Buffer source;
  source.writeUtf8("A: 1\r\nB: 2\r\na: 3\r\n\r\nbody");
  HeadersReader reader(source);
  Headers headers = reader.readHeaders();
  EXPECT_THAT(headers, ElementsAre(Pair("A", "1"), Pair("B", "2"), Pair("a", "3")));
  EXPECT_THAT(headers.values("a"), ElementsAre("1", "3"));
  EXPECT_EQ(source.readUtf8(), "body");
}

TEST(HeadersReaderTest, AcceptsBareLineFeeds) {
  EXPECT_THAT(readHeaders("A: 1\nB: 2\n\n"), ElementsAre(Pair("A", "1"), Pair("B", "2")));
}

TEST(HeadersReaderTest, ReadsLinesLeniently) {
  // No space after the colon, surrounding whitespace, obs-text, a colon in the value, and the
  // odd lines old caches wrote.
  Headers headers =
      readHeaders("A:1\r\nB:   2  \r\nC: caf\xc3\xa9\r\nD: x:y\r\n:e: 5\r\nno colon\r\n\r\n");
  EXPECT_THAT(headers, ElementsAre(Pair("A", "1"), Pair("B", "2"), Pair("C", "caf\xc3\xa9"),
                                   Pair("D", "x:y"), Pair(":e", "5"), Pair("", "no colon")));
}

TEST(HeadersReaderTest, JoinsObsFoldedLinesWithOneSpace) {
  Headers headers = readHeaders("A: one \r\n  two\r\n\tthree\r\nB: 2\r\n\r\n");
  EXPECT_THAT(headers, ElementsAre(Pair("A", "one two three"), Pair("B", "2")));
}

TEST(HeadersReaderTest, ReadsLinesLongerThanItsInlineLineBuffer) {
  std::string longValue(1000, 'v');
  Headers headers =
      readHeaders("A: " + longValue + "\r\nB: 2\r\nC: short\r\n  " + longValue + "\r\n\r\n");
  EXPECT_THAT(headers,
              ElementsAre(Pair("A", longValue), Pair("B", "2"), Pair("C", "short " + longValue)));
}

// RFC 9110 §5.5: a NUL or a bare CR in a received field value rejects the message, naming the
// field; a credential's value is not echoed.
TEST(HeadersReaderTest, NulOrBareCrInAFieldIsAProtocolException) {
  try {
    readHeaders("A: 1\r\nX-Bad: a\0b\r\n\r\n"s);
    FAIL() << "expected ProtocolException";
  } catch (const ProtocolException& e) {
    EXPECT_STREQ(e.what(), "Unexpected char 0x00 at 1 in received header X-Bad: a\\x00b");
  }
  try {
    readHeaders("Set-Cookie: a\rb=secret\r\n\r\n");
    FAIL() << "expected ProtocolException";
  } catch (const ProtocolException& e) {
    EXPECT_STREQ(e.what(), "Unexpected char 0x0d at 1 in received header Set-Cookie");
  }
  // In a folded continuation too.
  EXPECT_THROW(readHeaders("A: one\r\n t\0wo\r\n\r\n"s), ProtocolException);
}

TEST(HeadersReaderTest, ReadLineReturnsTheLineWithoutItsTerminator) {
  Buffer source;
  source.writeUtf8("HTTP/1.1 200 OK\r\nA: 1\n\r\n");
  HeadersReader reader(source);
  EXPECT_EQ(reader.readLine(), "HTTP/1.1 200 OK");
  EXPECT_EQ(reader.readLine(), "A: 1");
  EXPECT_EQ(reader.readLine(), "");
  EXPECT_EQ(reader.remaining(), HeadersReader::kHeaderLimit - 19);
}

TEST(HeadersReaderTest, IgnoresWhitespaceLinesBeforeTheFirstField) {
  EXPECT_THAT(readHeaders(" Injected: 1\r\nA: 1\r\n\r\n"), ElementsAre(Pair("A", "1")));
}

TEST(HeadersReaderTest, EndOfStreamBeforeTheEmptyLineThrowsEofException) {
  EXPECT_THROW(readHeaders("A: 1\r\nB: 2\r\n"), EOFException);
  EXPECT_THROW(readHeaders("A: 1\r\nB: 2"), EOFException);
  EXPECT_THROW(readHeaders(""), EOFException);
}

TEST(HeadersReaderTest, HeadersOfExactlyTheLimitPass) {
  // 256 KiB of line content, terminators excluded, is allowed.
  std::string name = "X: ";
  std::string line = name + std::string(HeadersReader::kHeaderLimit - name.size(), 'a');
  Buffer source;
  source.writeUtf8(line + "\r\n\r\n");
  HeadersReader reader(source);
  Headers headers = reader.readHeaders();
  EXPECT_EQ(headers.value(0).size(), HeadersReader::kHeaderLimit - name.size());
  EXPECT_EQ(reader.remaining(), 0);
}

TEST(HeadersReaderTest, HeadersOneByteOverTheLimitThrowProtocolException) {
  std::string line = "X: " + std::string(HeadersReader::kHeaderLimit - 3 + 1, 'a');
  try {
    readHeaders(line + "\r\n\r\n");
    FAIL() << "expected ProtocolException";
  } catch (const ProtocolException& e) {
    EXPECT_THAT(e.what(), HasSubstr("262144 byte limit"));
  }
}

TEST(HeadersReaderTest, TheLimitCoversEveryLineOfTheExchange) {
  // Many small fields add up: the budget is shared, so 300 KiB in 1 KiB lines fails.
  std::string block;
  for (int i = 0; i < 300; ++i) {
    block += "X-" + std::to_string(i) + ": " + std::string(1000, 'v') + "\r\n";
  }
  EXPECT_THROW(readHeaders(block + "\r\n"), ProtocolException);

  Buffer source;
  source.writeUtf8("HTTP/1.1 200 OK\r\nA: 1\r\n\r\n");
  HeadersReader reader(source, 20);
  EXPECT_EQ(reader.readLine(), "HTTP/1.1 200 OK");
  EXPECT_EQ(reader.remaining(), 5);
  EXPECT_THAT(reader.readHeaders(), ElementsAre(Pair("A", "1")));
  EXPECT_EQ(reader.remaining(), 1);
}

TEST(HeadersReaderTest, NeverBuffersPastTheLimitOfAnEndlessLine) {
  testing::EndlessSource endless('a');
  std::unique_ptr<BufferedSource> source = tern::buffer(endless);
  HeadersReader reader(*source);
  EXPECT_THROW(reader.readLine(), ProtocolException);
  EXPECT_LT(endless.bytesProduced(), HeadersReader::kHeaderLimit + int64_t{64} * 1024);
}

TEST(HeadersReaderTest, ALineCutShortAtTheLimitIsAnEarlyEndNotAnOversizedLine) {
  Buffer source;
  source.writeUtf8("abcd\r");
  HeadersReader reader(source, 4);
  EXPECT_THROW(reader.readLine(), EOFException);
}

TEST(HeadersReaderTest, ReadsHeadersSplitAcrossOneByteReads) {
  Buffer data;
  data.writeUtf8("Content-Type: text/plain\r\nContent-Length: 3\r\n\r\n");
  testing::TrickleSource trickle(data, 1);
  std::unique_ptr<BufferedSource> source = tern::buffer(trickle);
  HeadersReader reader(*source);
  EXPECT_THAT(reader.readHeaders(),
              ElementsAre(Pair("Content-Type", "text/plain"), Pair("Content-Length", "3")));
}

}  // namespace
}  // namespace tern::internal
