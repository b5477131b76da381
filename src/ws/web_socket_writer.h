// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <span>
#include <string_view>

#include "tern/buffer.h"
#include "tern/buffered_sink.h"

namespace tern::internal {

class MessageDeflater;

// Writes WebSocket frames (RFC 6455 §5), as OkHttp's WebSocketWriter: each message as one frame
// (compressed with permessage-deflate when negotiated and the message is at least
// minimumDeflateSize bytes), pings, pongs and the close frame. A client masks every frame with a
// fresh 4-byte key (§5.3); a server never masks. Not thread-safe: the socket serializes writes.
class WebSocketWriter {
 public:
  struct Options {
    bool isClient = true;
    bool perMessageDeflate = false;
    // This side resets its compression context after each message.
    bool noContextTakeover = false;
    // Messages shorter than this go uncompressed (OkHttp's minWebSocketMessageToCompress).
    int64_t minimumDeflateSize = 1024;
    // Fills mask keys; null: the kernel's CSPRNG (getrandom). Tests give a seeded one.
    std::function<void(std::span<std::byte>)> random;
  };

  // `sink` must outlive the writer. Each write*() flushes it.
  WebSocketWriter(Options options, BufferedSink& sink);
  ~WebSocketWriter();
  WebSocketWriter(const WebSocketWriter&) = delete;
  WebSocketWriter& operator=(const WebSocketWriter&) = delete;

  // Control frames; `payload` at most 125 bytes (std::invalid_argument otherwise). Throw
  // IOException("closed") after writeClose().
  void writePing(std::string_view payload);
  void writePong(std::string_view payload);
  // A close frame with `code` and `reason` (at most 123 bytes of UTF-8); code 0 means an empty
  // payload (and then `reason` must be empty). Throws std::invalid_argument, writing nothing, for
  // a code closeCodeExceptionMessage() refuses, a reason that is too long or not UTF-8, or a
  // reason without a code. After it, the writer writes nothing more (later writes throw
  // IOException("closed")).
  void writeClose(int code, std::string_view reason);
  // One whole message as a single final frame; `opcode` is ws::kOpcodeText or kOpcodeBinary.
  // Consumes `data`. The caller checks that text is UTF-8. Throws IOException("closed") after
  // writeClose().
  void writeMessageFrame(int opcode, Buffer& data);

 private:
  void writeControlFrame(int opcode, std::string_view payload);
  void writeFrameHeaderAndPayload(int b0, Buffer& payload);
  void checkOpen() const;

  Options options_;
  BufferedSink& sink_;
  bool writerClosed_ = false;
  std::unique_ptr<MessageDeflater> messageDeflater_;  // Made on the first compressed message.
};

}  // namespace tern::internal
