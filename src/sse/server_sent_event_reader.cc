// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#include "sse/server_sent_event_reader.h"

#include <algorithm>
#include <stdexcept>
#include <string_view>

#include "tern/buffer.h"

namespace tern::internal {
namespace {

constexpr std::byte kCr{'\r'};
constexpr std::byte kLf{'\n'};

// The offset of the first CR or LF in `buffer` at or after `from`, or -1.
int64_t indexOfLineEnd(const Buffer& buffer, int64_t from) {
  int64_t offset = 0;
  for (size_t i = 0; i < buffer.segmentCount(); ++i) {
    std::span<const std::byte> segment = buffer.readableSegment(i);
    auto size = static_cast<int64_t>(segment.size());
    if (offset + size > from) {
      auto begin = segment.begin() + std::max<int64_t>(0, from - offset);
      auto found =
          std::find_if(begin, segment.end(), [](std::byte b) { return b == kCr || b == kLf; });
      if (found != segment.end()) return offset + (found - segment.begin());
    }
    offset += size;
  }
  return -1;
}

// Appends `bytes` to `out` decoded as the WHATWG Encoding Standard's UTF-8 decoder does: each
// maximal invalid subsequence becomes U+FFFD.
void appendUtf8(std::string& out, std::string_view bytes) {
  static constexpr std::string_view kReplacement = "\xEF\xBF\xBD";
  size_t i = 0;
  while (i < bytes.size()) {
    auto lead = static_cast<unsigned char>(bytes[i]);
    if (lead < 0x80) {
      size_t start = i;
      while (i < bytes.size() && static_cast<unsigned char>(bytes[i]) < 0x80) ++i;
      out.append(bytes.substr(start, i - start));
      continue;
    }
    size_t needed = 0;
    unsigned char lower = 0x80;
    unsigned char upper = 0xBF;
    if (lead >= 0xC2 && lead <= 0xDF) {
      needed = 1;
    } else if (lead >= 0xE0 && lead <= 0xEF) {
      needed = 2;
      if (lead == 0xE0) lower = 0xA0;
      if (lead == 0xED) upper = 0x9F;
    } else if (lead >= 0xF0 && lead <= 0xF4) {
      needed = 3;
      if (lead == 0xF0) lower = 0x90;
      if (lead == 0xF4) upper = 0x8F;
    } else {
      out.append(kReplacement);
      ++i;
      continue;
    }
    size_t j = i + 1;
    size_t seen = 0;
    while (seen < needed && j < bytes.size()) {
      auto b = static_cast<unsigned char>(bytes[j]);
      if (b < lower || b > upper) break;
      lower = 0x80;
      upper = 0xBF;
      ++seen;
      ++j;
    }
    if (seen == needed) {
      out.append(bytes.substr(i, j - i));
    } else {
      out.append(kReplacement);  // The byte that broke the sequence is decoded afresh.
    }
    i = j;
  }
}

bool allAsciiDigits(std::string_view value) {
  return !value.empty() &&
         std::all_of(value.begin(), value.end(), [](char c) { return c >= '0' && c <= '9'; });
}

}  // namespace

ServerSentEventReader::ServerSentEventReader(BufferedSource& source, Callback& callback,
                                             std::string lastEventId, int64_t limit)
    : source_(source),
      callback_(callback),
      limit_(limit),
      lastEventIdBuffer_(lastEventId),
      lastEventId_(std::move(lastEventId)) {
  if (limit < 1) {
    throw std::invalid_argument("limit < 1: " + std::to_string(limit));
  }
}

bool ServerSentEventReader::processNextEvent() {
  while (true) {
    std::optional<std::string> line = readLine();
    if (!line) return false;  // An unfinished event at the end of the stream is dropped.
    if (line->empty()) {
      dispatch();
      return true;
    }
    if ((*line)[0] == ':') continue;  // A comment.
    std::string_view field = *line;
    size_t colon = field.find(':');
    if (colon == std::string_view::npos) {
      processField(field, {});
      continue;
    }
    std::string_view value = field.substr(colon + 1);
    if (!value.empty() && value[0] == ' ') value.remove_prefix(1);
    processField(field.substr(0, colon), value);
  }
}

bool ServerSentEventReader::skipByteOrderMark() {
  static constexpr unsigned char kBom[] = {0xEF, 0xBB, 0xBF};
  // Byte by byte, so a stream whose first line is shorter than a BOM never waits for more.
  for (int64_t i = 0; i < 3; ++i) {
    if (!source_.request(i + 1)) return i > 0;  // A partial BOM is data; the line reader drops it.
    if (source_.buffer().getByte(i) != std::byte{kBom[i]}) return true;
  }
  source_.skip(3);
  return true;
}

std::optional<std::string> ServerSentEventReader::readLine() {
  if (!started_) {
    started_ = true;
    if (!skipByteOrderMark()) return std::nullopt;
  }
  Buffer& buffer = source_.buffer();
  if (skipLeadingLf_) {
    if (!source_.request(1)) return std::nullopt;
    if (buffer.getByte(0) == kLf) buffer.skip(1);
    skipLeadingLf_ = false;
  }
  int64_t scanned = 0;
  int64_t end;
  while ((end = indexOfLineEnd(buffer, scanned)) == -1) {
    scanned = buffer.size();
    if (scanned > limit_) {
      throw EventSizeLimitException("server-sent event line longer than " + std::to_string(limit_) +
                                    " bytes");
    }
    if (!source_.request(scanned + 1)) {
      buffer.clear();  // An unterminated last line is dropped.
      return std::nullopt;
    }
  }
  if (end > limit_) {
    throw EventSizeLimitException("server-sent event line longer than " + std::to_string(limit_) +
                                  " bytes");
  }
  std::string raw = buffer.readUtf8(end);
  bool cr = buffer.readByte() == kCr;
  if (cr) {
    // CRLF is one line end. When the CR ends what has arrived, the LF is skipped at the start of
    // the next line instead of waiting for it here (a server may pause after a CR).
    if (buffer.size() > 0) {
      if (buffer.getByte(0) == kLf) buffer.skip(1);
    } else {
      skipLeadingLf_ = true;
    }
  }
  std::string line;
  line.reserve(raw.size());
  appendUtf8(line, raw);
  return line;
}

void ServerSentEventReader::processField(std::string_view name, std::string_view value) {
  if (name == "event") {
    eventType_.assign(value);
  } else if (name == "data") {
    if (static_cast<int64_t>(data_.size() + value.size() + 1) > limit_) {
      throw EventSizeLimitException("server-sent event data larger than " + std::to_string(limit_) +
                                    " bytes");
    }
    data_.append(value);
    data_.push_back('\n');
  } else if (name == "id") {
    if (value.find('\0') == std::string_view::npos) lastEventIdBuffer_.assign(value);
  } else if (name == "retry") {
    if (!allAsciiDigits(value)) return;
    int64_t millis = 0;
    for (char c : value) {
      millis = millis * 10 + (c - '0');
      if (millis >= kMaxRetry.count()) {
        millis = kMaxRetry.count();
        break;
      }
    }
    callback_.onRetryChange(std::chrono::milliseconds(millis));
  }
}

void ServerSentEventReader::dispatch() {
  lastEventId_ = lastEventIdBuffer_;
  if (data_.empty()) {
    eventType_.clear();
    return;
  }
  data_.pop_back();  // The "\n" after the last data line.
  std::optional<std::string> id;
  if (!lastEventId_.empty()) id = lastEventId_;
  std::optional<std::string> type;
  if (!eventType_.empty()) type = std::move(eventType_);
  std::string data = std::move(data_);
  data_.clear();
  eventType_.clear();
  callback_.onEvent(id, type, data);
}

}  // namespace tern::internal
