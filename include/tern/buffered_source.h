// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstddef>
#include <cstdint>
#include <limits>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "tern/export.h"
#include "tern/source.h"

namespace tern {

class Sink;

// A Source that keeps an internal Buffer so callers can read in convenient units (lines,
// integers, strings), as Okio's BufferedSource. ResponseBody::source() returns one.
//
// Implementations provide only buffer() and request() (plus Source's read(), timeout() and
// close()); every reading method below is written once on top of them. Buffer is itself a
// BufferedSource (reading from it consumes its bytes), and tern::buffer() wraps any Source.
//
// Bytes: single bytes are std::byte, byte arrays are std::vector<std::byte>, and the *Utf8
// methods return the bytes unchanged in a std::string (no decoding and no replacement of
// malformed sequences). Multi-byte integers are big-endian unless the name ends in Le.
//
// Errors: EOFException when the stream ends before the requested bytes; ProtocolException when
// readDecimalLong() or readHexadecimalUnsignedLong() meet something that is not a number (Okio's
// NumberFormatException: the bytes came from a peer, so malformed input is a protocol failure);
// std::invalid_argument for negative counts; std::logic_error after close(). Not thread-safe.
class TERN_API BufferedSource : public Source {
 public:
  using Source::read;

  // The bytes already read from the underlying source and not yet consumed. Reading them
  // directly is allowed and is how parsers avoid extra copies.
  virtual Buffer& buffer() = 0;

  // Returns true once buffer() holds at least `byteCount` bytes, reading from the underlying
  // source as needed; false if the source is exhausted first. Throws std::invalid_argument if
  // `byteCount` is negative.
  virtual bool request(int64_t byteCount) = 0;

  // True if there are no more bytes: the buffer is empty and the source is exhausted. May block.
  bool exhausted();

  // Like request(), but throws EOFException instead of returning false.
  void require(int64_t byteCount);

  // Removes one byte and returns it. Throws EOFException if the source is exhausted.
  std::byte readByte();

  // Remove two, four or eight bytes and return them as a signed integer, big-endian or (Le)
  // little-endian. Throw EOFException, consuming nothing, if fewer bytes remain.
  int16_t readShort();
  int16_t readShortLe();
  int32_t readInt();
  int32_t readIntLe();
  int64_t readLong();
  int64_t readLongLe();

  // Reads a signed decimal number: an optional '-' then digits, stopping before the first byte
  // that is not a digit (which stays unread). Throws ProtocolException if there is no digit or
  // the value does not fit in int64_t, EOFException if the stream ends before the first digit.
  int64_t readDecimalLong();

  // Reads an unsigned hexadecimal number ([0-9a-fA-F]+, any case), stopping before the first
  // other byte. Leading zeros are allowed. Throws ProtocolException if the first byte is not a
  // hex digit or the value needs more than 64 bits, EOFException if the source is exhausted.
  uint64_t readHexadecimalUnsignedLong();

  // Discards `byteCount` bytes. Throws EOFException if the source ends first (the bytes that
  // were available are discarded).
  void skip(int64_t byteCount);

  // Removes all bytes to the end of the stream and returns them.
  std::vector<std::byte> readByteArray();

  // Removes exactly `byteCount` bytes and returns them. Throws EOFException, consuming nothing,
  // if fewer remain.
  std::vector<std::byte> readByteArray(int64_t byteCount);

  // Removes up to sink.size() bytes into `sink`; returns how many, or -1 if the source is
  // exhausted (0 if `sink` is empty). Returns what is available without waiting for more.
  int64_t read(std::span<std::byte> sink);

  // Fills `sink` completely. Throws EOFException if the source ends first (the bytes that were
  // available have been copied to the front of `sink`).
  void readFully(std::span<std::byte> sink);

  // Removes exactly `byteCount` bytes and appends them to `sink`. Throws EOFException if the
  // source ends first (the bytes that were available have been moved to `sink`).
  void readFully(Buffer& sink, int64_t byteCount);

  // Moves every remaining byte to `sink`, a segment at a time; returns the number moved.
  int64_t readAll(Sink& sink);

  // Removes all bytes to the end of the stream and returns them as a string.
  std::string readUtf8();

  // Removes exactly `byteCount` bytes and returns them as a string. Throws EOFException,
  // consuming nothing, if fewer remain.
  std::string readUtf8(int64_t byteCount);

  // Removes and returns the next line, without its "\n" or "\r\n" terminator. At the end of the
  // stream returns the remaining bytes (if any) as the last line, then std::nullopt. Reads until
  // a newline however far away it is: for input from a peer use readUtf8LineStrict(limit).
  std::optional<std::string> readUtf8Line();

  // Like readUtf8LineStrict(limit) with no limit.
  std::string readUtf8LineStrict();

  // Removes and returns the next line, without its "\n" or "\r\n" terminator, if it holds at
  // most `limit` bytes (terminator excluded). Otherwise — the line is longer, or the stream ends
  // without a newline — throws EOFException("\n not found: limit=... content=<hex>…"),
  // consuming nothing. Buffers at most limit + 2 bytes (plus one segment of read-ahead), so a
  // peer cannot make it buffer an endless line. Throws std::invalid_argument if `limit` is
  // negative.
  std::string readUtf8LineStrict(int64_t limit);

  // The offset in buffer() of the first `b` in [fromIndex, toIndex), reading from the source
  // as needed (but never past toIndex); -1 if the stream ends first. Consumes nothing.
  int64_t indexOf(std::byte b, int64_t fromIndex = 0,
                  int64_t toIndex = std::numeric_limits<int64_t>::max());

  // The offset in buffer() of the first occurrence of `bytes` at or after `fromIndex`, reading
  // from the source as needed; -1 if the stream ends first. Throws std::invalid_argument if
  // `bytes` is empty. Consumes nothing.
  int64_t indexOf(std::string_view bytes, int64_t fromIndex = 0);

  // True if the bytes at `offset` in the stream equal `bytes` (reading as needed); false if they
  // differ or the stream ends first. Consumes nothing.
  bool rangeEquals(int64_t offset, std::string_view bytes);

  // A new source that reads the bytes ahead of this one without consuming them (Okio's peek()):
  // bytes it reads are buffered here, so this source still returns them afterwards. It is valid
  // only until this source is next read, skipped or closed; after that its results are
  // unspecified (but never out of bounds). It must not outlive this source.
  std::unique_ptr<BufferedSource> peek();
};

// A BufferedSource that reads from `source` and owns it. Closing the result closes `source`.
// Throws std::invalid_argument if `source` is null.
TERN_API std::unique_ptr<BufferedSource> buffer(std::unique_ptr<Source> source);

// A BufferedSource that reads from `source` without owning it: `source` must outlive the
// result. Closing the result still closes `source` (Okio's semantics); destroying it does not.
TERN_API std::unique_ptr<BufferedSource> buffer(Source& source);

}  // namespace tern
