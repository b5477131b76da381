// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
// ServerSentEventReader: OkHttp's ServerSentEventIteratorTest, plus the WHATWG rules OkHttp does
// not follow (the ID of an event without data, a CR ending a read, a BOM, invalid UTF-8) and the
// size limit.
#include "sse/server_sent_event_reader.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <deque>
#include <string>
#include <variant>
#include <vector>

#include "support/io_fakes.h"
#include "tern/buffer.h"
#include "tern/exceptions.h"

namespace tern::testing {
namespace {

using internal::EventSizeLimitException;
using internal::ServerSentEventReader;
using ::testing::HasSubstr;

struct Event {
  std::optional<std::string> id;
  std::optional<std::string> type;
  std::string data;
  bool operator==(const Event&) const = default;
};

void PrintTo(const Event& e, std::ostream* os) {
  *os << "Event{id=" << e.id.value_or("null") << ", type=" << e.type.value_or("null") << ", data=\""
      << e.data << "\")";
}

Event ev(std::optional<std::string> id, std::optional<std::string> type, std::string data) {
  return Event{std::move(id), std::move(type), std::move(data)};
}

// Either an event or a retry change, in the order they came.
using Item = std::variant<Event, int64_t>;

class Recorder final : public ServerSentEventReader::Callback {
 public:
  void onEvent(const std::optional<std::string>& id, const std::optional<std::string>& type,
               const std::string& data) override {
    items.emplace_back(ev(id, type, data));
  }
  void onRetryChange(std::chrono::milliseconds retry) override {
    items.emplace_back(static_cast<int64_t>(retry.count()));
  }
  std::vector<Item> items;
};

// A source that returns `chunks` one per read, then fails: a read the reader should not need
// (waiting for the byte after a CR) shows as an IOException instead of a hang.
class ScriptedSource final : public Source {
 public:
  explicit ScriptedSource(std::deque<std::string> chunks) : chunks_(std::move(chunks)) {}
  int64_t read(Buffer& sink, int64_t) override {
    if (chunks_.empty()) throw IOException("read past the script");
    std::string chunk = std::move(chunks_.front());
    chunks_.pop_front();
    sink.writeUtf8(chunk);
    return static_cast<int64_t>(chunk.size());
  }
  Timeout& timeout() override { return timeout_; }
  void close() override {}

 private:
  std::deque<std::string> chunks_;
  Timeout timeout_;
};

class ServerSentEventReaderTest : public ::testing::Test {
 protected:
  // Reads all of `text`, delivered `bytesPerRead` bytes at a time, and returns what was
  // reported; checks that every byte was consumed.
  std::vector<Item> consume(std::string_view text, int64_t bytesPerRead = 1 << 20,
                            int64_t limit = ServerSentEventReader::kDefaultLimit) {
    Buffer data;
    data.writeUtf8(text);
    TrickleSource trickle(data, bytesPerRead);
    std::unique_ptr<BufferedSource> source = buffer(static_cast<Source&>(trickle));
    Recorder recorder;
    ServerSentEventReader reader(*source, recorder, {}, limit);
    while (reader.processNextEvent()) {
    }
    EXPECT_EQ(source->buffer().size(), 0) << "unconsumed";
    EXPECT_EQ(data.size(), 0) << "unread";
    lastEventId = reader.lastEventId();
    return recorder.items;
  }

  // consume() with every read size from 1 byte to the whole text: the result must not depend on
  // how the stream was split.
  std::vector<Item> consumeSplitEveryWay(std::string_view text) {
    std::vector<Item> whole = consume(text);
    for (int64_t n = 1; n < static_cast<int64_t>(text.size()); ++n) {
      EXPECT_EQ(consume(text, n), whole) << "reads of " << n << " bytes";
    }
    return whole;
  }

  std::string lastEventId;
};

TEST_F(ServerSentEventReaderTest, Multiline) {
  EXPECT_EQ(consumeSplitEveryWay("data: YHOO\ndata: +2\ndata: 10\n\n"),
            std::vector<Item>{ev(std::nullopt, std::nullopt, "YHOO\n+2\n10")});
}

TEST_F(ServerSentEventReaderTest, MultilineCr) {
  EXPECT_EQ(consumeSplitEveryWay("data: YHOO\rdata: +2\rdata: 10\r\r"),
            std::vector<Item>{ev(std::nullopt, std::nullopt, "YHOO\n+2\n10")});
}

TEST_F(ServerSentEventReaderTest, MultilineCrLf) {
  EXPECT_EQ(consumeSplitEveryWay("data: YHOO\r\ndata: +2\r\ndata: 10\r\n\r\n"),
            std::vector<Item>{ev(std::nullopt, std::nullopt, "YHOO\n+2\n10")});
}

TEST_F(ServerSentEventReaderTest, MixedLineEnds) {
  EXPECT_EQ(consumeSplitEveryWay("data: a\rdata: b\ndata: c\r\n\ndata: d\n\r\n"),
            (std::vector<Item>{ev(std::nullopt, std::nullopt, "a\nb\nc"),
                               ev(std::nullopt, std::nullopt, "d")}));
}

TEST_F(ServerSentEventReaderTest, EventType) {
  EXPECT_EQ(
      consume("event: add\ndata: 73857293\n\nevent: remove\ndata: 2153\n\n"
              "event: add\ndata: 113411\n\n"),
      (std::vector<Item>{ev(std::nullopt, "add", "73857293"), ev(std::nullopt, "remove", "2153"),
                         ev(std::nullopt, "add", "113411")}));
}

TEST_F(ServerSentEventReaderTest, EventTypeResetAfterDispatch) {
  EXPECT_EQ(consume("event: add\ndata: 1\n\ndata: 2\n\n"),
            (std::vector<Item>{ev(std::nullopt, "add", "1"), ev(std::nullopt, std::nullopt, "2")}));
}

TEST_F(ServerSentEventReaderTest, EventTypeOfAnEventWithoutDataIsDropped) {
  EXPECT_EQ(consume("event: add\n\ndata: 2\n\n"),
            std::vector<Item>{ev(std::nullopt, std::nullopt, "2")});
}

TEST_F(ServerSentEventReaderTest, CommentsIgnored) {
  EXPECT_EQ(consume(": test stream\n\ndata: first event\nid: 1\n\n"),
            std::vector<Item>{ev("1", std::nullopt, "first event")});
}

TEST_F(ServerSentEventReaderTest, IdCleared) {
  EXPECT_EQ(consume("data: first event\nid: 1\n\ndata: second event\nid\n\n"
                    "data: third event\n\n"),
            (std::vector<Item>{ev("1", std::nullopt, "first event"),
                               ev(std::nullopt, std::nullopt, "second event"),
                               ev(std::nullopt, std::nullopt, "third event")}));
  EXPECT_EQ(lastEventId, "");
}

TEST_F(ServerSentEventReaderTest, NakedFieldNames) {
  EXPECT_EQ(consume("data\n\ndata\ndata\n\ndata:\n"),
            (std::vector<Item>{ev(std::nullopt, std::nullopt, ""),
                               ev(std::nullopt, std::nullopt, "\n")}));
}

TEST_F(ServerSentEventReaderTest, ColonSpaceOptional) {
  EXPECT_EQ(consume("data:test\n\ndata: test\n\n"),
            (std::vector<Item>{ev(std::nullopt, std::nullopt, "test"),
                               ev(std::nullopt, std::nullopt, "test")}));
}

TEST_F(ServerSentEventReaderTest, OnlyOneLeadingSpaceIsDropped) {
  EXPECT_EQ(consume("data:  test \n\n"),
            std::vector<Item>{ev(std::nullopt, std::nullopt, " test ")});
}

TEST_F(ServerSentEventReaderTest, ValueMayHoldColons) {
  EXPECT_EQ(consume("data: a: b:c\n\n"),
            std::vector<Item>{ev(std::nullopt, std::nullopt, "a: b:c")});
}

TEST_F(ServerSentEventReaderTest, IdReusedAcrossEvents) {
  EXPECT_EQ(consume("data: first event\nid: 1\n\ndata: second event\n\nid: 2\n"
                    "data: third event\n\n"),
            (std::vector<Item>{ev("1", std::nullopt, "first event"),
                               ev("1", std::nullopt, "second event"),
                               ev("2", std::nullopt, "third event")}));
  EXPECT_EQ(lastEventId, "2");
}

// WHATWG: dispatching sets the last event ID first, even when there is no data to dispatch.
// OkHttp keeps "1" here (its idIgnoredFromEmptyEvent); browsers and the standard say "2".
TEST_F(ServerSentEventReaderTest, IdOfAnEventWithoutDataStillCounts) {
  EXPECT_EQ(consume("data: first event\nid: 1\n\nid: 2\n\ndata: second event\n\n"),
            (std::vector<Item>{ev("1", std::nullopt, "first event"),
                               ev("2", std::nullopt, "second event")}));
  EXPECT_EQ(lastEventId, "2");
}

TEST_F(ServerSentEventReaderTest, IdWithNulIsIgnored) {
  EXPECT_EQ(consume(std::string("id: 1\ndata: a\n\nid: x\0y\ndata: b\n\n", 32)),
            (std::vector<Item>{ev("1", std::nullopt, "a"), ev("1", std::nullopt, "b")}));
  EXPECT_EQ(lastEventId, "1");
}

TEST_F(ServerSentEventReaderTest, IdOfAnUnfinishedEventIsNotTheLastEventId) {
  EXPECT_EQ(consume("id: 1\ndata: a\n\nid: 2\ndata: b\n"),
            std::vector<Item>{ev("1", std::nullopt, "a")});
  EXPECT_EQ(lastEventId, "1");
}

TEST_F(ServerSentEventReaderTest, StartsWithTheLastEventIdItIsGiven) {
  Buffer data;
  data.writeUtf8("data: a\n\nid: 8\n\n");
  Recorder recorder;
  ServerSentEventReader reader(data, recorder, "7");
  EXPECT_EQ(reader.lastEventId(), "7");
  ASSERT_TRUE(reader.processNextEvent());
  EXPECT_EQ(recorder.items, std::vector<Item>{ev("7", std::nullopt, "a")});
  ASSERT_TRUE(reader.processNextEvent());
  EXPECT_EQ(reader.lastEventId(), "8");
}

TEST_F(ServerSentEventReaderTest, Retry) {
  EXPECT_EQ(consume("retry: 22\n\ndata: first event\nid: 1\n\n"),
            (std::vector<Item>{int64_t{22}, ev("1", std::nullopt, "first event")}));
}

TEST_F(ServerSentEventReaderTest, RetryInvalidFormatIgnored) {
  EXPECT_EQ(consume("retry: 22\n\nretry: hey\n\nretry: 1.5\n\nretry: -1\n\nretry:  5\n\n"
                    "retry: 5 \n\n"),
            std::vector<Item>{int64_t{22}});
}

TEST_F(ServerSentEventReaderTest, RetryTooLargeIsClamped) {
  EXPECT_EQ(consume("retry: 99999999999999999999999999\n\n"),
            std::vector<Item>{int64_t{ServerSentEventReader::kMaxRetry.count()}});
}

TEST_F(ServerSentEventReaderTest, RetryZero) {
  EXPECT_EQ(consume("retry:0\n\n"), std::vector<Item>{int64_t{0}});
}

TEST_F(ServerSentEventReaderTest, NamePrefixIgnored) {
  EXPECT_EQ(consume("data: a\neventually\ndatabase\nidentity\nretrying\n\n"),
            std::vector<Item>{ev(std::nullopt, std::nullopt, "a")});
}

TEST_F(ServerSentEventReaderTest, FieldNamesAreCaseSensitive) {
  EXPECT_EQ(consume("DATA: a\nData: b\ndata: c\n\n"),
            std::vector<Item>{ev(std::nullopt, std::nullopt, "c")});
}

TEST_F(ServerSentEventReaderTest, NakedNameClearsIdAndTypeAppendsData) {
  EXPECT_EQ(consume("id: a\nevent: b\ndata: c\nid\nevent\ndata\n\n"),
            std::vector<Item>{ev(std::nullopt, std::nullopt, "c\n")});
}

TEST_F(ServerSentEventReaderTest, NakedRetryIgnored) {
  EXPECT_EQ(consume("retry\n\n"), std::vector<Item>{});
}

TEST_F(ServerSentEventReaderTest, NoDispatchAtEndOfStreamWithoutBlankLine) {
  EXPECT_EQ(consume("data: a\n\ndata: b\n"),
            std::vector<Item>{ev(std::nullopt, std::nullopt, "a")});
  EXPECT_EQ(consume("data: a\n\ndata: b"), std::vector<Item>{ev(std::nullopt, std::nullopt, "a")});
}

TEST_F(ServerSentEventReaderTest, EmptyStream) { EXPECT_EQ(consume(""), std::vector<Item>{}); }

TEST_F(ServerSentEventReaderTest, LeadingByteOrderMarkIgnoredOnce) {
  EXPECT_EQ(consumeSplitEveryWay("\xEF\xBB\xBF"
                                 "data: a\n\n"),
            std::vector<Item>{ev(std::nullopt, std::nullopt, "a")});
  // A second BOM is part of the first field's name, which is then unknown.
  EXPECT_EQ(consume("\xEF\xBB\xBF\xEF\xBB\xBF"
                    "data: a\n\ndata: b\n\n"),
            std::vector<Item>{ev(std::nullopt, std::nullopt, "b")});
  // Not at the start: data.
  EXPECT_EQ(consume("data: \xEF\xBB\xBF"
                    "a\n\n"),
            std::vector<Item>{ev(std::nullopt, std::nullopt,
                                 "\xEF\xBB\xBF"
                                 "a")});
}

TEST_F(ServerSentEventReaderTest, PartialByteOrderMarkIsData) {
  EXPECT_EQ(consume("\xEF\xBB\n\ndata: a\n\n"),
            std::vector<Item>{ev(std::nullopt, std::nullopt, "a")});
  EXPECT_EQ(consume("\xEF"), std::vector<Item>{});
}

TEST_F(ServerSentEventReaderTest, Utf8IsKept) {
  EXPECT_EQ(consumeSplitEveryWay("event: caf\xC3\xA9\ndata: \xF0\x9F\x98\x80 \xE2\x82\xAC\n\n"),
            std::vector<Item>{ev(std::nullopt, "caf\xC3\xA9", "\xF0\x9F\x98\x80 \xE2\x82\xAC")});
}

TEST_F(ServerSentEventReaderTest, InvalidUtf8BecomesReplacementCharacters) {
  // A lone continuation byte, a truncated sequence, an overlong encoding, a surrogate, a byte
  // that never starts UTF-8: each maximal invalid part is one U+FFFD (WHATWG Encoding).
  EXPECT_EQ(consume("data: a\x80z\xE2\x82 \xC0\xAF \xED\xA0\x80 \xFF\n\n"),
            std::vector<Item>{ev(std::nullopt, std::nullopt,
                                 "a\xEF\xBF\xBDz\xEF\xBF\xBD \xEF\xBF\xBD\xEF\xBF\xBD "
                                 "\xEF\xBF\xBD\xEF\xBF\xBD\xEF\xBF\xBD \xEF\xBF\xBD")});
}

TEST_F(ServerSentEventReaderTest, CrLfSplitAcrossReadsIsOneLineEnd) {
  // If the LF after a CR that ended a read were taken for a blank line, "a" would be dispatched
  // alone.
  EXPECT_EQ(consume("data: a\r\ndata: b\r\n\r\n", 8),
            std::vector<Item>{ev(std::nullopt, std::nullopt, "a\nb")});
}

TEST_F(ServerSentEventReaderTest, DoesNotWaitForTheByteAfterACr) {
  ScriptedSource script({"data: a\r\r", "\ndata: b\r", "\n\r\n"});
  std::unique_ptr<BufferedSource> source = buffer(static_cast<Source&>(script));
  Recorder recorder;
  ServerSentEventReader reader(*source, recorder);
  ASSERT_TRUE(reader.processNextEvent());  // Reading further would throw.
  EXPECT_EQ(recorder.items, std::vector<Item>{ev(std::nullopt, std::nullopt, "a")});
  ASSERT_TRUE(reader.processNextEvent());
  EXPECT_EQ(recorder.items, (std::vector<Item>{ev(std::nullopt, std::nullopt, "a"),
                                               ev(std::nullopt, std::nullopt, "b")}));
}

TEST_F(ServerSentEventReaderTest, ErrorsFromTheSourcePropagate) {
  ScriptedSource script({"data: a\n"});
  std::unique_ptr<BufferedSource> source = buffer(static_cast<Source&>(script));
  Recorder recorder;
  ServerSentEventReader reader(*source, recorder);
  EXPECT_THROW(reader.processNextEvent(), IOException);
  EXPECT_EQ(recorder.items, std::vector<Item>{});
}

TEST_F(ServerSentEventReaderTest, LineAtTheLimitIsAccepted) {
  std::string line = "data: " + std::string(94, 'x');  // 100 bytes.
  EXPECT_EQ(consume(line + "\n\n", 7, 100),
            std::vector<Item>{ev(std::nullopt, std::nullopt, std::string(94, 'x'))});
}

TEST_F(ServerSentEventReaderTest, LineOverTheLimitFails) {
  std::string line = "data: " + std::string(95, 'x');  // 101 bytes.
  Buffer data;
  data.writeUtf8(line + "\n\n");
  Recorder recorder;
  ServerSentEventReader reader(data, recorder, {}, 100);
  try {
    reader.processNextEvent();
    FAIL() << "expected EventSizeLimitException";
  } catch (const ProtocolException& e) {
    EXPECT_THAT(e.what(), HasSubstr("server-sent event line longer than 100 bytes"));
  }
  EXPECT_EQ(recorder.items, std::vector<Item>{});
}

TEST_F(ServerSentEventReaderTest, EndlessLineFailsAtTheLimit) {
  EndlessSource endless('x');
  std::unique_ptr<BufferedSource> source = buffer(static_cast<Source&>(endless));
  Recorder recorder;
  ServerSentEventReader reader(*source, recorder, {}, 64 * 1024);
  EXPECT_THROW(reader.processNextEvent(), EventSizeLimitException);
  EXPECT_LT(source->buffer().size(), 64 * 1024 + 16 * 1024);  // Limit plus some read-ahead.
}

TEST_F(ServerSentEventReaderTest, EventOverTheLimitFails) {
  // Each line is short; together they pass the limit.
  std::string text;
  for (int i = 0; i < 20; ++i) text += "data: 0123456789\n";  // 11 bytes of data each.
  Buffer data;
  data.writeUtf8(text + "\n");
  Recorder recorder;
  ServerSentEventReader reader(data, recorder, {}, 100);
  try {
    reader.processNextEvent();
    FAIL() << "expected EventSizeLimitException";
  } catch (const EventSizeLimitException& e) {
    EXPECT_THAT(e.what(), HasSubstr("server-sent event data larger than 100 bytes"));
  }
}

TEST_F(ServerSentEventReaderTest, ManySmallEventsStayUnderTheLimit) {
  std::string text;
  for (int i = 0; i < 50; ++i) text += "data: 0123456789\n\n";
  EXPECT_EQ(consume(text, 13, 100).size(), 50u);
}

TEST_F(ServerSentEventReaderTest, InvalidLimitThrows) {
  Buffer data;
  Recorder recorder;
  EXPECT_THROW(ServerSentEventReader(data, recorder, {}, 0), std::invalid_argument);
}

}  // namespace
}  // namespace tern::testing
