// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#include "io/zstd_source.h"

#include <zstd.h>

#include <algorithm>
#include <new>
#include <stdexcept>
#include <string>

#include "tern/buffer.h"
#include "tern/exceptions.h"

namespace tern::internal {

// Owns libzstd's decompression context: the RAII boundary to libzstd.
struct ZstdDecoder {
  ZstdDecoder() : context(ZSTD_createDCtx()) {
    if (context == nullptr) throw std::bad_alloc();
  }
  ~ZstdDecoder() { ZSTD_freeDCtx(context); }
  ZstdDecoder(const ZstdDecoder&) = delete;
  ZstdDecoder& operator=(const ZstdDecoder&) = delete;

  ZSTD_DCtx* const context;
};

namespace {

// RFC 8878 §3.1.1: a frame's magic number, and §3.1.2: skippable frames' 0x184D2A5?, both
// little-endian.
constexpr uint32_t kFrameMagic = 0xFD2FB528;
constexpr uint32_t kSkippableMagicMask = 0xFFFFFFF0;
constexpr uint32_t kSkippableMagic = 0x184D2A50;

}  // namespace

ZstdSource::ZstdSource(std::unique_ptr<Source> source)
    : source_(tern::buffer(std::move(source))), decoder_(std::make_unique<ZstdDecoder>()) {
  size_t set = ZSTD_DCtx_setParameter(decoder_->context, ZSTD_d_windowLogMax, kMaxWindowLog);
  if (ZSTD_isError(set)) throw std::runtime_error(ZSTD_getErrorName(set));
}

ZstdSource::~ZstdSource() = default;

bool ZstdSource::nextFrameFollows() {
  if (source_->exhausted()) return false;
  if (source_->request(4)) {
    Buffer& buffer = source_->buffer();
    uint32_t magic = 0;
    for (int i = 3; i >= 0; --i) magic = (magic << 8) | static_cast<uint8_t>(buffer.getByte(i));
    if (magic == kFrameMagic || (magic & kSkippableMagicMask) == kSkippableMagic) return true;
  }
  throw IOException("zstd finished without exhausting source");
}

int64_t ZstdSource::read(Buffer& sink, int64_t byteCount) {
  if (byteCount < 0) throw std::invalid_argument("byteCount < 0: " + std::to_string(byteCount));
  if (closed_) throw std::logic_error("closed");
  if (finished_) return -1;
  if (byteCount == 0) return 0;

  Buffer& input = source_->buffer();
  while (true) {
    if (!inFrame_) {
      // Between frames (or before the first): the stream may end here and only here. The first
      // frame's magic is left to libzstd, whose message for a wrong one is the clearer.
      if (framesDone_ == 0 ? source_->exhausted() : !nextFrameFollows()) {
        finished_ = true;
        return -1;
      }
      inFrame_ = true;
    }

    // With no input buffered this still calls the decoder: it may hold decoded bytes that did not
    // fit in the last read.
    std::span<const std::byte> in;
    if (input.size() > 0) in = input.readableSegment(0);
    ZSTD_inBuffer inBuffer{in.data(), in.size(), 0};
    std::span<std::byte> out = sink.writableSegment(1);
    size_t room = std::min<size_t>(out.size(), static_cast<size_t>(byteCount));
    ZSTD_outBuffer outBuffer{out.data(), room, 0};

    size_t result = ZSTD_decompressStream(decoder_->context, &outBuffer, &inBuffer);
    sink.commitWrite(outBuffer.pos);
    if (inBuffer.pos > 0) input.skip(static_cast<int64_t>(inBuffer.pos));
    if (ZSTD_isError(result)) {
      throw IOException(std::string("zstd decoding failed: ") + ZSTD_getErrorName(result));
    }
    if (result == 0) {
      // The frame is completely decoded and flushed (its checksum checked if it has one); the
      // next read looks for another frame.
      inFrame_ = false;
      ++framesDone_;
    }
    if (outBuffer.pos > 0) return static_cast<int64_t>(outBuffer.pos);
    if (inFrame_ && input.size() == 0 && !source_->request(1)) {
      throw EOFException("zstd stream truncated");
    }
  }
}

Timeout& ZstdSource::timeout() { return source_->timeout(); }

void ZstdSource::close() {
  if (closed_) return;
  closed_ = true;
  source_->close();
}

}  // namespace tern::internal
