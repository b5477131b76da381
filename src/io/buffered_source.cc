// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#include "tern/buffered_source.h"

#include <algorithm>
#include <stdexcept>
#include <string>

#include "io/hex.h"
#include "io/peek_source.h"
#include "tern/buffer.h"
#include "tern/exceptions.h"
#include "tern/sink.h"

namespace tern {

namespace {

constexpr int64_t kMaxLimit = std::numeric_limits<int64_t>::max();

void checkByteCount(const char* where, int64_t byteCount) {
  if (byteCount < 0) {
    throw std::invalid_argument(std::string(where) +
                                ": byteCount < 0: " + std::to_string(byteCount));
  }
}

// Decodes N bytes, most significant first.
template <typename Unsigned>
Unsigned bigEndian(const std::byte* bytes) {
  Unsigned value = 0;
  for (size_t i = 0; i < sizeof(Unsigned); ++i) {
    value = static_cast<Unsigned>(value << 8) | std::to_integer<Unsigned>(bytes[i]);
  }
  return value;
}

// Decodes N bytes, least significant first.
template <typename Unsigned>
Unsigned littleEndian(const std::byte* bytes) {
  Unsigned value = 0;
  for (size_t i = sizeof(Unsigned); i > 0; --i) {
    value = static_cast<Unsigned>(value << 8) | std::to_integer<Unsigned>(bytes[i - 1]);
  }
  return value;
}

// Removes the line that ends with the '\n' at `newline`, dropping a '\r' before it.
std::string readLine(Buffer& buffer, int64_t newline) {
  if (newline > 0 && buffer.getByte(newline - 1) == std::byte{'\r'}) {
    std::string line = buffer.readUtf8(newline - 1);
    buffer.skip(2);
    return line;
  }
  std::string line = buffer.readUtf8(newline);
  buffer.skip(1);
  return line;
}

}  // namespace

bool BufferedSource::exhausted() { return buffer().size() == 0 && !request(1); }

void BufferedSource::require(int64_t byteCount) {
  if (!request(byteCount)) {
    throw EOFException("expected " + std::to_string(byteCount) + " bytes but the source has " +
                       std::to_string(buffer().size()));
  }
}

std::byte BufferedSource::readByte() {
  require(1);
  std::byte b;
  buffer().readInto(&b, 1);
  return b;
}

int16_t BufferedSource::readShort() {
  require(2);
  std::byte bytes[2];
  buffer().readInto(bytes, 2);
  return static_cast<int16_t>(bigEndian<uint16_t>(bytes));
}

int16_t BufferedSource::readShortLe() {
  require(2);
  std::byte bytes[2];
  buffer().readInto(bytes, 2);
  return static_cast<int16_t>(littleEndian<uint16_t>(bytes));
}

int32_t BufferedSource::readInt() {
  require(4);
  std::byte bytes[4];
  buffer().readInto(bytes, 4);
  return static_cast<int32_t>(bigEndian<uint32_t>(bytes));
}

int32_t BufferedSource::readIntLe() {
  require(4);
  std::byte bytes[4];
  buffer().readInto(bytes, 4);
  return static_cast<int32_t>(littleEndian<uint32_t>(bytes));
}

int64_t BufferedSource::readLong() {
  require(8);
  std::byte bytes[8];
  buffer().readInto(bytes, 8);
  return static_cast<int64_t>(bigEndian<uint64_t>(bytes));
}

int64_t BufferedSource::readLongLe() {
  require(8);
  std::byte bytes[8];
  buffer().readInto(bytes, 8);
  return static_cast<int64_t>(littleEndian<uint64_t>(bytes));
}

int64_t BufferedSource::readDecimalLong() {
  require(1);
  Buffer& buf = buffer();
  bool negative = false;
  if (buf.getByte(0) == std::byte{'-'}) {
    negative = true;
    buf.discard(1);
  }
  // Accumulate the negated value, since int64_t's negative range is the larger one. A digit
  // overflows when the value is already below min / 10, or equal to it and the digit is past
  // min's last digit (8 for negative numbers, 7 for positive ones).
  constexpr int64_t kOverflowZone = std::numeric_limits<int64_t>::min() / 10;
  const int64_t overflowDigit = std::numeric_limits<int64_t>::min() % 10 + (negative ? 0 : 1);
  int64_t value = 0;
  int64_t digits = 0;
  bool sawOther = false;  // Stopped at a byte that is not a digit.
  // Consume the head segment's digits as they are found, so an endless run of digits from a
  // peer never needs more than a segment of memory.
  while (!sawOther && request(1)) {
    std::span<const std::byte> bytes = buf.readableSegment(0);
    size_t i = 0;
    for (; i < bytes.size(); ++i) {
      int c = std::to_integer<int>(bytes[i]);
      if (c < '0' || c > '9') {
        sawOther = true;
        break;
      }
      int64_t digit = '0' - c;
      if (value < kOverflowZone || (value == kOverflowZone && digit < overflowDigit)) {
        std::string seen = std::to_string(value);
        if (!negative) {
          seen.erase(0, 1);  // value is never 0 here, so this is its '-'.
        }
        throw ProtocolException("Number too large: " + seen + static_cast<char>(c));
      }
      value = value * 10 + digit;
      ++digits;
    }
    buf.discard(static_cast<int64_t>(i));
  }
  if (digits == 0) {
    if (!sawOther) {
      throw EOFException("expected a digit but the source is exhausted");
    }
    throw ProtocolException(std::string(negative ? "Expected a digit" : "Expected a digit or '-'") +
                            " but was 0x" + internal::hexByte(buf.getByte(0)));
  }
  return negative ? value : -value;
}

uint64_t BufferedSource::readHexadecimalUnsignedLong() {
  require(1);
  Buffer& buf = buffer();
  uint64_t value = 0;
  int64_t digits = 0;
  bool sawOther = false;
  while (!sawOther && request(1)) {
    std::span<const std::byte> bytes = buf.readableSegment(0);
    size_t i = 0;
    for (; i < bytes.size(); ++i) {
      int digit = internal::hexDigitValue(bytes[i]);
      if (digit < 0) {
        sawOther = true;
        break;
      }
      if ((value & 0xf000000000000000u) != 0) {
        Buffer seen;
        seen.writeHexadecimalUnsignedLong(value).writeByte(bytes[i]);
        throw ProtocolException("Number too large: " + seen.readUtf8());
      }
      value = (value << 4) | static_cast<uint64_t>(digit);
      ++digits;
    }
    buf.discard(static_cast<int64_t>(i));
  }
  if (digits == 0) {
    throw ProtocolException("Expected leading [0-9a-fA-F] character but was 0x" +
                            internal::hexByte(buf.getByte(0)));
  }
  return value;
}

void BufferedSource::skip(int64_t byteCount) {
  checkByteCount("BufferedSource::skip", byteCount);
  Buffer& buf = buffer();
  while (byteCount > 0) {
    if (buf.size() == 0 && !request(1)) {
      throw EOFException("skip: the source ended " + std::to_string(byteCount) + " bytes short");
    }
    int64_t n = std::min(byteCount, buf.size());
    buf.discard(n);
    byteCount -= n;
  }
}

std::vector<std::byte> BufferedSource::readByteArray() {
  while (request(buffer().size() + 1)) {
  }
  return readByteArray(buffer().size());
}

std::vector<std::byte> BufferedSource::readByteArray(int64_t byteCount) {
  checkByteCount("BufferedSource::readByteArray", byteCount);
  require(byteCount);
  std::vector<std::byte> result(static_cast<size_t>(byteCount));
  buffer().readInto(result.data(), result.size());
  return result;
}

int64_t BufferedSource::read(std::span<std::byte> sink) {
  if (sink.empty()) {
    return 0;
  }
  if (!request(1)) {
    return -1;
  }
  auto n = static_cast<size_t>(std::min<int64_t>(buffer().size(), sink.size()));
  buffer().readInto(sink.data(), n);
  return static_cast<int64_t>(n);
}

void BufferedSource::readFully(std::span<std::byte> sink) {
  if (!request(static_cast<int64_t>(sink.size()))) {
    auto available = static_cast<size_t>(buffer().size());
    buffer().readInto(sink.data(), available);
    throw EOFException("readFully: expected " + std::to_string(sink.size()) +
                       " bytes but the source ended after " + std::to_string(available));
  }
  buffer().readInto(sink.data(), sink.size());
}

void BufferedSource::readFully(Buffer& sink, int64_t byteCount) {
  checkByteCount("BufferedSource::readFully", byteCount);
  if (!request(byteCount)) {
    int64_t available = buffer().size();
    sink.write(buffer(), available);
    throw EOFException("readFully: expected " + std::to_string(byteCount) +
                       " bytes but the source ended after " + std::to_string(available));
  }
  sink.write(buffer(), byteCount);
}

int64_t BufferedSource::readAll(Sink& sink) {
  Buffer& buf = buffer();
  int64_t total = 0;
  while (request(buf.size() + 1)) {
    int64_t complete = buf.completeSegmentByteCount();
    if (complete > 0) {
      total += complete;
      sink.write(buf, complete);
    }
  }
  if (buf.size() > 0) {
    total += buf.size();
    sink.write(buf, buf.size());
  }
  return total;
}

std::string BufferedSource::readUtf8() {
  while (request(buffer().size() + 1)) {
  }
  return readUtf8(buffer().size());
}

std::string BufferedSource::readUtf8(int64_t byteCount) {
  checkByteCount("BufferedSource::readUtf8", byteCount);
  require(byteCount);
  std::string result(static_cast<size_t>(byteCount), '\0');
  buffer().readInto(reinterpret_cast<std::byte*>(result.data()), result.size());
  return result;
}

std::optional<std::string> BufferedSource::readUtf8Line() {
  int64_t newline = indexOf(std::byte{'\n'});
  if (newline == -1) {
    if (buffer().size() == 0) {
      return std::nullopt;
    }
    return readUtf8(buffer().size());
  }
  return readLine(buffer(), newline);
}

std::string BufferedSource::readUtf8LineStrict() { return readUtf8LineStrict(kMaxLimit); }

std::string BufferedSource::readUtf8LineStrict(int64_t limit) {
  if (limit < 0) {
    throw std::invalid_argument("readUtf8LineStrict: limit < 0: " + std::to_string(limit));
  }
  // Look for '\n' among the first limit + 1 bytes: a line of `limit` bytes ends there.
  int64_t scanLength = limit == kMaxLimit ? kMaxLimit : limit + 1;
  int64_t newline = indexOf(std::byte{'\n'}, 0, scanLength);
  if (newline != -1) {
    return readLine(buffer(), newline);
  }
  // A line of exactly `limit` bytes may end with "\r\n", whose '\n' is one byte further.
  Buffer& buf = buffer();
  if (scanLength < kMaxLimit && request(scanLength) &&
      buf.getByte(scanLength - 1) == std::byte{'\r'} && request(scanLength + 1) &&
      buf.getByte(scanLength) == std::byte{'\n'}) {
    return readLine(buf, scanLength);
  }
  Buffer shown;
  buf.copyTo(shown, 0, std::min<int64_t>(32, buf.size()));
  throw EOFException("\\n not found: limit=" + std::to_string(std::min(buf.size(), limit)) +
                     " content=" + internal::hex(shown) + "\u2026");
}

int64_t BufferedSource::indexOf(std::byte b, int64_t fromIndex, int64_t toIndex) {
  if (fromIndex < 0 || toIndex < fromIndex) {
    throw std::invalid_argument("indexOf: fromIndex=" + std::to_string(fromIndex) +
                                " toIndex=" + std::to_string(toIndex));
  }
  Buffer& buf = buffer();
  while (fromIndex < toIndex) {
    int64_t result = buf.scan(b, fromIndex, toIndex);
    if (result != -1) {
      return result;
    }
    // Not buffered yet: read more, unless the buffer already covers the range.
    int64_t scanned = buf.size();
    if (scanned >= toIndex || !request(scanned + 1)) {
      return -1;
    }
    fromIndex = std::max(fromIndex, scanned);
  }
  return -1;
}

int64_t BufferedSource::indexOf(std::string_view bytes, int64_t fromIndex) {
  if (bytes.empty()) {
    throw std::invalid_argument("indexOf: bytes is empty");
  }
  if (fromIndex < 0) {
    throw std::invalid_argument("indexOf: fromIndex < 0: " + std::to_string(fromIndex));
  }
  Buffer& buf = buffer();
  while (true) {
    int64_t result = buf.scan(bytes, fromIndex);
    if (result != -1) {
      return result;
    }
    int64_t scanned = buf.size();
    if (!request(scanned + 1)) {
      return -1;
    }
    // A match may start in the bytes already scanned and end in the new ones.
    fromIndex = std::max(fromIndex, scanned - static_cast<int64_t>(bytes.size()) + 1);
  }
}

bool BufferedSource::rangeEquals(int64_t offset, std::string_view bytes) {
  if (offset < 0) {
    return false;
  }
  if (!request(offset + static_cast<int64_t>(bytes.size()))) {
    return false;
  }
  return buffer().matches(offset, bytes);
}

std::unique_ptr<BufferedSource> BufferedSource::peek() {
  return tern::buffer(std::make_unique<internal::PeekSource>(*this));
}

}  // namespace tern
