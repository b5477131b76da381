// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#include "ws/message_deflater.h"

#include <algorithm>
#include <stdexcept>
#include <string>

#include "io/zlib_stream.h"
#include "tern/exceptions.h"

namespace tern::internal {
namespace {

// What Z_SYNC_FLUSH ends with: an empty stored block's LEN and NLEN (RFC 7692 §7.2.1).
constexpr std::string_view kEmptyBlockTail{"\x00\x00\xff\xff", 4};

}  // namespace

MessageDeflater::MessageDeflater(bool noContextTakeover)
    : noContextTakeover_(noContextTakeover),
      // Raw DEFLATE with the largest window: we never offer client_max_window_bits (§7.1.2.2).
      stream_(std::make_unique<ZStream>(ZStream::Mode::kDeflate, -MAX_WBITS)) {}

MessageDeflater::~MessageDeflater() = default;

void MessageDeflater::deflate(Buffer& buffer) {
  Buffer input = std::move(buffer);
  buffer.clear();
  z_stream& z = stream_->stream;
  // §7.2.1: compress all the data, then flush to a byte boundary with an empty stored block
  // (Z_SYNC_FLUSH), whose 4-byte tail the receiver adds back. Loop until zlib has the whole input
  // and leaves output room unused: then nothing is pending.
  while (true) {
    std::span<const std::byte> in;
    if (input.size() > 0) in = input.readableSegment(0);
    z.next_in = reinterpret_cast<Bytef*>(const_cast<std::byte*>(in.data()));
    z.avail_in = static_cast<uInt>(in.size());
    std::span<std::byte> out = buffer.writableSegment(1);
    z.next_out = reinterpret_cast<Bytef*>(out.data());
    z.avail_out = static_cast<uInt>(out.size());
    const bool last = input.size() == static_cast<int64_t>(in.size());
    const int result = ::deflate(&z, last ? Z_SYNC_FLUSH : Z_NO_FLUSH);
    const size_t consumed = in.size() - z.avail_in;
    const size_t produced = out.size() - z.avail_out;
    buffer.commitWrite(produced);
    input.skip(static_cast<int64_t>(consumed));
    if (result != Z_OK && result != Z_BUF_ERROR) {
      throw IOException("deflate failed: " + stream_->message(result));
    }
    if (last && input.size() == 0 && z.avail_out != 0) break;
  }

  const int64_t size = buffer.size();
  if (size == 0) {
    // zlib emits nothing for a flush with no input right after a flush: an empty message after
    // another with the window kept. Send what §7.2.3.6 sends for an empty message: one 0x00 byte,
    // the header of an empty stored block whose LEN and NLEN the receiver appends.
    buffer.writeByte(std::byte{0});
  } else if (size < 4 || !buffer.rangeEquals(size - 4, kEmptyBlockTail)) {
    throw std::logic_error("Z_SYNC_FLUSH did not end with an empty stored block");
  } else {
    // Drop the tail: move out all but the last 4 bytes (segments move; bytes are not copied).
    Buffer trimmed;
    buffer.read(trimmed, size - 4);
    buffer = std::move(trimmed);
  }

  if (noContextTakeover_) {
    deflateReset(&z);  // §7.1.1.2: the next message starts with an empty window.
  }
}

}  // namespace tern::internal
