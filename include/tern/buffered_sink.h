// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string_view>

#include "tern/export.h"
#include "tern/sink.h"

namespace tern {

class Source;

// A Sink that collects writes in an internal Buffer and passes them to the underlying sink a
// whole segment at a time, as Okio's BufferedSink. RequestBody::writeTo() receives one.
//
// Implementations provide buffer(), emitCompleteSegments() and emit() (plus Sink's write(),
// flush(), timeout() and close()); every writing method below is written once on top of them:
// it appends to buffer(), then calls emitCompleteSegments(). Buffer is itself a BufferedSink
// (writes simply accumulate in it), and tern::buffer() wraps any Sink.
//
// Bytes written by the methods below reach the underlying sink only as whole segments, on
// emit(), on flush() or on close(). Destroying a BufferedSink without flush() or close() drops
// what is still buffered. Multi-byte integers are big-endian unless the name ends in Le.
// Methods return *this for chaining. Not thread-safe.
class TERN_API BufferedSink : public Sink {
 public:
  using Sink::write;

  // The bytes written to this sink and not yet passed to the underlying sink. Writing to it
  // directly is allowed; call emitCompleteSegments() afterwards.
  virtual Buffer& buffer() = 0;

  // Passes every complete segment of buffer() to the underlying sink, keeping the partial tail.
  // Throws std::logic_error if the sink was closed.
  virtual BufferedSink& emitCompleteSegments() = 0;

  // Passes all of buffer() to the underlying sink, without flushing it. Use it to bound memory
  // when writing in a loop; use flush() when the bytes must reach their destination now.
  virtual BufferedSink& emit() = 0;

  // Appends `bytes`.
  BufferedSink& write(std::span<const std::byte> bytes);

  // Appends `byteCount` bytes starting at `data`.
  BufferedSink& write(const void* data, size_t byteCount);

  // Removes exactly `byteCount` bytes from `source` and appends them. Throws EOFException if
  // `source` ends first (the bytes read before that are kept).
  BufferedSink& write(Source& source, int64_t byteCount);

  // Removes every byte from `source` and appends it; returns the number of bytes read.
  int64_t writeAll(Source& source);

  // Appends `string`'s bytes unchanged (no encoding; the caller supplies UTF-8).
  BufferedSink& writeUtf8(std::string_view string);

  // Appends one byte.
  BufferedSink& writeByte(std::byte b);

  // Append a 16-bit (the low bits of `s`), 32-bit or 64-bit integer, big-endian or (Le)
  // little-endian.
  BufferedSink& writeShort(int32_t s);
  BufferedSink& writeShortLe(int32_t s);
  BufferedSink& writeInt(int32_t i);
  BufferedSink& writeIntLe(int32_t i);
  BufferedSink& writeLong(int64_t v);
  BufferedSink& writeLongLe(int64_t v);

  // Appends `v` in decimal ASCII, with a leading '-' if negative ("-9223372036854775808").
  BufferedSink& writeDecimalLong(int64_t v);

  // Appends `v` in lowercase hexadecimal ASCII without leading zeros ("0" for zero).
  BufferedSink& writeHexadecimalUnsignedLong(uint64_t v);
};

// A BufferedSink that writes to `sink` and owns it. Closing the result flushes and closes
// `sink`. Throws std::invalid_argument if `sink` is null.
TERN_API std::unique_ptr<BufferedSink> buffer(std::unique_ptr<Sink> sink);

// A BufferedSink that writes to `sink` without owning it: `sink` must outlive the result.
// Closing the result still closes `sink` (Okio's semantics); destroying it does not.
TERN_API std::unique_ptr<BufferedSink> buffer(Sink& sink);

}  // namespace tern
