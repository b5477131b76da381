// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
// Feeds arbitrary bytes to a client's WebSocketReader as a server's frames. The first byte picks
// the options: bit 0 permessage-deflate, bit 1 no context takeover, bit 2 a small (4 KiB) maximum
// message size, bit 3 a server's reader (frames must be masked). Beyond "no crash, no hang, no
// out-of-bounds read" it checks that every failure is a WebSocketProtocolException with a code
// the reader documents, or EOFException; that no message passes the limit; that text messages
// and close reasons delivered are UTF-8; and that nothing is read after a close frame.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <vector>

#include "tern/buffer.h"
#include "tern/exceptions.h"
#include "ws/utf8_validator.h"
#include "ws/web_socket_protocol.h"
#include "ws/web_socket_reader.h"

namespace {

using tern::internal::WebSocketReader;

void check(bool condition) {
  if (!condition) std::abort();
}

class CheckingCallback final : public WebSocketReader::FrameCallback {
 public:
  explicit CheckingCallback(int64_t maxMessageSize) : maxMessageSize_(maxMessageSize) {}
  void onReadMessage(std::string text) override {
    check(static_cast<int64_t>(text.size()) <= maxMessageSize_);
    check(tern::internal::isStrictUtf8(text));
  }
  void onReadMessage(std::vector<std::byte> bytes) override {
    check(static_cast<int64_t>(bytes.size()) <= maxMessageSize_);
  }
  void onReadPing(std::string payload) override { check(payload.size() <= 125); }
  void onReadPong(std::string payload) override { check(payload.size() <= 125); }
  void onReadClose(int code, std::string reason) override {
    check(code == tern::internal::ws::kCloseNoStatusCode ||
          !tern::internal::ws::closeCodeExceptionMessage(code));
    check(reason.size() <= 123);
    check(tern::internal::isStrictUtf8(reason));
    closed = true;
  }
  bool closed = false;

 private:
  int64_t maxMessageSize_;
};

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace tern;
  if (size == 0) return 0;
  const uint8_t flags = data[0];
  WebSocketReader::Options options;
  options.perMessageDeflate = (flags & 1) != 0;
  options.noContextTakeover = (flags & 2) != 0;
  options.maxMessageSize = (flags & 4) ? 4096 : 1 << 20;
  options.isClient = (flags & 8) == 0;

  Buffer frames;
  static_cast<BufferedSink&>(frames).write(data + 1, size - 1);
  CheckingCallback callback(options.maxMessageSize);
  WebSocketReader reader(options, frames, callback);
  try {
    while (!callback.closed) {
      reader.processNextFrame();
    }
    // After the close frame: nothing more was read, so the bytes after it are still there.
  } catch (const internal::WebSocketProtocolException& e) {
    check(e.closeCode() == 1002 || e.closeCode() == 1007 || e.closeCode() == 1009);
  } catch (const EOFException&) {
  }
  return 0;
}
