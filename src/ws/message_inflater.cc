// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#include "ws/message_inflater.h"

#include <string>

#include "io/zlib_stream.h"
#include "ws/web_socket_protocol.h"

namespace tern::internal {
namespace {

constexpr std::string_view kEmptyBlockTail{"\x00\x00\xff\xff", 4};

}  // namespace

MessageInflater::MessageInflater(bool noContextTakeover)
    : noContextTakeover_(noContextTakeover),
      // A 32 KiB window reads data compressed with any server_max_window_bits (§7.1.2.1).
      stream_(std::make_unique<ZStream>(ZStream::Mode::kInflate, -MAX_WBITS)) {}

MessageInflater::~MessageInflater() = default;

void MessageInflater::inflate(Buffer& buffer, int64_t maxSize) {
  Buffer input = std::move(buffer);
  buffer.clear();
  // §7.2.2: the sender removed the empty stored block's tail; put it back so zlib flushes out
  // everything the message holds.
  input.writeUtf8(kEmptyBlockTail);

  z_stream& z = stream_->stream;
  bool streamEnded = false;
  while (true) {
    std::span<const std::byte> in;
    if (input.size() > 0) in = input.readableSegment(0);
    z.next_in = reinterpret_cast<Bytef*>(const_cast<std::byte*>(in.data()));
    z.avail_in = static_cast<uInt>(in.size());
    // At most one segment of output per call, so the size check below runs every 8 KiB: a bomb
    // (1 KiB of DEFLATE can expand to 1 MiB) fails with maxSize + 8 KiB held, not more.
    std::span<std::byte> out = buffer.writableSegment(1);
    z.next_out = reinterpret_cast<Bytef*>(out.data());
    z.avail_out = static_cast<uInt>(out.size());
    const int result = ::inflate(&z, Z_SYNC_FLUSH);
    const size_t consumed = in.size() - z.avail_in;
    const size_t produced = out.size() - z.avail_out;
    buffer.commitWrite(produced);
    input.skip(static_cast<int64_t>(consumed));

    if (buffer.size() > maxSize) {
      buffer.clear();
      throw WebSocketProtocolException(
          ws::kCloseMessageTooBig, "message inflated past " + std::to_string(maxSize) + " bytes");
    }
    if (result == Z_STREAM_END) {
      // The sender ended its DEFLATE stream (BFINAL). Whatever follows in this message cannot be
      // reached; drop it, as OkHttp does, and start a fresh stream for the next message, which
      // the sender must also have done.
      streamEnded = true;
      break;
    }
    if (result != Z_OK && result != Z_BUF_ERROR) {
      throw WebSocketProtocolException(ws::kCloseProtocolError,
                                       "invalid DEFLATE data: " + stream_->message(result));
    }
    if (input.size() == 0 && z.avail_out != 0) break;  // All input read, all output out.
    if (consumed == 0 && produced == 0) {
      // zlib progresses whenever it has input and room; guard against looping forever anyway.
      throw WebSocketProtocolException(ws::kCloseProtocolError, "invalid DEFLATE data: stalled");
    }
  }

  if (streamEnded || noContextTakeover_) {
    inflateReset(&z);  // §7.1.1.1 / §7.2.3.3: the next message starts with an empty window.
  }
}

}  // namespace tern::internal
