// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstdint>
#include <memory>

#include "io/inflater_source.h"
#include "tern/buffered_source.h"
#include "tern/source.h"

namespace tern::internal {

// A Source that decodes HTTP's "deflate" content coding read from another source. RFC 9110
// §8.4.1.2 defines it as the zlib format (RFC 1950), but servers have long sent raw DEFLATE
// (RFC 1951) under that name, so, as curl and browsers do, the first two bytes decide: a valid
// zlib header means zlib (its Adler-32 checked at the end), anything else raw.
//
// Throws what InflaterSource throws for corrupt or truncated data, and IOException("deflate
// finished without exhausting source") for bytes after the end of the stream, as GzipSource
// reports its own trailing bytes. Not thread-safe.
class DeflateSource final : public Source {
 public:
  // Reads from `source` and owns it (closing this closes it). Throws std::invalid_argument if
  // `source` is null.
  explicit DeflateSource(std::unique_ptr<Source> source);

  ~DeflateSource() override;
  DeflateSource(const DeflateSource&) = delete;
  DeflateSource& operator=(const DeflateSource&) = delete;

  int64_t read(Buffer& sink, int64_t byteCount) override;
  Timeout& timeout() override;
  void close() override;

 private:
  std::unique_ptr<BufferedSource> source_;
  std::unique_ptr<InflaterSource> inflater_;  // Made on the first read, once the format is known.
  bool finished_ = false;
};

}  // namespace tern::internal
