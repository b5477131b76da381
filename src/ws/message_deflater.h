// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#pragma once

#include <memory>

#include "tern/buffer.h"

namespace tern::internal {

struct ZStream;

// Compresses one message's payload for permessage-deflate (RFC 7692 §7.2.1): raw DEFLATE, the
// message's data flushed with Z_SYNC_FLUSH and the trailing 0x00 0x00 0xff 0xff removed. Keeps
// the LZ77 window across messages unless `noContextTakeover`. One instance per direction of one
// socket; not thread-safe.
class MessageDeflater {
 public:
  explicit MessageDeflater(bool noContextTakeover);
  ~MessageDeflater();
  MessageDeflater(const MessageDeflater&) = delete;
  MessageDeflater& operator=(const MessageDeflater&) = delete;

  // Replaces the contents of `buffer` with their compressed form.
  void deflate(Buffer& buffer);

 private:
  bool noContextTakeover_;
  std::unique_ptr<ZStream> stream_;
};

}  // namespace tern::internal
