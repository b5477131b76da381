// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstdint>
#include <memory>

#include "tern/buffered_source.h"
#include "tern/source.h"

namespace tern::internal {

struct ZStream;

// A Source that inflates DEFLATE data (RFC 1951) read from another source, as Okio's
// InflaterSource. `format` says whether the data is raw deflate (as inside gzip, and HTTP's
// "Content-Encoding: deflate" as most servers send it) or zlib-wrapped (RFC 1950, what
// "deflate" means by the letter of RFC 9110 §8.4.1.2).
//
// It consumes from the upstream exactly the compressed bytes the stream holds, so whatever
// follows (a gzip trailer) is still there to read. Reading past the end of the compressed stream
// returns -1. Throws IOException("Inflater failed: <zlib message>") on corrupt data and
// EOFException("source exhausted prematurely") if the upstream ends before the stream does.
// Not thread-safe.
class InflaterSource final : public Source {
 public:
  enum class Format { kRaw, kZlib };

  // Reads from `source` without owning it; `source` must outlive this.
  InflaterSource(BufferedSource& source, Format format);

  // Reads from `source` and owns it (closing this closes it). Throws std::invalid_argument if
  // `source` is null.
  InflaterSource(std::unique_ptr<Source> source, Format format);

  ~InflaterSource() override;
  InflaterSource(const InflaterSource&) = delete;
  InflaterSource& operator=(const InflaterSource&) = delete;

  int64_t read(Buffer& sink, int64_t byteCount) override;

  // Inflates into `sink` without ever returning -1: returns 0 when it needs more input it has
  // not read yet, so callers can decide whether to read more (as Okio's readOrInflate).
  int64_t readOrInflate(Buffer& sink, int64_t byteCount);

  // True once the compressed stream has ended.
  bool finished() const noexcept { return finished_; }

  Timeout& timeout() override;
  void close() override;

 private:
  std::unique_ptr<BufferedSource> owned_;
  BufferedSource& source_;
  std::unique_ptr<ZStream> z_;
  bool finished_ = false;
  bool closed_ = false;
};

}  // namespace tern::internal
