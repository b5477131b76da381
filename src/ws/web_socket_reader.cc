// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#include "ws/web_socket_reader.h"

#include <algorithm>
#include <cstdio>
#include <stdexcept>
#include <string>

#include "tern/exceptions.h"
#include "ws/message_inflater.h"
#include "ws/web_socket_protocol.h"

namespace tern::internal {
namespace {

[[noreturn]] void protocolError(const std::string& message) {
  throw WebSocketProtocolException(ws::kCloseProtocolError, message);
}

std::string hex64(uint64_t value) {
  char text[17];
  std::snprintf(text, sizeof(text), "%016llX", static_cast<unsigned long long>(value));
  return text;
}

}  // namespace

WebSocketReader::WebSocketReader(Options options, BufferedSource& source, FrameCallback& callback)
    : options_(options), source_(source), callback_(callback) {}

WebSocketReader::~WebSocketReader() = default;

void WebSocketReader::processNextFrame() {
  if (closed_ || failed_) {
    throw std::logic_error(closed_ ? "WebSocketReader: the close frame was read"
                                   : "WebSocketReader: a previous frame failed");
  }
  try {
    readHeader();
    if (isControlFrame_) {
      readControlFrame();
    } else {
      readMessage();
    }
  } catch (...) {
    failed_ = true;
    messageFrameBuffer_.clear();
    throw;
  }
}

void WebSocketReader::readHeader() {
  // Only the two fixed bytes, then exactly the length and key bytes they announce (§5.2): the
  // reader never asks the source for bytes beyond the frame.
  source_.require(2);
  const int b0 = static_cast<int>(source_.readByte());
  const int b1 = static_cast<int>(source_.readByte());

  opcode_ = b0 & ws::kB0MaskOpcode;
  isFinalFrame_ = (b0 & ws::kB0FlagFin) != 0;
  isControlFrame_ = (opcode_ & ws::kOpcodeFlagControl) != 0;

  // §5.2: opcodes 3-7 and 0xB-0xF are reserved; an endpoint receiving one fails the connection.
  switch (opcode_) {
    case ws::kOpcodeContinuation:
    case ws::kOpcodeText:
    case ws::kOpcodeBinary:
    case ws::kOpcodeControlClose:
    case ws::kOpcodeControlPing:
    case ws::kOpcodeControlPong:
      break;
    default:
      protocolError("Unknown opcode: " + std::to_string(opcode_));
  }
  // §5.4: control frames may come between fragments but are never fragmented themselves.
  if (isControlFrame_ && !isFinalFrame_) protocolError("Control frames must be final.");

  // RFC 7692 §6: RSV1 marks a compressed message, on its first frame only; never on a control
  // frame or a continuation, and never without permessage-deflate (RFC 6455 §5.2).
  if ((b0 & ws::kB0FlagRsv1) != 0) {
    if (!options_.perMessageDeflate || isControlFrame_ || opcode_ == ws::kOpcodeContinuation) {
      protocolError("Unexpected rsv1 flag");
    }
  }
  if (opcode_ == ws::kOpcodeText || opcode_ == ws::kOpcodeBinary) {
    readingCompressedMessage_ = (b0 & ws::kB0FlagRsv1) != 0;
  }
  if ((b0 & ws::kB0FlagRsv2) != 0) protocolError("Unexpected rsv2 flag");
  if ((b0 & ws::kB0FlagRsv3) != 0) protocolError("Unexpected rsv3 flag");

  // §5.1: a client masks every frame; a server masks none.
  isMasked_ = (b1 & ws::kB1FlagMask) != 0;
  if (isMasked_ && options_.isClient) protocolError("Server-sent frames must not be masked.");
  if (!isMasked_ && !options_.isClient) protocolError("Client-sent frames must be masked.");

  frameLength_ = b1 & ws::kB1MaskLength;
  if (frameLength_ == ws::kPayloadShort) {
    frameLength_ = static_cast<uint16_t>(source_.readShort());
  } else if (frameLength_ == ws::kPayloadLong) {
    frameLength_ = source_.readLong();
    if (frameLength_ < 0) {
      // §5.2: the most significant bit of a 64-bit length MUST be 0.
      protocolError("Frame length 0x" + hex64(static_cast<uint64_t>(frameLength_)) +
                    " > 0x7FFFFFFFFFFFFFFF");
    }
  }
  if (isControlFrame_ && frameLength_ > ws::kPayloadByteMax) {
    protocolError("Control frame must be less than 125B.");
  }
  if (isMasked_) {
    source_.readFully(std::span<std::byte>(maskKey_));
  }
}

void WebSocketReader::readPayload(Buffer& sink, int64_t byteCount) {
  if (!isMasked_) {
    source_.readFully(sink, byteCount);  // Moves segments; no copy.
    return;
  }
  // Unmask a segment at a time as the bytes land in `sink`.
  size_t keyOffset = 0;
  while (byteCount > 0) {
    std::span<std::byte> room = sink.writableSegment(1);
    const size_t n = std::min<size_t>(room.size(), static_cast<size_t>(byteCount));
    try {
      source_.readFully(room.first(n));
    } catch (...) {
      sink.commitWrite(0);
      throw;
    }
    keyOffset = ws::toggleMask(room.first(n), maskKey_, keyOffset);
    sink.commitWrite(n);
    byteCount -= static_cast<int64_t>(n);
  }
}

void WebSocketReader::readControlFrame() {
  Buffer payload;
  readPayload(payload, frameLength_);

  switch (opcode_) {
    case ws::kOpcodeControlPing:
      callback_.onReadPing(payload.readUtf8());
      break;
    case ws::kOpcodeControlPong:
      callback_.onReadPong(payload.readUtf8());
      break;
    case ws::kOpcodeControlClose: {
      int code = ws::kCloseNoStatusCode;
      std::string reason;
      const int64_t size = payload.size();
      if (size == 1) {
        protocolError("Malformed close payload length of 1.");
      } else if (size != 0) {
        code = static_cast<uint16_t>(payload.readShort());
        reason = payload.readUtf8();
        // §7.4: a close frame may not carry a reserved or unassigned code.
        if (auto message = ws::closeCodeExceptionMessage(code)) protocolError(*message);
        // §5.5.1, §8.1: the reason is UTF-8.
        if (!isStrictUtf8(reason)) {
          throw WebSocketProtocolException(ws::kCloseInvalidPayload, "Close reason is not UTF-8");
        }
      }
      closed_ = true;
      callback_.onReadClose(code, std::move(reason));
      break;
    }
    default:
      protocolError("Unknown control opcode: " + std::to_string(opcode_));
  }
}

void WebSocketReader::readMessageFrame() {
  // Checked from the header, before the payload is read: a peer announcing a huge frame gets
  // 1009 at once instead of having us buffer it.
  const int64_t received = messageFrameBuffer_.size();
  if (frameLength_ > options_.maxMessageSize - received) {
    throw WebSocketProtocolException(ws::kCloseMessageTooBig,
                                     "message too big: " + std::to_string(received) + " + " +
                                         std::to_string(frameLength_) + " bytes > " +
                                         std::to_string(options_.maxMessageSize));
  }
  readPayload(messageFrameBuffer_, frameLength_);

  // Uncompressed text is checked fragment by fragment, so bad UTF-8 fails before the rest of the
  // message arrives; a code point may span fragments (§5.6), which the validator carries over.
  if (messageOpcode_ == ws::kOpcodeText && !readingCompressedMessage_ && frameLength_ > 0) {
    int64_t skip = received;
    bool valid = true;
    for (size_t i = 0; valid && i < messageFrameBuffer_.segmentCount(); ++i) {
      std::span<const std::byte> segment = messageFrameBuffer_.readableSegment(i);
      if (skip >= static_cast<int64_t>(segment.size())) {
        skip -= static_cast<int64_t>(segment.size());
        continue;
      }
      valid = utf8_.update(segment.subspan(static_cast<size_t>(skip)));
      skip = 0;
    }
    if (!valid) {
      throw WebSocketProtocolException(ws::kCloseInvalidPayload, "Text message is not UTF-8");
    }
  }
}

bool WebSocketReader::readUntilNonControlFrame() {
  while (true) {
    readHeader();
    if (!isControlFrame_) return true;
    readControlFrame();
    if (closed_) return false;
  }
}

void WebSocketReader::readMessage() {
  if (opcode_ == ws::kOpcodeContinuation) protocolError("Unexpected continuation frame.");
  messageOpcode_ = opcode_;
  messageFrameBuffer_.clear();
  utf8_.reset();
  while (true) {
    readMessageFrame();
    if (isFinalFrame_) break;
    if (!readUntilNonControlFrame()) {
      messageFrameBuffer_.clear();  // Closed mid-message: the message is incomplete.
      return;
    }
    if (opcode_ != ws::kOpcodeContinuation) {
      protocolError("Expected continuation opcode. Got: " + std::to_string(opcode_));
    }
  }

  if (readingCompressedMessage_) {
    if (!messageInflater_) {
      messageInflater_ = std::make_unique<MessageInflater>(options_.noContextTakeover);
    }
    messageInflater_->inflate(messageFrameBuffer_, options_.maxMessageSize);
    if (messageOpcode_ == ws::kOpcodeText) {
      for (size_t i = 0; i < messageFrameBuffer_.segmentCount(); ++i) {
        utf8_.update(messageFrameBuffer_.readableSegment(i));
      }
    }
  }

  if (messageOpcode_ == ws::kOpcodeText) {
    // §8.1: text that is not UTF-8 fails the connection with 1007 (§7.4.1).
    if (!utf8_.finish()) {
      throw WebSocketProtocolException(ws::kCloseInvalidPayload, "Text message is not UTF-8");
    }
    callback_.onReadMessage(messageFrameBuffer_.readUtf8());
  } else {
    callback_.onReadMessage(messageFrameBuffer_.readByteArray());
  }
}

}  // namespace tern::internal
