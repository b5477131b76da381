// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#pragma once

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>

#include "tern/buffered_source.h"
#include "tern/exceptions.h"

namespace tern::internal {

// A line or an event of a text/event-stream passed the reader's limit. A ProtocolException to
// the user; its own type so RealEventSource can tell a hostile stream (never reconnected to)
// from a broken connection (reconnected to).
class EventSizeLimitException final : public ProtocolException {
 public:
  using ProtocolException::ProtocolException;
};

// Parses a text/event-stream (WHATWG HTML §9.2.6 "Interpreting an event stream") from a
// BufferedSource, as OkHttp's ServerSentEventReader, but by the standard's rules where OkHttp
// departs from them:
//  - lines end in CR, LF or CRLF; a CR ending one read and an LF starting the next are one line
//    end, and the reader never waits for the byte after a CR (so an event ending in CR CR is
//    dispatched at once);
//  - one leading UTF-8 byte-order mark is skipped; bytes are decoded as UTF-8, each invalid
//    sequence becoming U+FFFD;
//  - fields: "event" sets the type, "data" appends a line to the data, "id" sets the last event
//    ID (unless it holds U+0000), "retry" of ASCII digits only reports a new reconnection time;
//    a line starting with ':' is a comment; a line without ':' is a field with an empty value;
//    one space after the colon is dropped; unknown fields are ignored;
//  - a blank line dispatches: the last event ID is updated (even when nothing is dispatched),
//    and an event with data goes to Callback::onEvent with its data lines joined by "\n"; the
//    type is reset after each dispatch, the ID is not;
//  - at the end of the stream an unfinished line or event is dropped.
//
// Memory is bounded: a line longer than `limit` bytes, or an event whose data passes `limit`
// bytes, throws EventSizeLimitException naming the limit. So the reader holds at most about
// 2 x limit bytes plus one segment of read-ahead, whatever the peer sends.
//
// Owned by one thread at a time; not thread-safe. `source` must outlive the reader.
class ServerSentEventReader {
 public:
  // Receives what the stream says. An exception thrown from here leaves processNextEvent().
  class Callback {
   public:
    virtual ~Callback() = default;
    // An event: `id` is the last event ID (nullopt when it is empty), `type` the event type
    // (nullopt when none was given: a "message").
    virtual void onEvent(const std::optional<std::string>& id,
                         const std::optional<std::string>& type, const std::string& data) = 0;
    // A "retry" field: the reconnection time the server asks for.
    virtual void onRetryChange(std::chrono::milliseconds retry) = 0;
  };

  // The default bound on a line and on an event's data: 8 MiB.
  static constexpr int64_t kDefaultLimit = 8 * 1024 * 1024;

  // The largest "retry" honoured (a larger one is clamped to it): about 31 years, so it fits in
  // std::chrono::nanoseconds.
  static constexpr std::chrono::milliseconds kMaxRetry{1'000'000'000'000};

  // A reader of `source` reporting to `callback`. `lastEventId` is the ID the stream starts
  // with (an EventSource's last one, when it reconnects; browsers carry it over this way).
  // Throws std::invalid_argument if `limit` < 1.
  ServerSentEventReader(BufferedSource& source, Callback& callback, std::string lastEventId = {},
                        int64_t limit = kDefaultLimit);

  // Reads up to and including the next blank line, reporting any retry fields and the event it
  // completes (if it has data). Returns false at the end of the stream. Throws IOException from
  // the source, and EventSizeLimitException.
  bool processNextEvent();

  // The last event ID, as of the last blank line ("" if none): what Last-Event-ID carries on a
  // reconnection.
  const std::string& lastEventId() const noexcept { return lastEventId_; }

 private:
  // The next line without its line end, or nullopt at the end of the stream.
  std::optional<std::string> readLine();
  // Skips a byte-order mark at the start of the stream. False at the end of the stream.
  bool skipByteOrderMark();
  void processField(std::string_view name, std::string_view value);
  void dispatch();

  BufferedSource& source_;
  Callback& callback_;
  const int64_t limit_;
  bool started_ = false;           // The byte-order mark check is done.
  bool skipLeadingLf_ = false;     // The last line ended in a CR that ended the buffer.
  std::string data_;               // Data lines, each followed by "\n".
  std::string eventType_;          // The event type buffer.
  std::string lastEventIdBuffer_;  // The last event ID buffer, set by "id".
  std::string lastEventId_;        // The last event ID string, set at each dispatch.
};

}  // namespace tern::internal
