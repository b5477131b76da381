// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#pragma once

#include <zlib.h>

#include <string>

namespace tern::internal {

// Owns a zlib z_stream set up for inflating or deflating, and ends it on destruction: the RAII
// boundary to zlib for InflaterSource, GzipSource and GzipSink. Not thread-safe; not movable
// (zlib keeps a pointer back to the z_stream).
struct ZStream {
  enum class Mode { kInflate, kDeflate };

  // inflateInit2 or deflateInit2 with `windowBits` (negative: raw; 8..15: zlib; +16: gzip) and,
  // for deflate, compression `level`. Throws std::runtime_error if zlib cannot allocate.
  ZStream(Mode mode, int windowBits, int level = Z_DEFAULT_COMPRESSION);
  ~ZStream();
  ZStream(const ZStream&) = delete;
  ZStream& operator=(const ZStream&) = delete;

  // zlib's message for the last error, or the error code's name if zlib gave none.
  std::string message(int code) const;

  z_stream stream{};
  const Mode mode;
};

}  // namespace tern::internal
