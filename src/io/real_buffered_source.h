// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstdint>
#include <memory>

#include "tern/buffer.h"
#include "tern/buffered_source.h"

namespace tern::internal {

// The BufferedSource that tern::buffer(Source) returns (Okio's RealBufferedSource): it reads
// from the underlying source a segment at a time into its buffer. Owns the source if given
// `owned`; either way `source` must outlive it. Not thread-safe.
class RealBufferedSource final : public BufferedSource {
 public:
  // `owned` is null or owns `source`.
  RealBufferedSource(std::unique_ptr<Source> owned, Source& source);

  using BufferedSource::read;
  int64_t read(Buffer& sink, int64_t byteCount) override;
  bool request(int64_t byteCount) override;
  Buffer& buffer() override { return buffer_; }
  Timeout& timeout() override;
  void close() override;

 private:
  void checkNotClosed() const;

  std::unique_ptr<Source> owned_;
  Source& source_;
  Buffer buffer_;
  bool closed_ = false;
};

}  // namespace tern::internal
