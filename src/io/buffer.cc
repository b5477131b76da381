// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#include "tern/buffer.h"

#include <algorithm>
#include <cstring>
#include <stdexcept>
#include <string>
#include <utility>

#include "io/segment.h"

namespace tern {

using internal::Segment;

namespace {

// Below this many spent slots at the front of the segment vector, reclaiming them is not worth
// moving the live pointers down.
constexpr size_t kReclaimThreshold = 16;

// Appends `byteCount` bytes to `segment`, first sliding its bytes to the front if they would not
// fit after `limit`. The caller has checked that readable() + byteCount <= kSize.
void appendToSegment(Segment& segment, const std::byte* data, size_t byteCount) {
  if (segment.limit + byteCount > Segment::kSize) {
    std::memmove(segment.data, segment.data + segment.pos, segment.readable());
    segment.limit -= segment.pos;
    segment.pos = 0;
  }
  std::memcpy(segment.data + segment.limit, data, byteCount);
  segment.limit += byteCount;
}

}  // namespace

Buffer::Buffer() = default;

Buffer::~Buffer() = default;

Buffer::Buffer(Buffer&& other) noexcept
    : segments_(std::exchange(other.segments_, {})),
      head_(std::exchange(other.head_, 0)),
      size_(std::exchange(other.size_, 0)),
      writeFrom_(std::exchange(other.writeFrom_, kNoWrite)) {}

Buffer& Buffer::operator=(Buffer&& other) noexcept {
  if (this != &other) {
    segments_ = std::exchange(other.segments_, {});
    head_ = std::exchange(other.head_, 0);
    size_ = std::exchange(other.size_, 0);
    writeFrom_ = std::exchange(other.writeFrom_, kNoWrite);
  }
  return *this;
}

Buffer Buffer::copy() const {
  Buffer result;
  copyTo(result);
  return result;
}

void Buffer::clear() noexcept {
  segments_.clear();
  head_ = 0;
  size_ = 0;
  writeFrom_ = kNoWrite;
}

Segment& Buffer::head() const { return *segments_[head_]; }

Segment* Buffer::tail() const {
  return head_ < segments_.size() ? segments_.back().get() : nullptr;
}

void Buffer::popHead() {
  segments_[head_].reset();
  ++head_;
  if (head_ == segments_.size()) {
    segments_.clear();
    head_ = 0;
  } else if (head_ >= kReclaimThreshold && head_ * 2 >= segments_.size()) {
    segments_.erase(segments_.begin(), segments_.begin() + static_cast<ptrdiff_t>(head_));
    head_ = 0;
  }
}

void Buffer::dropTail() {
  segments_.pop_back();
  if (segments_.size() == head_) {
    segments_.clear();
    head_ = 0;
  }
}

void Buffer::pushTail(std::unique_ptr<Segment> segment) {
  // Empty tails are leftovers of writableSegment(s)(); a segment after them would break the rule
  // that only trailing segments may be empty.
  while (Segment* last = tail()) {
    if (last->readable() != 0) break;
    dropTail();
  }
  // Okio's compaction: if the new segment fits in the space around the current tail's bytes,
  // copy it there instead, so a chain of small moves cannot leave many half-empty segments.
  if (Segment* last = tail();
      last != nullptr && segment->readable() <= Segment::kSize - last->readable()) {
    appendToSegment(*last, segment->data + segment->pos, segment->readable());
    return;
  }
  segments_.push_back(std::move(segment));
}

std::byte Buffer::getByte(int64_t pos) const {
  if (pos < 0 || pos >= size_) {
    throw std::out_of_range("Buffer::getByte: pos=" + std::to_string(pos) +
                            " outside [0, size=" + std::to_string(size_) + ")");
  }
  // Walk from whichever end is nearer.
  if (pos < size_ / 2) {
    for (size_t i = head_;; ++i) {
      const Segment& s = *segments_[i];
      if (pos < static_cast<int64_t>(s.readable())) {
        return s.data[s.pos + pos];
      }
      pos -= static_cast<int64_t>(s.readable());
    }
  }
  int64_t fromEnd = size_ - pos;  // >= 1
  for (size_t i = segments_.size() - 1;; --i) {
    const Segment& s = *segments_[i];
    if (fromEnd <= static_cast<int64_t>(s.readable())) {
      return s.data[s.limit - static_cast<size_t>(fromEnd)];
    }
    fromEnd -= static_cast<int64_t>(s.readable());
  }
}

int64_t Buffer::completeSegmentByteCount() const noexcept {
  if (size_ == 0) {
    return 0;
  }
  const Segment& last = *segments_.back();
  return last.limit < Segment::kSize ? size_ - static_cast<int64_t>(last.readable()) : size_;
}

void Buffer::copyTo(Buffer& out, int64_t offset, int64_t byteCount) const {
  if (offset < 0 || byteCount < 0 || offset > size_ || byteCount > size_ - offset) {
    throw std::out_of_range("Buffer::copyTo: offset=" + std::to_string(offset) + " byteCount=" +
                            std::to_string(byteCount) + " size=" + std::to_string(size_));
  }
  if (&out == this) {
    Buffer copied;
    copyTo(copied, offset, byteCount);
    out.write(copied, copied.size());
    return;
  }
  for (size_t i = head_; i < segments_.size() && byteCount > 0; ++i) {
    const Segment& s = *segments_[i];
    auto readable = static_cast<int64_t>(s.readable());
    if (offset >= readable) {
      offset -= readable;
      continue;
    }
    auto n = static_cast<size_t>(std::min(readable - offset, byteCount));
    out.append(s.data + s.pos + offset, n);
    byteCount -= static_cast<int64_t>(n);
    offset = 0;
  }
}

void Buffer::copyTo(Buffer& out, int64_t offset) const {
  if (offset < 0 || offset > size_) {
    throw std::out_of_range("Buffer::copyTo: offset=" + std::to_string(offset) +
                            " size=" + std::to_string(size_));
  }
  copyTo(out, offset, size_ - offset);
}

std::vector<std::byte> Buffer::snapshot() const {
  std::vector<std::byte> result;
  result.reserve(static_cast<size_t>(size_));
  for (size_t i = head_; i < segments_.size(); ++i) {
    const Segment& s = *segments_[i];
    result.insert(result.end(), s.data + s.pos, s.data + s.limit);
  }
  return result;
}

bool Buffer::operator==(const Buffer& other) const {
  if (size_ != other.size_) {
    return false;
  }
  size_t i = head_, j = other.head_;
  size_t posA = 0, posB = 0;  // Offsets within the current readable ranges.
  int64_t remaining = size_;
  while (remaining > 0) {
    const Segment& a = *segments_[i];
    const Segment& b = *other.segments_[j];
    size_t n = std::min(a.readable() - posA, b.readable() - posB);
    if (std::memcmp(a.data + a.pos + posA, b.data + b.pos + posB, n) != 0) {
      return false;
    }
    posA += n;
    posB += n;
    remaining -= static_cast<int64_t>(n);
    if (posA == a.readable()) {
      ++i;
      posA = 0;
    }
    if (posB == b.readable()) {
      ++j;
      posB = 0;
    }
  }
  return true;
}

size_t Buffer::segmentCount() const noexcept { return segments_.size() - head_; }

std::span<const std::byte> Buffer::readableSegment(size_t index) const {
  if (index >= segmentCount()) {
    throw std::out_of_range("Buffer::readableSegment: index=" + std::to_string(index) +
                            " segmentCount=" + std::to_string(segmentCount()));
  }
  const Segment& s = *segments_[head_ + index];
  return {s.data + s.pos, s.readable()};
}

std::span<std::byte> Buffer::writableSegment(size_t minCapacity) {
  if (minCapacity < 1 || minCapacity > kSegmentSize) {
    throw std::invalid_argument(
        "Buffer::writableSegment: minCapacity=" + std::to_string(minCapacity) + " outside [1, " +
        std::to_string(kSegmentSize) + "]");
  }
  Segment* last = tail();
  if (last == nullptr || last->writable() < minCapacity) {
    segments_.push_back(Segment::make());
    last = segments_.back().get();
  }
  writeFrom_ = segments_.size() - 1;
  return {last->data + last->limit, last->writable()};
}

size_t Buffer::writableSegments(std::span<std::span<std::byte>> out, size_t byteCount) {
  if (out.empty() || byteCount == 0) {
    throw std::invalid_argument(
        "Buffer::writableSegments: no room asked for (spans=" + std::to_string(out.size()) +
        ", byteCount=" + std::to_string(byteCount) + ")");
  }
  size_t count = 0;
  size_t room = 0;
  writeFrom_ = segments_.size();
  if (Segment* last = tail(); last != nullptr && last->writable() > 0) {
    writeFrom_ = segments_.size() - 1;
    out[count++] = {last->data + last->limit, last->writable()};
    room += last->writable();
  }
  while (room < byteCount && count < out.size()) {
    segments_.push_back(Segment::make());
    Segment& added = *segments_.back();
    out[count++] = {added.data, added.writable()};
    room += added.writable();
  }
  return count;
}

void Buffer::commitWrite(size_t byteCount) {
  // Where the space handed out starts; without a writableSegment(s)() before, the tail's room.
  size_t first = writeFrom_;
  writeFrom_ = kNoWrite;
  if (first < head_ || first >= segments_.size()) {
    first = segments_.empty() ? 0 : segments_.size() - 1;
  }
  size_t free = 0;
  for (size_t i = first; i < segments_.size(); ++i) free += segments_[i]->writable();
  if (byteCount > free) {
    throw std::invalid_argument("Buffer::commitWrite: byteCount=" + std::to_string(byteCount) +
                                " exceeds the writable segments' " + std::to_string(free) +
                                " free bytes");
  }
  size_ += static_cast<int64_t>(byteCount);
  for (size_t i = first; i < segments_.size() && byteCount > 0; ++i) {
    size_t n = std::min(byteCount, segments_[i]->writable());
    segments_[i]->limit += n;
    byteCount -= n;
  }
  while (Segment* last = tail()) {  // Those left empty go.
    if (last->readable() != 0) break;
    dropTail();
  }
}

int64_t Buffer::read(Buffer& sink, int64_t byteCount) {
  if (byteCount < 0) {
    throw std::invalid_argument("Buffer::read: byteCount < 0: " + std::to_string(byteCount));
  }
  if (size_ == 0) {
    return -1;
  }
  int64_t n = std::min(byteCount, size_);
  sink.write(*this, n);
  return n;
}

bool Buffer::request(int64_t byteCount) {
  if (byteCount < 0) {
    throw std::invalid_argument("Buffer::request: byteCount < 0: " + std::to_string(byteCount));
  }
  return size_ >= byteCount;
}

Timeout& Buffer::timeout() { return Timeout::none(); }

void Buffer::write(Buffer& source, int64_t byteCount) {
  if (&source == this) {
    throw std::invalid_argument("Buffer::write: source == this");
  }
  if (byteCount < 0 || byteCount > source.size_) {
    throw std::invalid_argument("Buffer::write: byteCount=" + std::to_string(byteCount) +
                                " outside [0, source.size=" + std::to_string(source.size_) + "]");
  }
  while (byteCount > 0) {
    Segment& from = source.head();
    auto headBytes = static_cast<int64_t>(from.readable());

    if (byteCount < headBytes) {
      // Only part of the source's head moves.
      auto n = static_cast<size_t>(byteCount);
      Segment* last = tail();
      if (last != nullptr && last->readable() + n <= Segment::kSize) {
        // It fits in our tail: copying a partial segment is cheaper than dividing it.
        appendToSegment(*last, from.data + from.pos, n);
        from.pos += n;
      } else {
        // Divide the head, copying the smaller part into a new segment.
        std::unique_ptr<Segment> part = Segment::make();
        size_t rest = from.readable() - n;
        std::unique_ptr<Segment> moving;
        if (n <= rest) {
          std::memcpy(part->data, from.data + from.pos, n);
          part->limit = n;
          from.pos += n;
          moving = std::move(part);
        } else {
          std::memcpy(part->data, from.data + from.pos + n, rest);
          part->limit = rest;
          from.limit = from.pos + n;
          moving = std::exchange(source.segments_[source.head_], std::move(part));
        }
        pushTail(std::move(moving));
      }
      source.size_ -= byteCount;
      size_ += byteCount;
      return;
    }

    // The whole head segment moves: no bytes are copied (unless pushTail() compacts it into a
    // tail with room, which Okio also does).
    std::unique_ptr<Segment> moving = std::move(source.segments_[source.head_]);
    source.popHead();
    source.size_ -= headBytes;
    size_ += headBytes;
    byteCount -= headBytes;
    pushTail(std::move(moving));
  }
}

void Buffer::readInto(std::byte* out, size_t byteCount) {
  while (byteCount > 0) {
    Segment& s = head();
    size_t n = std::min(byteCount, s.readable());
    std::memcpy(out, s.data + s.pos, n);
    out += n;
    byteCount -= n;
    s.pos += n;
    size_ -= static_cast<int64_t>(n);
    if (s.pos == s.limit) {
      popHead();
    }
  }
}

void Buffer::discard(int64_t byteCount) {
  while (byteCount > 0) {
    Segment& s = head();
    auto n = static_cast<size_t>(std::min(byteCount, static_cast<int64_t>(s.readable())));
    byteCount -= static_cast<int64_t>(n);
    s.pos += n;
    size_ -= static_cast<int64_t>(n);
    if (s.pos == s.limit) {
      popHead();
    }
  }
}

void Buffer::append(const std::byte* data, size_t byteCount) {
  while (byteCount > 0) {
    Segment* last = tail();
    if (last == nullptr || last->writable() == 0) {
      segments_.push_back(Segment::make());
      last = segments_.back().get();
    }
    size_t n = std::min(byteCount, last->writable());
    std::memcpy(last->data + last->limit, data, n);
    last->limit += n;
    size_ += static_cast<int64_t>(n);
    data += n;
    byteCount -= n;
  }
}

int64_t Buffer::scan(std::byte b, int64_t fromIndex, int64_t toIndex) const {
  fromIndex = std::max<int64_t>(fromIndex, 0);
  toIndex = std::min(toIndex, size_);
  if (fromIndex >= toIndex) {
    return -1;
  }
  int64_t offset = 0;  // Offset of segment i's first readable byte.
  for (size_t i = head_; i < segments_.size() && offset < toIndex; ++i) {
    const Segment& s = *segments_[i];
    auto readable = static_cast<int64_t>(s.readable());
    if (fromIndex < offset + readable) {
      int64_t start = std::max(fromIndex - offset, int64_t{0});
      int64_t end = std::min(toIndex - offset, readable);
      const std::byte* base = s.data + s.pos;
      const void* found =
          std::memchr(base + start, std::to_integer<int>(b), static_cast<size_t>(end - start));
      if (found != nullptr) {
        return offset + (static_cast<const std::byte*>(found) - base);
      }
    }
    offset += readable;
  }
  return -1;
}

int64_t Buffer::scan(std::string_view bytes, int64_t fromIndex) const {
  auto first = static_cast<std::byte>(bytes.front());
  int64_t lastStart = size_ - static_cast<int64_t>(bytes.size());  // Last possible match.
  for (int64_t i = std::max<int64_t>(fromIndex, 0); i <= lastStart; ++i) {
    i = scan(first, i, lastStart + 1);
    if (i == -1) {
      return -1;
    }
    if (matches(i, bytes)) {
      return i;
    }
  }
  return -1;
}

bool Buffer::matches(int64_t offset, std::string_view bytes) const {
  if (offset < 0 || offset > size_ || static_cast<int64_t>(bytes.size()) > size_ - offset) {
    return false;
  }
  size_t matched = 0;
  for (size_t i = head_; i < segments_.size() && matched < bytes.size(); ++i) {
    const Segment& s = *segments_[i];
    auto readable = static_cast<int64_t>(s.readable());
    if (offset >= readable) {
      offset -= readable;
      continue;
    }
    size_t n = std::min(static_cast<size_t>(readable - offset), bytes.size() - matched);
    if (std::memcmp(s.data + s.pos + offset, bytes.data() + matched, n) != 0) {
      return false;
    }
    matched += n;
    offset = 0;
  }
  return true;
}

}  // namespace tern
