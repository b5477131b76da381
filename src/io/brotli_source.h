// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstdint>
#include <memory>

#include "tern/buffered_source.h"
#include "tern/source.h"

namespace tern::internal {

struct BrotliDecoder;

// A Source that decompresses a Brotli stream (RFC 7932) read from another source: what the bridge
// wraps around a body with "Content-Encoding: br". It streams: each read() decodes into at most
// one segment of `sink`, holding only the decoder's window (at most 16 MiB, RFC 7932 §9.1) and
// one buffered segment of input.
//
// Throws IOException("br decoding failed: <libbrotli's error name>") on corrupt input,
// EOFException("br stream truncated") if the source ends before the stream does, and
// IOException("br finished without exhausting source") for bytes after the end of the stream
// (Brotli streams do not concatenate), as GzipSource reports its own trailing bytes. Not
// thread-safe.
class BrotliSource final : public Source {
 public:
  // Reads from `source` and owns it (closing this closes it). Throws std::invalid_argument if
  // `source` is null.
  explicit BrotliSource(std::unique_ptr<Source> source);

  ~BrotliSource() override;
  BrotliSource(const BrotliSource&) = delete;
  BrotliSource& operator=(const BrotliSource&) = delete;

  int64_t read(Buffer& sink, int64_t byteCount) override;
  Timeout& timeout() override;
  void close() override;

 private:
  std::unique_ptr<BufferedSource> source_;
  std::unique_ptr<BrotliDecoder> decoder_;
  bool finished_ = false;
  bool trailerChecked_ = false;  // Whether bytes after the end of the stream were looked for.
  bool closed_ = false;
};

}  // namespace tern::internal
