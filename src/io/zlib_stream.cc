// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#include "io/zlib_stream.h"

#include <stdexcept>

namespace tern::internal {

ZStream::ZStream(Mode mode, int windowBits, int level) : mode(mode) {
  int result = mode == Mode::kInflate
                   ? inflateInit2(&stream, windowBits)
                   : deflateInit2(&stream, level, Z_DEFLATED, windowBits, 8, Z_DEFAULT_STRATEGY);
  if (result != Z_OK) {
    throw std::runtime_error("zlib initialization failed: " + message(result));
  }
}

ZStream::~ZStream() {
  if (mode == Mode::kInflate) {
    inflateEnd(&stream);
  } else {
    deflateEnd(&stream);
  }
}

std::string ZStream::message(int code) const {
  if (stream.msg != nullptr) {
    return stream.msg;
  }
  switch (code) {
    case Z_NEED_DICT:
      return "a preset dictionary is needed";
    case Z_DATA_ERROR:
      return "invalid compressed data";
    case Z_MEM_ERROR:
      return "out of memory";
    case Z_STREAM_ERROR:
      return "invalid parameters";
    case Z_BUF_ERROR:
      return "no progress possible";
    default:
      return "error " + std::to_string(code);
  }
}

}  // namespace tern::internal
