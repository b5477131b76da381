// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstdint>
#include <memory>

#include "tern/sink.h"

namespace tern::internal {

struct ZStream;

// A Sink that gzip-compresses (RFC 1952) what is written to it and writes the result to another
// sink, as Okio's GzipSink: for request bodies and for MockWebServer's gzipped responses. The
// header goes out with the first bytes, the trailer (CRC-32 and length) on close(). flush()
// flushes the compressor (Z_SYNC_FLUSH) so the receiver can decompress everything written so
// far. Not thread-safe.
class GzipSink final : public Sink {
 public:
  // Writes to `sink` and owns it (closing this closes it). Throws std::invalid_argument if
  // `sink` is null. `level` is zlib's compression level, 0..9 or -1 for the default.
  explicit GzipSink(std::unique_ptr<Sink> sink, int level = -1);

  // Writes to `sink` without owning it; `sink` must outlive this. close() still closes it.
  explicit GzipSink(Sink& sink, int level = -1);

  ~GzipSink() override;
  GzipSink(const GzipSink&) = delete;
  GzipSink& operator=(const GzipSink&) = delete;

  void write(Buffer& source, int64_t byteCount) override;
  void flush() override;
  Timeout& timeout() override;
  void close() override;

 private:
  void deflate(int flush);  // Compresses pending input into sink_ with zlib's flush mode.

  std::unique_ptr<Sink> owned_;
  Sink& sink_;
  std::unique_ptr<ZStream> z_;
  bool closed_ = false;
};

}  // namespace tern::internal
