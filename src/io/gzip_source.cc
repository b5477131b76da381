// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#include "io/gzip_source.h"

#include <zlib.h>

#include <cstdio>
#include <stdexcept>
#include <string>

#include "tern/buffer.h"
#include "tern/exceptions.h"

namespace tern::internal {
namespace {

// RFC 1952 §2.3.1 header flags.
constexpr int kFhcrc = 1;
constexpr int kFextra = 2;
constexpr int kFname = 3;
constexpr int kFcomment = 4;

bool bit(int flags, int index) { return ((flags >> index) & 1) == 1; }

// Okio's checkEqual: "CRC: actual 0x0000abcd != expected 0x12345678".
void checkEqual(const char* name, uint32_t expected, uint32_t actual, int digits = 8) {
  if (expected == actual) {
    return;
  }
  char message[96];
  std::snprintf(message, sizeof(message), "%s: actual 0x%0*x != expected 0x%0*x", name, digits,
                actual, digits, expected);
  throw IOException(message);
}

// Folds `byteCount` bytes of `buffer` starting at `offset` into `crc`.
uint32_t updateCrc(uint32_t crc, const Buffer& buffer, int64_t offset, int64_t byteCount) {
  for (size_t i = 0; i < buffer.segmentCount() && byteCount > 0; ++i) {
    std::span<const std::byte> segment = buffer.readableSegment(i);
    auto size = static_cast<int64_t>(segment.size());
    if (offset >= size) {
      offset -= size;
      continue;
    }
    auto n = std::min(size - offset, byteCount);
    crc = static_cast<uint32_t>(::crc32(
        crc, reinterpret_cast<const Bytef*>(segment.data() + offset), static_cast<uInt>(n)));
    byteCount -= n;
    offset = 0;
  }
  return crc;
}

}  // namespace

GzipSource::GzipSource(std::unique_ptr<Source> source) : source_(tern::buffer(std::move(source))) {}

GzipSource::GzipSource(Source& source) : source_(tern::buffer(source)) {}

GzipSource::~GzipSource() = default;

int64_t GzipSource::read(Buffer& sink, int64_t byteCount) {
  if (byteCount < 0) {
    throw std::invalid_argument("byteCount < 0: " + std::to_string(byteCount));
  }
  if (byteCount == 0) {
    return 0;
  }
  while (true) {
    switch (section_) {
      case Section::kHeader:
        consumeHeader();
        inflater_ = std::make_unique<InflaterSource>(*source_, InflaterSource::Format::kRaw);
        crc_ = 0;
        size_ = 0;
        section_ = Section::kBody;
        break;
      case Section::kBody: {
        int64_t offset = sink.size();
        int64_t read = inflater_->read(sink, byteCount);
        if (read != -1) {
          crc_ = updateCrc(crc_, sink, offset, read);
          size_ += static_cast<uint32_t>(read);  // ISIZE is the length modulo 2^32.
          return read;
        }
        section_ = Section::kTrailer;
        break;
      }
      case Section::kTrailer:
        consumeTrailer();
        // RFC 1952 §2.2: a gzip file is a series of members. Anything else after the trailer
        // means we misread the stream.
        if (source_->exhausted()) {
          section_ = Section::kDone;
        } else if (source_->rangeEquals(0, "\x1f\x8b")) {
          section_ = Section::kHeader;
        } else {
          throw IOException("gzip finished without exhausting source");
        }
        break;
      case Section::kDone:
        return -1;
    }
  }
}

void GzipSource::consumeHeader() {
  // +---+---+---+---+---+---+---+---+---+---+
  // |ID1|ID2|CM |FLG|     MTIME     |XFL|OS |
  // +---+---+---+---+---+---+---+---+---+---+
  source_->require(10);
  Buffer& buffer = source_->buffer();
  auto flags = static_cast<int>(buffer.getByte(3));
  bool fhcrc = bit(flags, kFhcrc);
  uint32_t headerCrc = fhcrc ? updateCrc(0, buffer, 0, 10) : 0;

  checkEqual("ID1ID2", 0x1f8b, static_cast<uint16_t>(source_->readShort()), 4);
  checkEqual("CM", Z_DEFLATED, static_cast<uint32_t>(source_->readByte()), 2);
  source_->skip(7);

  if (bit(flags, kFextra)) {
    source_->require(2);
    if (fhcrc) {
      headerCrc = updateCrc(headerCrc, buffer, 0, 2);
    }
    auto xlen = static_cast<uint16_t>(source_->readShortLe());
    source_->require(xlen);
    if (fhcrc) {
      headerCrc = updateCrc(headerCrc, buffer, 0, xlen);
    }
    source_->skip(xlen);
  }

  // FNAME and FCOMMENT are zero-terminated and unbounded: skip them as they stream in rather
  // than buffering them whole.
  for (int field : {kFname, kFcomment}) {
    if (!bit(flags, field)) {
      continue;
    }
    while (true) {
      source_->require(1);
      int64_t zero = source_->indexOf(std::byte{0}, 0, buffer.size());
      int64_t count = zero == -1 ? buffer.size() : zero + 1;
      if (fhcrc) {
        headerCrc = updateCrc(headerCrc, buffer, 0, count);
      }
      source_->skip(count);
      if (zero != -1) {
        break;
      }
    }
  }

  if (fhcrc) {
    checkEqual("FHCRC", static_cast<uint16_t>(source_->readShortLe()),
               static_cast<uint16_t>(headerCrc), 4);
  }
}

void GzipSource::consumeTrailer() {
  // +---+---+---+---+---+---+---+---+
  // |     CRC32     |     ISIZE     |
  // +---+---+---+---+---+---+---+---+
  checkEqual("CRC", static_cast<uint32_t>(source_->readIntLe()), crc_);
  checkEqual("ISIZE", static_cast<uint32_t>(source_->readIntLe()), size_);
}

Timeout& GzipSource::timeout() { return source_->timeout(); }

void GzipSource::close() {
  if (inflater_) {
    inflater_->close();
  }
  source_->close();
}

}  // namespace tern::internal
