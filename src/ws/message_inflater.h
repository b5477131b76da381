// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstdint>
#include <memory>

#include "tern/buffer.h"

namespace tern::internal {

struct ZStream;

// Decompresses one message's payload for permessage-deflate (RFC 7692 §7.2.2): appends
// 0x00 0x00 0xff 0xff and inflates as raw DEFLATE with a 32 KiB window (enough for any
// server_max_window_bits). Keeps the window across messages unless `noContextTakeover`. One
// instance per direction of one socket; not thread-safe.
class MessageInflater {
 public:
  explicit MessageInflater(bool noContextTakeover);
  ~MessageInflater();
  MessageInflater(const MessageInflater&) = delete;
  MessageInflater& operator=(const MessageInflater&) = delete;

  // Replaces the contents of `buffer` (one whole compressed message) with the inflated message.
  // Throws WebSocketProtocolException(1009, "message inflated past N bytes") as soon as the output
  // would exceed `maxSize` bytes, having held no more than about maxSize plus one segment (a
  // decompression bomb cannot exhaust memory), and WebSocketProtocolException(1002, "...") for
  // data that is not valid DEFLATE.
  void inflate(Buffer& buffer, int64_t maxSize);

 private:
  bool noContextTakeover_;
  std::unique_ptr<ZStream> stream_;
};

}  // namespace tern::internal
