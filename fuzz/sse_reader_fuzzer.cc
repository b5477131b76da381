// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
// Feeds arbitrary bytes to ServerSentEventReader as a text/event-stream, with a small size
// limit so the limit paths are reached. Beyond "no crash, no hang, no out-of-bounds read" it
// checks that what comes out does not depend on how the stream was split into reads (the first
// byte picks a read size; the same bytes are also parsed whole), that no event, type or ID holds
// a line end, that IDs hold no NUL, that data stays within the limit, and that every string is
// valid UTF-8.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

#include "sse/server_sent_event_reader.h"
#include "tern/buffer.h"
#include "tern/exceptions.h"
#include "tern/source.h"
#include "tern/timeout.h"

namespace {

using tern::Buffer;
using tern::internal::EventSizeLimitException;
using tern::internal::ServerSentEventReader;

constexpr int64_t kLimit = 1024;

void check(bool condition) {
  if (!condition) std::abort();
}

bool validUtf8(std::string_view s) {
  size_t i = 0;
  while (i < s.size()) {
    auto c = static_cast<unsigned char>(s[i]);
    size_t length = c < 0x80           ? 1
                    : (c >> 5) == 0x6  ? 2
                    : (c >> 4) == 0xE  ? 3
                    : (c >> 3) == 0x1E ? 4
                                       : 0;
    if (length == 0 || i + length > s.size()) return false;
    uint32_t cp = length == 1 ? c : length == 2 ? c & 0x1F : length == 3 ? c & 0x0F : c & 0x07;
    for (size_t k = 1; k < length; ++k) {
      auto b = static_cast<unsigned char>(s[i + k]);
      if ((b & 0xC0) != 0x80) return false;
      cp = (cp << 6) | (b & 0x3F);
    }
    static constexpr uint32_t kMin[] = {0, 0, 0x80, 0x800, 0x10000};
    if (cp < kMin[length] || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return false;
    i += length;
  }
  return true;
}

// A source returning `data` at most `step` bytes per read.
class SteppedSource final : public tern::Source {
 public:
  SteppedSource(std::string_view data, int64_t step) : step_(step) { data_.writeUtf8(data); }
  int64_t read(Buffer& sink, int64_t byteCount) override {
    return data_.read(sink, std::min(byteCount, step_));
  }
  tern::Timeout& timeout() override { return timeout_; }
  void close() override {}

 private:
  Buffer data_;
  int64_t step_;
  tern::Timeout timeout_;
};

class Collector final : public ServerSentEventReader::Callback {
 public:
  void onEvent(const std::optional<std::string>& id, const std::optional<std::string>& type,
               const std::string& data) override {
    check(!id ||
          (!id->empty() && id->find_first_of(std::string("\r\n\0", 3)) == std::string::npos));
    check(!type || (!type->empty() && type->find_first_of("\r\n") == std::string::npos));
    check(data.find('\r') == std::string::npos);
    check(static_cast<int64_t>(data.size()) < kLimit);
    check(validUtf8(id.value_or("")) && validUtf8(type.value_or("")) && validUtf8(data));
    log += "E" + id.value_or("-") + "|" + type.value_or("-") + "|" + data + "\n";
  }
  void onRetryChange(std::chrono::milliseconds retry) override {
    check(retry.count() >= 0 && retry <= ServerSentEventReader::kMaxRetry);
    log += "R" + std::to_string(retry.count()) + "\n";
  }
  std::string log;
};

// Parses all of `stream` read `step` bytes at a time; returns what was reported and how it
// ended ("end", or "limit" for EventSizeLimitException).
std::string parse(std::string_view stream, int64_t step) {
  std::unique_ptr<tern::BufferedSource> source =
      tern::buffer(std::make_unique<SteppedSource>(stream, step));
  Collector collector;
  ServerSentEventReader reader(*source, collector, {}, kLimit);
  std::string ending = "end";
  try {
    while (reader.processNextEvent()) {
      check(reader.lastEventId().find_first_of(std::string("\r\n\0", 3)) == std::string::npos);
    }
  } catch (const EventSizeLimitException&) {
    ending = "limit";
  }
  return collector.log + ending;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  int64_t step = 1 + data[0] % 16;
  std::string_view stream(reinterpret_cast<const char*>(data) + 1, size - 1);
  std::string whole = parse(stream, 1 << 20);
  std::string stepped = parse(stream, step);
  // The same line or event passes the limit however the stream was split, so the events before
  // it are the same too.
  check(whole == stepped);
  return 0;
}
