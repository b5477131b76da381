// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstdint>
#include <memory>

#include "io/inflater_source.h"
#include "tern/buffered_source.h"
#include "tern/source.h"

namespace tern::internal {

// A Source that decompresses a gzip stream (RFC 1952) read from another source, as Okio's
// GzipSource: what the bridge wraps around a body with "Content-Encoding: gzip".
//
// The header is parsed by hand (its optional FEXTRA, FNAME, FCOMMENT and FHCRC fields are
// skipped, the header CRC checked), the DEFLATE data inflated by zlib, and the trailer's CRC-32
// and length checked against what was inflated. A gzip stream of several members (RFC 1952
// §2.2, e.g. from concatenated files) is read as one. Throws IOException on corrupt input: the
// name of the failed check as Okio writes it ("ID1ID2: actual 0x... != expected 0x8b1f",
// "CRC: actual 0x... != expected 0x...", "ISIZE: ..."), "gzip finished without exhausting
// source" for bytes after the last member that are not another member, or EOFException if the
// stream ends early. Not thread-safe.
class GzipSource final : public Source {
 public:
  // Reads from `source` and owns it. Throws std::invalid_argument if `source` is null.
  explicit GzipSource(std::unique_ptr<Source> source);

  // Reads from `source` without owning it; `source` must outlive this.
  explicit GzipSource(Source& source);

  ~GzipSource() override;
  GzipSource(const GzipSource&) = delete;
  GzipSource& operator=(const GzipSource&) = delete;

  int64_t read(Buffer& sink, int64_t byteCount) override;
  Timeout& timeout() override;
  void close() override;

 private:
  enum class Section { kHeader, kBody, kTrailer, kDone };

  void consumeHeader();
  void consumeTrailer();

  std::unique_ptr<BufferedSource> source_;
  std::unique_ptr<InflaterSource> inflater_;  // One per member.
  Section section_ = Section::kHeader;
  uint32_t crc_ = 0;   // CRC-32 of the member's inflated bytes so far.
  uint32_t size_ = 0;  // Their count, modulo 2^32 (ISIZE).
};

}  // namespace tern::internal
