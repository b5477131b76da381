// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstdint>

#include "tern/export.h"
#include "tern/timeout.h"

namespace tern {

class Buffer;

// A stream of bytes to read, as Okio's Source: the lowest-level reading interface, implemented
// by sockets, files, decompressors and HTTP body framings. Most code reads through a
// BufferedSource instead (see tern::buffer()), which adds readUtf8Line(), readInt() and friends.
//
// Not thread-safe unless an implementation says otherwise. Destroying a source releases its
// resources; close() does the same and reports failures.
class TERN_API Source {
 public:
  virtual ~Source() = default;

  // Removes at least 1 and up to `byteCount` bytes from this and appends them to `sink`.
  // Returns the number of bytes read, or -1 if this source is exhausted. Reads of 0 bytes return
  // 0. Blocks at most as long as timeout() allows. Throws IOException (SocketTimeoutException on
  // timeout) on failure, std::invalid_argument if `byteCount` is negative, and
  // std::logic_error if the source was closed.
  virtual int64_t read(Buffer& sink, int64_t byteCount) = 0;

  // The timeout that bounds each read. Callers may adjust it.
  virtual Timeout& timeout() = 0;

  // Releases the resources held by this source. Closing twice is harmless; reading after close
  // throws std::logic_error. Throws IOException if releasing the resource failed.
  virtual void close() = 0;
};

}  // namespace tern
