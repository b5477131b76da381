// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstdint>

#include "tern/buffered_source.h"

namespace tern::internal {

// Reads the bytes ahead of `upstream` without consuming them (Okio's PeekSource), by copying
// from upstream's buffer and asking upstream to buffer more. Behind BufferedSource::peek().
// Valid until upstream is next consumed; must not outlive it. Not thread-safe.
class PeekSource final : public Source {
 public:
  explicit PeekSource(BufferedSource& upstream) : upstream_(upstream) {}

  int64_t read(Buffer& sink, int64_t byteCount) override;
  Timeout& timeout() override { return upstream_.timeout(); }
  void close() override { closed_ = true; }

 private:
  BufferedSource& upstream_;
  int64_t pos_ = 0;  // Offset in upstream's buffer of the next byte to return.
  bool closed_ = false;
};

}  // namespace tern::internal
