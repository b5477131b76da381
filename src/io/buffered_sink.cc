// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#include "tern/buffered_sink.h"

#include <stdexcept>
#include <string>

#include "tern/buffer.h"
#include "tern/exceptions.h"
#include "tern/source.h"

namespace tern {

namespace {

// Encodes the low sizeof(Unsigned) bytes of `value`, most significant first.
template <typename Unsigned>
void toBigEndian(Unsigned value, std::byte* out) {
  for (size_t i = sizeof(Unsigned); i > 0; --i) {
    out[i - 1] = static_cast<std::byte>(value & 0xff);
    value = static_cast<Unsigned>(value >> 8);
  }
}

// Encodes the low sizeof(Unsigned) bytes of `value`, least significant first.
template <typename Unsigned>
void toLittleEndian(Unsigned value, std::byte* out) {
  for (size_t i = 0; i < sizeof(Unsigned); ++i) {
    out[i] = static_cast<std::byte>(value & 0xff);
    value = static_cast<Unsigned>(value >> 8);
  }
}

// Large writes go downstream in pieces of this size (8 segments), so a 1 MiB body never sits
// whole in the buffer: its segments are reused from the segment pool piece after piece instead
// of 128 fresh blocks the allocator must find (and the kernel fault in) each time.
constexpr size_t kEmitChunk = 8 * Buffer::kSegmentSize;

}  // namespace

BufferedSink& BufferedSink::write(std::span<const std::byte> bytes) {
  while (bytes.size() > kEmitChunk) {
    buffer().append(bytes.data(), kEmitChunk);
    emitCompleteSegments();
    bytes = bytes.subspan(kEmitChunk);
  }
  buffer().append(bytes.data(), bytes.size());
  return emitCompleteSegments();
}

BufferedSink& BufferedSink::write(const void* data, size_t byteCount) {
  if (data == nullptr && byteCount != 0) {
    throw std::invalid_argument("BufferedSink::write: data is null but byteCount=" +
                                std::to_string(byteCount));
  }
  return write(std::span(static_cast<const std::byte*>(data), byteCount));
}

BufferedSink& BufferedSink::write(Source& source, int64_t byteCount) {
  if (byteCount < 0) {
    throw std::invalid_argument("BufferedSink::write: byteCount < 0: " + std::to_string(byteCount));
  }
  while (byteCount > 0) {
    int64_t read = source.read(buffer(), byteCount);
    if (read == -1) {
      throw EOFException("BufferedSink::write: the source ended " + std::to_string(byteCount) +
                         " bytes short");
    }
    byteCount -= read;
    emitCompleteSegments();
  }
  return *this;
}

int64_t BufferedSink::writeAll(Source& source) {
  int64_t total = 0;
  while (true) {
    int64_t read = source.read(buffer(), static_cast<int64_t>(Buffer::kSegmentSize));
    if (read == -1) {
      return total;
    }
    total += read;
    emitCompleteSegments();
  }
}

BufferedSink& BufferedSink::writeUtf8(std::string_view string) {
  return write(std::as_bytes(std::span(string.data(), string.size())));
}

BufferedSink& BufferedSink::writeByte(std::byte b) {
  buffer().append(&b, 1);
  return emitCompleteSegments();
}

BufferedSink& BufferedSink::writeShort(int32_t s) {
  std::byte bytes[2];
  toBigEndian(static_cast<uint16_t>(s), bytes);
  return write(bytes);
}

BufferedSink& BufferedSink::writeShortLe(int32_t s) {
  std::byte bytes[2];
  toLittleEndian(static_cast<uint16_t>(s), bytes);
  return write(bytes);
}

BufferedSink& BufferedSink::writeInt(int32_t i) {
  std::byte bytes[4];
  toBigEndian(static_cast<uint32_t>(i), bytes);
  return write(bytes);
}

BufferedSink& BufferedSink::writeIntLe(int32_t i) {
  std::byte bytes[4];
  toLittleEndian(static_cast<uint32_t>(i), bytes);
  return write(bytes);
}

BufferedSink& BufferedSink::writeLong(int64_t v) {
  std::byte bytes[8];
  toBigEndian(static_cast<uint64_t>(v), bytes);
  return write(bytes);
}

BufferedSink& BufferedSink::writeLongLe(int64_t v) {
  std::byte bytes[8];
  toLittleEndian(static_cast<uint64_t>(v), bytes);
  return write(bytes);
}

BufferedSink& BufferedSink::writeDecimalLong(int64_t v) {
  char digits[20];  // "-9223372036854775808" is the longest.
  char* end = digits + sizeof(digits);
  char* p = end;
  // The magnitude as unsigned, so INT64_MIN needs no special case.
  uint64_t magnitude = v < 0 ? 0 - static_cast<uint64_t>(v) : static_cast<uint64_t>(v);
  do {
    *--p = static_cast<char>('0' + magnitude % 10);
    magnitude /= 10;
  } while (magnitude != 0);
  if (v < 0) {
    *--p = '-';
  }
  return writeUtf8(std::string_view(p, static_cast<size_t>(end - p)));
}

BufferedSink& BufferedSink::writeHexadecimalUnsignedLong(uint64_t v) {
  static constexpr char kDigits[] = "0123456789abcdef";
  char digits[16];
  char* end = digits + sizeof(digits);
  char* p = end;
  do {
    *--p = kDigits[v & 0xf];
    v >>= 4;
  } while (v != 0);
  return writeUtf8(std::string_view(p, static_cast<size_t>(end - p)));
}

}  // namespace tern
