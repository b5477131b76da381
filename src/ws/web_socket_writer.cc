// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#include "ws/web_socket_writer.h"

#include <sys/random.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <cstring>
#include <stdexcept>
#include <string>

#include "tern/exceptions.h"
#include "ws/message_deflater.h"
#include "ws/utf8_validator.h"
#include "ws/web_socket_protocol.h"

namespace tern::internal {

namespace {

// Mask keys from the kernel's CSPRNG (getrandom(2)), fetched 256 bytes at a time. Not OpenSSL's
// RAND_bytes: the writer runs on TaskRunner threads, and OpenSSL would keep a random generator
// per thread that outlives the socket (and, at exit, OpenSSL itself). RFC 6455 §5.3 asks for
// unpredictable keys from a strong source; the kernel's is one.
class KernelRandom {
 public:
  void operator()(std::span<std::byte> out) {
    for (std::byte& b : out) {
      if (next_ == buffer_.size()) refill();
      b = buffer_[next_++];
    }
  }

 private:
  void refill() {
    size_t filled = 0;
    while (filled < buffer_.size()) {
      ssize_t n = getrandom(buffer_.data() + filled, buffer_.size() - filled, 0);
      if (n < 0) {
        if (errno == EINTR) continue;
        throw std::runtime_error(std::string("getrandom failed: ") + std::strerror(errno));
      }
      filled += static_cast<size_t>(n);
    }
    next_ = 0;
  }

  std::array<std::byte, 256> buffer_{};
  size_t next_ = buffer_.size();
};

}  // namespace

WebSocketWriter::WebSocketWriter(Options options, BufferedSink& sink)
    : options_(std::move(options)), sink_(sink) {
  if (!options_.random) options_.random = KernelRandom();
}

WebSocketWriter::~WebSocketWriter() = default;

void WebSocketWriter::checkOpen() const {
  if (writerClosed_) throw IOException("closed");
}

void WebSocketWriter::writePing(std::string_view payload) {
  writeControlFrame(ws::kOpcodeControlPing, payload);
}

void WebSocketWriter::writePong(std::string_view payload) {
  writeControlFrame(ws::kOpcodeControlPong, payload);
}

void WebSocketWriter::writeClose(int code, std::string_view reason) {
  std::string payload;
  if (code != 0) {
    if (auto message = ws::closeCodeExceptionMessage(code)) throw std::invalid_argument(*message);
    if (static_cast<int64_t>(reason.size()) > ws::kCloseMessageMax) {
      throw std::invalid_argument("reason.size() > " + std::to_string(ws::kCloseMessageMax) + ": " +
                                  std::to_string(reason.size()));
    }
    // §5.5.1: the reason is UTF-8; a peer would fail the connection with 1007 otherwise.
    if (!isStrictUtf8(reason)) throw std::invalid_argument("reason is not UTF-8");
    payload.push_back(static_cast<char>(code >> 8));
    payload.push_back(static_cast<char>(code & 0xff));
    payload += reason;
  } else if (!reason.empty()) {
    throw std::invalid_argument("a close reason needs a code");  // §5.5.1: the code comes first.
  }
  writeControlFrame(ws::kOpcodeControlClose, payload);
  writerClosed_ = true;
}

void WebSocketWriter::writeControlFrame(int opcode, std::string_view payload) {
  checkOpen();
  // §5.5: control frames carry at most 125 bytes and are never fragmented.
  if (static_cast<int64_t>(payload.size()) > ws::kPayloadByteMax) {
    throw std::invalid_argument("Payload size must be less than or equal to " +
                                std::to_string(ws::kPayloadByteMax));
  }
  Buffer buffer;
  buffer.writeUtf8(payload);
  writeFrameHeaderAndPayload(ws::kB0FlagFin | opcode, buffer);
}

void WebSocketWriter::writeMessageFrame(int opcode, Buffer& data) {
  checkOpen();
  int b0 = ws::kB0FlagFin | opcode;
  if (options_.perMessageDeflate && data.size() >= options_.minimumDeflateSize) {
    if (!messageDeflater_) {
      messageDeflater_ = std::make_unique<MessageDeflater>(options_.noContextTakeover);
    }
    messageDeflater_->deflate(data);
    b0 |= ws::kB0FlagRsv1;  // RFC 7692 §6: RSV1 on a message's first frame marks it compressed.
  }
  writeFrameHeaderAndPayload(b0, data);
}

void WebSocketWriter::writeFrameHeaderAndPayload(int b0, Buffer& payload) {
  Buffer& out = sink_.buffer();
  out.writeByte(std::byte(b0));

  // §5.2: the length in 7 bits, or 126 then 16 bits, or 127 then 64 bits, the fewest that fit.
  const int maskBit = options_.isClient ? ws::kB1FlagMask : 0;
  const int64_t length = payload.size();
  if (length <= ws::kPayloadByteMax) {
    out.writeByte(std::byte(maskBit | static_cast<int>(length)));
  } else if (length <= ws::kPayloadShortMax) {
    out.writeByte(std::byte(maskBit | ws::kPayloadShort));
    out.writeShort(static_cast<int32_t>(length));
  } else {
    out.writeByte(std::byte(maskBit | ws::kPayloadLong));
    out.writeLong(length);
  }

  if (!options_.isClient) {
    out.write(payload, length);  // Moves whole segments.
  } else {
    // §5.3: a client masks every frame with a fresh, unpredictable key, so a peer's script cannot
    // choose the bytes that appear on the wire (and poison an intermediary).
    std::array<std::byte, 4> key{};
    options_.random(key);
    out.write(std::span<const std::byte>(key));
    size_t keyOffset = 0;
    while (payload.size() > 0) {
      std::span<std::byte> room = out.writableSegment(1);
      const size_t n = std::min<size_t>(room.size(), static_cast<size_t>(payload.size()));
      payload.readFully(room.first(n));
      keyOffset = ws::toggleMask(room.first(n), key, keyOffset);
      out.commitWrite(n);
      sink_.emitCompleteSegments();  // Holds the frame's bytes once, not twice.
    }
  }
  sink_.flush();
}

}  // namespace tern::internal
