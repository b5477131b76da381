// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#include "io/deflate_source.h"

#include <stdexcept>
#include <string>

#include "tern/buffer.h"
#include "tern/exceptions.h"

namespace tern::internal {
namespace {

// RFC 1950 §2.2: CM (the low nibble of CMF) is 8 for DEFLATE, CINFO (its high nibble) at most 7
// (a 32 KiB window), and CMF * 256 + FLG is a multiple of 31. A raw DEFLATE stream's first two
// bytes pass this check by chance rarely, and zlib itself has made the same guess since 1.2.
bool isZlibHeader(BufferedSource& source) {
  if (!source.request(2)) return false;
  auto cmf = static_cast<unsigned>(source.buffer().getByte(0));
  auto flg = static_cast<unsigned>(source.buffer().getByte(1));
  return (cmf & 0x0f) == 8 && (cmf >> 4) <= 7 && (cmf * 256 + flg) % 31 == 0;
}

}  // namespace

DeflateSource::DeflateSource(std::unique_ptr<Source> source)
    : source_(tern::buffer(std::move(source))) {}

DeflateSource::~DeflateSource() = default;

int64_t DeflateSource::read(Buffer& sink, int64_t byteCount) {
  if (byteCount < 0) throw std::invalid_argument("byteCount < 0: " + std::to_string(byteCount));
  if (finished_) return -1;
  if (!inflater_) {
    auto format =
        isZlibHeader(*source_) ? InflaterSource::Format::kZlib : InflaterSource::Format::kRaw;
    inflater_ = std::make_unique<InflaterSource>(*source_, format);
  }
  int64_t read = inflater_->read(sink, byteCount);
  if (read == -1) {
    finished_ = true;
    if (!source_->exhausted()) throw IOException("deflate finished without exhausting source");
  }
  return read;
}

Timeout& DeflateSource::timeout() { return source_->timeout(); }

void DeflateSource::close() { source_->close(); }

}  // namespace tern::internal
