// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstdint>
#include <memory>

#include "tern/buffered_source.h"
#include "tern/source.h"

namespace tern::internal {

struct ZstdDecoder;

// A Source that decompresses Zstandard data (RFC 8878) read from another source: what the bridge
// wraps around a body with "Content-Encoding: zstd". It streams: each read() decodes into at most
// one segment of `sink`. Several frames one after another (and skippable frames) read as one
// stream, as RFC 8878 §3.1 allows.
//
// A frame whose window is over 8 MiB is refused (RFC 9659 §3: HTTP's zstd coding limits the
// window so that a client's memory per response is bounded), so decoding holds at most that
// window and one buffered segment of input.
//
// Throws IOException("zstd decoding failed: <libzstd's message>") on corrupt input (and for a
// frame needing a larger window), EOFException("zstd stream truncated") if the source ends inside
// a frame, and IOException("zstd finished without exhausting source") for bytes after a frame
// that do not start another, as GzipSource reports its own trailing bytes. Not thread-safe.
class ZstdSource final : public Source {
 public:
  // The largest window log accepted: 2^23 bytes = 8 MiB (RFC 9659 §3).
  static constexpr int kMaxWindowLog = 23;

  // Reads from `source` and owns it (closing this closes it). Throws std::invalid_argument if
  // `source` is null.
  explicit ZstdSource(std::unique_ptr<Source> source);

  ~ZstdSource() override;
  ZstdSource(const ZstdSource&) = delete;
  ZstdSource& operator=(const ZstdSource&) = delete;

  int64_t read(Buffer& sink, int64_t byteCount) override;
  Timeout& timeout() override;
  void close() override;

 private:
  // At a frame boundary: true if another frame follows, false at the end of the source. Throws
  // for anything else.
  bool nextFrameFollows();

  std::unique_ptr<BufferedSource> source_;
  std::unique_ptr<ZstdDecoder> decoder_;
  bool inFrame_ = false;  // A frame has begun and not yet been completely decoded and flushed.
  int64_t framesDone_ = 0;
  bool finished_ = false;
  bool closed_ = false;
};

}  // namespace tern::internal
