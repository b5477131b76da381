// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstdint>

#include "tern/export.h"
#include "tern/timeout.h"

namespace tern {

class Buffer;

// A destination for bytes, as Okio's Sink: the lowest-level writing interface, implemented by
// sockets, files, compressors and HTTP body framings. Most code writes through a BufferedSink
// instead (see tern::buffer()), which adds writeUtf8(), writeInt() and friends.
//
// Not thread-safe unless an implementation says otherwise. Destroying a sink releases its
// resources without flushing; call close() to flush and to learn whether that succeeded.
class TERN_API Sink {
 public:
  virtual ~Sink() = default;

  // Removes exactly `byteCount` bytes from `source` and writes them to this sink. Blocks at most
  // as long as timeout() allows. Throws std::invalid_argument if `byteCount` is negative or
  // exceeds source.size(), IOException on failure, std::logic_error if the sink was closed.
  virtual void write(Buffer& source, int64_t byteCount) = 0;

  // Pushes buffered bytes to their final destination.
  virtual void flush() = 0;

  // The timeout that bounds each write. Callers may adjust it.
  virtual Timeout& timeout() = 0;

  // Flushes, then releases the resources held by this sink. Closing twice is harmless; writing
  // after close throws std::logic_error. Throws IOException if flushing or releasing failed.
  virtual void close() = 0;
};

}  // namespace tern
