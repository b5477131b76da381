// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
// Inflates arbitrary bytes as permessage-deflate messages (RFC 7692 §7.2.2). The first byte picks
// no context takeover (bit 0) and the size limit (bits 1-3: 1 KiB to 128 KiB); the rest is split
// into messages at each 0xF5 0x5F marker, so context takeover across messages is exercised. Each
// message must inflate to at most the limit or fail with WebSocketProtocolException 1002 or 1009;
// a message that inflates must, deflated again by MessageDeflater, inflate back to the same bytes.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "tern/buffer.h"
#include "ws/message_deflater.h"
#include "ws/message_inflater.h"
#include "ws/web_socket_protocol.h"

namespace {

void check(bool condition) {
  if (!condition) std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace tern;
  using namespace tern::internal;
  if (size == 0) return 0;
  const bool noContextTakeover = (data[0] & 1) != 0;
  const int64_t maxSize = int64_t{1024} << ((data[0] >> 1) & 7);
  std::string_view rest(reinterpret_cast<const char*>(data + 1), size - 1);

  MessageInflater inflater(noContextTakeover);
  MessageDeflater deflater(noContextTakeover);
  MessageInflater reinflater(noContextTakeover);
  while (true) {
    const size_t marker = rest.find("\xf5\x5f");
    const std::string_view message = rest.substr(0, marker);
    Buffer buffer;
    buffer.writeUtf8(message);
    try {
      inflater.inflate(buffer, maxSize);
    } catch (const WebSocketProtocolException& e) {
      check(e.closeCode() == ws::kCloseProtocolError || e.closeCode() == ws::kCloseMessageTooBig);
      return 0;  // The socket would fail here.
    }
    check(buffer.size() <= maxSize);
    Buffer inflated = buffer.copy();
    deflater.deflate(buffer);
    reinflater.inflate(buffer, maxSize);
    check(buffer == inflated);
    if (marker == std::string_view::npos) break;
    rest.remove_prefix(marker + 2);
  }
  return 0;
}
