// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
// Http1ExchangeCodec's response bodies: fixed-length, chunked and close-delimited sources.
#include <algorithm>
#include <chrono>
#include <optional>
#include <stdexcept>
#include <string>

#include "http/message_framing.h"
#include "http1/http1_exchange_codec.h"
#include "io/discard.h"
#include "io/forwarding_timeout.h"
#include "io/hex.h"
#include "tern/buffer.h"
#include "tern/exceptions.h"

namespace tern::internal {

// Response bodies ---------------------------------------------------------------------------------

// What the three body framings share: reading from the socket, giving up the connection on
// failure, and marking the response done.
class Http1ExchangeCodec::AbstractSource : public Source {
 public:
  explicit AbstractSource(Http1ExchangeCodec& codec)
      : codec_(codec), timeout_(codec.source_.timeout()) {}

  Timeout& timeout() override { return timeout_; }

  int64_t read(Buffer& sink, int64_t byteCount) final {
    if (byteCount < 0) {
      throw std::invalid_argument("byteCount < 0: " + std::to_string(byteCount));
    }
    if (closed_) {
      throw std::logic_error("closed");
    }
    try {
      return readBody(sink, byteCount);
    } catch (const EOFException&) {
      // A framing read (a chunk size, the trailers) met the end of the stream.
      fail();
      throw ProtocolException(codec_.unexpectedEndOfStream());
    } catch (const IOException&) {
      fail();
      throw;
    }
  }

  void close() final {
    if (closed_) {
      return;
    }
    // Not at the end yet (else the state would be closed): drain the rest quickly so the
    // connection can be reused, or give it up with unread bytes on it.
    if (codec_.state_ != State::kClosed &&
        (!drainable() || !discard(*this, kDiscardStreamTimeout))) {
      fail();
    }
    closed_ = true;
  }

 protected:
  // Reads within the body's framing; an IOException leaves the connection unusable.
  virtual int64_t readBody(Buffer& sink, int64_t byteCount) = 0;

  // Whether closing early should try to read the rest so the connection can be reused.
  virtual bool drainable() const { return true; }

  // Reads up to `byteCount` bytes of body from the socket; a premature end is a ProtocolException.
  int64_t readFromSocket(Buffer& sink, int64_t byteCount) {
    int64_t read = codec_.source_.read(sink, byteCount);
    if (read == -1) {
      throw ProtocolException(codec_.unexpectedEndOfStream());
    }
    return read;
  }

  // The body ended as framed: the connection is positioned at the next response.
  void responseBodyComplete() {
    codec_.responseComplete_ = true;
    finish();
  }

  // The body broke off or was abandoned: the connection cannot carry another exchange.
  void fail() {
    codec_.noNewExchanges();
    finish();
  }

  Http1ExchangeCodec& codec_;

 private:
  void finish() {
    if (codec_.state_ == State::kClosed) {
      return;
    }
    codec_.checkState(codec_.state_ == State::kReadingResponseBody);
    Http1ExchangeCodec::detachTimeout(timeout_);
    codec_.state_ = State::kClosed;
  }

  ForwardingTimeout timeout_;
  bool closed_ = false;
};

// A body of Content-Length bytes.
class Http1ExchangeCodec::FixedLengthSource final : public AbstractSource {
 public:
  FixedLengthSource(Http1ExchangeCodec& codec, int64_t length)
      : AbstractSource(codec), bytesRemaining_(length) {
    if (bytesRemaining_ == 0) {
      responseBodyComplete();
    }
  }

 protected:
  int64_t readBody(Buffer& sink, int64_t byteCount) override {
    if (bytesRemaining_ == 0) {
      return -1;
    }
    if (byteCount == 0) {
      return 0;
    }
    int64_t read = readFromSocket(sink, std::min(bytesRemaining_, byteCount));
    bytesRemaining_ -= read;
    if (bytesRemaining_ == 0) {
      responseBodyComplete();
    }
    return read;
  }

 private:
  int64_t bytesRemaining_;
};

// A chunked body (RFC 9112 §7.1): "<hex size>[;extensions]\r\n<bytes>\r\n" repeated, ended by a
// chunk of size 0 and the trailer section.
class Http1ExchangeCodec::ChunkedSource final : public AbstractSource {
 public:
  explicit ChunkedSource(Http1ExchangeCodec& codec) : AbstractSource(codec) {}

 protected:
  int64_t readBody(Buffer& sink, int64_t byteCount) override {
    if (!hasMoreChunks_) {
      return -1;
    }
    if (byteCount == 0) {
      return 0;
    }
    if (bytesRemainingInChunk_ == 0 || bytesRemainingInChunk_ == kNoChunkYet) {
      readChunkSize();
      if (!hasMoreChunks_) {
        return -1;
      }
    }
    int64_t read = readFromSocket(sink, std::min(byteCount, bytesRemainingInChunk_));
    bytesRemainingInChunk_ -= read;
    return read;
  }

 private:
  static constexpr int64_t kNoChunkYet = -1;

  void readChunkSize() {
    BufferedSource& source = codec_.source_;
    if (bytesRemainingInChunk_ != kNoChunkYet) {
      // The CRLF that ends the previous chunk's data (a bare LF is tolerated, RFC 9112 §2.2).
      if (!source.request(1)) {
        throw EOFException("chunk CRLF");
      }
      std::byte b = source.readByte();
      if (b == std::byte{'\r'}) {
        if (!source.request(1)) {
          throw EOFException("chunk CRLF");
        }
        b = source.readByte();
      }
      if (b != std::byte{'\n'}) {
        throw ProtocolException("Expected CRLF after chunk data but was 0x" + hexByte(b));
      }
    }

    // The whole size line, bounded so a peer cannot make us buffer an endless extension.
    std::string line;
    try {
      line = source.readUtf8LineStrict(HeadersReader::kHeaderLimit);
    } catch (const EOFException&) {
      if (source.buffer().size() > HeadersReader::kHeaderLimit) {
        throw ProtocolException("Chunk size line exceeds " +
                                std::to_string(HeadersReader::kHeaderLimit) + " bytes");
      }
      throw;
    }
    bytesRemainingInChunk_ = parseChunkSize(line);
    if (bytesRemainingInChunk_ == 0) {
      codec_.trailers_ = codec_.headersReader_.readHeaders();
      hasMoreChunks_ = false;
      responseBodyComplete();
    }
  }

  int64_t bytesRemainingInChunk_ = kNoChunkYet;
  bool hasMoreChunks_ = true;
};

// A body that ends when the connection does (RFC 9112 §6.3 rule 8). Such a connection is never
// reused, so closing early simply gives it up.
class Http1ExchangeCodec::UnknownLengthSource final : public AbstractSource {
 public:
  explicit UnknownLengthSource(Http1ExchangeCodec& codec) : AbstractSource(codec) {}

 protected:
  int64_t readBody(Buffer& sink, int64_t byteCount) override {
    if (inputExhausted_) {
      return -1;
    }
    int64_t read = codec_.source_.read(sink, byteCount);
    if (read == -1) {
      inputExhausted_ = true;
      responseBodyComplete();
    }
    return read;
  }

  // Nothing is worth draining: the connection closes anyway.
  bool drainable() const override { return false; }

 private:
  bool inputExhausted_ = false;
};

std::unique_ptr<Source> Http1ExchangeCodec::newFixedLengthSource(int64_t length) {
  checkState(state_ == State::kOpenResponseBody);
  state_ = State::kReadingResponseBody;
  return std::make_unique<FixedLengthSource>(*this, length);
}

std::unique_ptr<Source> Http1ExchangeCodec::newChunkedSource() {
  checkState(state_ == State::kOpenResponseBody);
  state_ = State::kReadingResponseBody;
  return std::make_unique<ChunkedSource>(*this);
}

std::unique_ptr<Source> Http1ExchangeCodec::newUnknownLengthSource() {
  checkState(state_ == State::kOpenResponseBody);
  state_ = State::kReadingResponseBody;
  noNewExchanges();  // The body ends with the connection.
  return std::make_unique<UnknownLengthSource>(*this);
}

}  // namespace tern::internal
