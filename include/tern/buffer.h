// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string_view>
#include <vector>

#include "tern/buffered_sink.h"
#include "tern/buffered_source.h"
#include "tern/export.h"

namespace tern {

namespace internal {
struct Segment;
}  // namespace internal

// A growable queue of bytes held in fixed-size segments (kSegmentSize bytes each), as Okio's
// Buffer. Bytes are written at the tail and read from the head.
//
// Moving bytes between buffers (write(Buffer&, n), read(Buffer&, n), and so every Source and
// Sink) moves whole segments: their bytes are not copied. Only where a segment must be divided
// are bytes copied, and then only the smaller part (at most half a segment); small moves into
// a tail with room are copied to keep segments full. Segments are never shared between buffers.
//
// A Buffer is both a BufferedSource (reading consumes its bytes) and a BufferedSink (writes
// append), so it can stand in wherever either is expected: RequestBody::writeTo(buffer) collects
// a body, and a ResponseBody can read from a Buffer. Its timeout() is Timeout::none(), and
// flush(), emit() and close() do nothing.
//
// Being both, a Buffer passed to tern::buffer() must be cast to the side meant: Source& or
// Sink&.
//
// Move-only: copying a buffer copies all its bytes, so it is explicit (copy()). A moved-from
// buffer is empty. Not thread-safe.
class TERN_API Buffer final : public BufferedSource, public BufferedSink {
 public:
  // The capacity of one segment.
  static constexpr size_t kSegmentSize = 8192;

  // An empty buffer. Allocates nothing until the first write.
  Buffer();
  ~Buffer() override;
  Buffer(Buffer&& other) noexcept;
  Buffer& operator=(Buffer&& other) noexcept;
  Buffer(const Buffer&) = delete;
  Buffer& operator=(const Buffer&) = delete;

  // A new buffer holding a copy of this buffer's bytes (Okio's clone()).
  Buffer copy() const;

  // The number of bytes in this buffer.
  int64_t size() const noexcept { return size_; }

  // Discards every byte.
  void clear() noexcept;

  // The byte at `pos` without consuming it. Throws std::out_of_range unless 0 <= pos < size().
  std::byte getByte(int64_t pos) const;

  // The number of bytes in full segments: what a BufferedSink may emit without sending a
  // partial segment downstream.
  int64_t completeSegmentByteCount() const noexcept;

  // Appends a copy of the `byteCount` bytes at `offset` to `out` (which may be this buffer).
  // Consumes nothing. Throws std::out_of_range unless the range lies within this buffer.
  void copyTo(Buffer& out, int64_t offset, int64_t byteCount) const;

  // Appends a copy of the bytes from `offset` to the end to `out`.
  void copyTo(Buffer& out, int64_t offset = 0) const;

  // A copy of every byte, without consuming them.
  std::vector<std::byte> snapshot() const;

  // True if both buffers hold the same bytes (however they are segmented).
  bool operator==(const Buffer& other) const;

  // Zero-copy access for the socket layer ------------------------------------------------------

  // The number of segments holding bytes, for writev(). readableSegment(i) for i in
  // [0, segmentCount()) are the bytes in order. The views stay valid until the buffer is next
  // modified; after writing them out, call skip() with the number written.
  size_t segmentCount() const noexcept;

  // The readable bytes of segment `index`. Throws std::out_of_range unless index <
  // segmentCount().
  std::span<const std::byte> readableSegment(size_t index) const;

  // Free space at the tail, at least `minCapacity` bytes (1..kSegmentSize) long, into which the
  // caller may read() from a socket. Appends a new segment if the tail has too little room.
  // Follow with commitWrite(n) for the n bytes actually written (0 if none); any other operation
  // on the buffer in between invalidates the span. Throws std::invalid_argument if
  // `minCapacity` is out of range.
  std::span<std::byte> writableSegment(size_t minCapacity);

  // Free space at the tail for a scatter read (readv) of up to `byteCount` bytes: the last
  // segment's free space, then as many new empty segments as it takes, at most out.size() spans
  // in all. Returns how many spans of `out` it filled. Follow with commitWrite(n) for the n bytes
  // actually written into them, in order. Throws std::invalid_argument if `out` is empty or
  // byteCount is 0.
  size_t writableSegments(std::span<std::span<std::byte>> out, size_t byteCount);

  // Adds the first `byteCount` bytes of the space from writableSegment() or writableSegments()
  // to the buffer, and drops the segments left empty. Throws std::invalid_argument if that space
  // was smaller.
  void commitWrite(size_t byteCount);

  // Source / BufferedSource ---------------------------------------------------------------------

  using BufferedSource::read;

  // Moves up to `byteCount` bytes to `sink`; -1 if this buffer is empty.
  int64_t read(Buffer& sink, int64_t byteCount) override;

  // True if size() >= byteCount: a buffer has no source to read more from.
  bool request(int64_t byteCount) override;

  // This buffer.
  Buffer& buffer() override { return *this; }

  // Timeout::none(): a buffer never blocks.
  Timeout& timeout() override;

  // Does nothing; the buffer stays usable.
  void close() override {}

  // Sink / BufferedSink -------------------------------------------------------------------------

  using BufferedSink::write;

  // Moves `byteCount` bytes from the head of `source` to the tail of this buffer, moving whole
  // segments. Throws std::invalid_argument if `source` is this buffer or holds fewer bytes.
  void write(Buffer& source, int64_t byteCount) override;

  // Does nothing: the bytes are already here.
  void flush() override {}
  Buffer& emitCompleteSegments() override { return *this; }
  Buffer& emit() override { return *this; }

 private:
  friend class BufferedSource;
  friend class BufferedSink;

  // Primitives the reading and writing methods are built on. Callers check sizes first.
  void readInto(std::byte* out, size_t byteCount);  // Copies and consumes byteCount bytes.
  void discard(int64_t byteCount);                  // Consumes byteCount (<= size) bytes.
  void append(const std::byte* data, size_t byteCount);
  int64_t scan(std::byte b, int64_t fromIndex, int64_t toIndex) const;
  int64_t scan(std::string_view bytes, int64_t fromIndex) const;
  bool matches(int64_t offset, std::string_view bytes) const;

  internal::Segment& head() const;
  internal::Segment* tail() const;
  void popHead();
  void dropTail();  // Removes the last segment, which holds no bytes.
  void pushTail(std::unique_ptr<internal::Segment> segment);

  // segments_[head_..] hold the bytes; slots before head_ are spent and reclaimed lazily, so
  // removing the head is O(1) without a deque's up-front allocation. Only trailing segments may
  // be empty (between writableSegment(s)() and commitWrite()).
  std::vector<std::unique_ptr<internal::Segment>> segments_;
  size_t head_ = 0;
  int64_t size_ = 0;
  // The segment where the space of the last writableSegment(s)() starts, until commitWrite().
  static constexpr size_t kNoWrite = static_cast<size_t>(-1);
  size_t writeFrom_ = kNoWrite;
};

}  // namespace tern
