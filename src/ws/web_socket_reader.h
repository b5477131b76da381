// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "tern/buffer.h"
#include "tern/buffered_source.h"
#include "ws/utf8_validator.h"

namespace tern::internal {

class MessageInflater;

// Reads WebSocket frames (RFC 6455 §5) from a stream, as OkHttp's WebSocketReader: whole messages
// (fragments joined, control frames between fragments delivered as they come), pings, pongs and
// the close frame. Used by the client (`isClient`: frames must be unmasked) and by
// MockWebServer's server side (frames must be masked). Not thread-safe: one reader thread.
class WebSocketReader {
 public:
  // What the reader found. Called on the reading thread, from processNextFrame().
  class FrameCallback {
   public:
    virtual ~FrameCallback() = default;
    virtual void onReadMessage(std::string text) = 0;
    virtual void onReadMessage(std::vector<std::byte> bytes) = 0;
    virtual void onReadPing(std::string payload) = 0;
    virtual void onReadPong(std::string payload) = 0;
    // `code` is ws::kCloseNoStatusCode (1005) for a close frame without a payload.
    virtual void onReadClose(int code, std::string reason) = 0;
  };

  struct Options {
    bool isClient = true;
    // permessage-deflate was negotiated: RSV1 on a message's first frame means compressed.
    bool perMessageDeflate = false;
    // The peer resets its compression context after each message (its *_no_context_takeover).
    bool noContextTakeover = false;
    // The largest message accepted, after inflation (16 MiB by default).
    int64_t maxMessageSize = 16 * 1024 * 1024;
  };

  // `source` and `callback` must outlive the reader.
  WebSocketReader(Options options, BufferedSource& source, FrameCallback& callback);
  ~WebSocketReader();
  WebSocketReader(const WebSocketReader&) = delete;
  WebSocketReader& operator=(const WebSocketReader&) = delete;

  // Reads one control frame, or one whole message with any control frames that come between its
  // fragments, and delivers each to the callback. Blocks on the source. Throws:
  //  - WebSocketProtocolException(1002, …) for a broken frame: a masked frame from a server (or
  //    an unmasked one from a client), a reserved opcode, RSV2/RSV3 set, RSV1 set without
  //    permessage-deflate or on a control frame or a continuation, a control frame over 125
  //    bytes or fragmented, a continuation with no message, a new message before the last one's
  //    final fragment, a 64-bit length with its top bit set, a close frame with a 1-byte payload
  //    or a code closeCodeExceptionMessage() refuses, invalid DEFLATE data;
  //  - WebSocketProtocolException(1007, …) for a text message or close reason that is not UTF-8;
  //  - WebSocketProtocolException(1009, "message too big: …") once a message as received would
  //    pass maxMessageSize (checked from each frame's header, before its payload is read), or
  //    (1009, "message inflated past N bytes") once its inflation would; never holding more than
  //    about maxMessageSize for it;
  //  - EOFException when the stream ends within a frame or a fragmented message.
  // It reads no byte past the frame (or message) it delivers. After a close frame, or once it
  // has thrown, the reader is done: a further call throws std::logic_error. A close frame between
  // a message's fragments is delivered and the unfinished message dropped.
  void processNextFrame();

 private:
  void readHeader();
  void readControlFrame();
  // Appends the current frame's payload (unmasked) to messageFrameBuffer_, checking the size
  // limit first and text's UTF-8 as it comes.
  void readMessageFrame();
  // Reads and delivers control frames until a data frame's header; false if a close frame came.
  bool readUntilNonControlFrame();
  void readMessage();
  void readPayload(Buffer& sink, int64_t byteCount);  // Unmasks when the frame is masked.

  Options options_;
  BufferedSource& source_;
  FrameCallback& callback_;
  bool closed_ = false;  // A close frame was read.
  bool failed_ = false;  // processNextFrame() threw.
  // The frame being read.
  int opcode_ = 0;
  int64_t frameLength_ = 0;
  bool isFinalFrame_ = false;
  bool isControlFrame_ = false;
  bool isMasked_ = false;
  bool readingCompressedMessage_ = false;  // Set by a message's first frame (RSV1).
  int messageOpcode_ = 0;                  // kOpcodeText or kOpcodeBinary: the first frame's.
  std::byte maskKey_[4]{};
  // The message being read: its payload as received, and how much of it is known to be UTF-8.
  Buffer messageFrameBuffer_;
  Utf8Validator utf8_;
  std::unique_ptr<MessageInflater> messageInflater_;  // Made on the first compressed message.
};

}  // namespace tern::internal
