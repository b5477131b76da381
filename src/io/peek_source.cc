// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#include "io/peek_source.h"

#include <algorithm>
#include <stdexcept>
#include <string>

#include "tern/buffer.h"

namespace tern::internal {

int64_t PeekSource::read(Buffer& sink, int64_t byteCount) {
  if (byteCount < 0) {
    throw std::invalid_argument("peek: byteCount < 0: " + std::to_string(byteCount));
  }
  if (closed_) {
    throw std::logic_error("peek source is closed");
  }
  if (byteCount == 0) {
    return 0;
  }
  if (!upstream_.request(pos_ + 1)) {
    return -1;
  }
  // request() guarantees pos_ < size even if upstream was consumed since (then the bytes
  // returned are simply not the ones expected; see BufferedSource::peek()).
  Buffer& upstreamBuffer = upstream_.buffer();
  int64_t n = std::min(byteCount, upstreamBuffer.size() - pos_);
  upstreamBuffer.copyTo(sink, pos_, n);
  pos_ += n;
  return n;
}

}  // namespace tern::internal
