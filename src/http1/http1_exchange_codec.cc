// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#include "http1/http1_exchange_codec.h"

#include <algorithm>
#include <limits>
#include <stdexcept>
#include <string>
#include <utility>

#include "http/http_syntax.h"
#include "http1/request_line.h"
#include "http1/status_line.h"
#include "io/forwarding_timeout.h"
#include "io/hex.h"
#include "tern/buffer.h"
#include "tern/exceptions.h"

namespace tern::internal {
namespace {

// True if the comma-separated values of header `name` hold `token`, ignoring case
// (RFC 9110 §5.6.1 lists; Connection options are tokens, §7.6.1).
bool hasToken(const Headers& headers, std::string_view name, std::string_view token) {
  for (const std::string& value : headers.values(name)) {
    std::string_view rest = value;
    while (!rest.empty()) {
      size_t comma = rest.find(',');
      std::string_view item = trimAsciiWhitespace(rest.substr(0, comma));
      if (equalsIgnoreCase(item, token)) return true;
      if (comma == std::string_view::npos) break;
      rest.remove_prefix(comma + 1);
    }
  }
  return false;
}

// RFC 9112 §6.3: chunked applies when it is the final transfer coding. Like OkHttp we consult the
// last Transfer-Encoding value; its last coding decides.
bool isChunked(const Headers& headers) {
  std::optional<std::string> value = headers.get("Transfer-Encoding");
  if (!value) return false;
  std::string_view codings = *value;
  size_t comma = codings.rfind(',');
  std::string_view last = comma == std::string_view::npos ? codings : codings.substr(comma + 1);
  return equalsIgnoreCase(trimAsciiWhitespace(last), "chunked");
}

// The Content-Length (RFC 9110 §8.6), or -1 if there is none. Several fields, or a list, are
// accepted only if every value is the same number (RFC 9112 §6.3 rule 5); anything else is a
// framing error a peer could exploit to desynchronize us, so it throws ProtocolException.
int64_t contentLength(const Headers& headers) {
  std::vector<std::string> values = headers.values("Content-Length");
  if (values.empty()) return -1;
  std::optional<int64_t> result;
  for (const std::string& value : values) {
    std::string_view rest = value;
    while (true) {
      size_t comma = rest.find(',');
      std::string_view item = trimAsciiWhitespace(rest.substr(0, comma));
      int64_t length = 0;
      bool valid = !item.empty();
      for (char c : item) {
        if (c < '0' || c > '9' || length > (std::numeric_limits<int64_t>::max() - 9) / 10) {
          valid = false;
          break;
        }
        length = length * 10 + (c - '0');
      }
      if (!valid || (result && *result != length)) {
        throw ProtocolException("Invalid Content-Length: \"" + escapeForMessage(value) + "\"");
      }
      result = length;
      if (comma == std::string_view::npos) break;
      rest.remove_prefix(comma + 1);
    }
  }
  return *result;
}

// Whether the response can have a body at all (OkHttp's promisesBody, RFC 9112 §6.3 rule 1). A
// 204 that nonetheless announces a body is framed by its headers, as OkHttp does, so the caller
// sees its Content-Length and can fail the call; 304s often carry the Content-Length of the
// representation they stand for, which never describes bytes on the wire.
bool promisesBody(const Response& response) {
  if (response.request().method() == "HEAD") return false;
  int code = response.code();
  if ((code >= 100 && code < 200) || code == 304) return false;
  // RFC 9112 §6.3 rule 2: after a 2xx to CONNECT the connection is a tunnel.
  if (response.request().method() == "CONNECT" && code >= 200 && code < 300) return false;
  if (code == 204) {
    return response.headers().get("Content-Length") || isChunked(response.headers());
  }
  return true;
}

// Clears the socket timeouts a body used and points the body's timeout at Timeout::none(), so a
// pooled connection keeps nothing of this call's deadlines (OkHttp's detachTimeout).
void detachTimeout(ForwardingTimeout& timeout) {
  Timeout& old = timeout.delegate();
  timeout.setDelegate(Timeout::none());
  old.clearDeadline();
  old.clearTimeout();
}

// Reads `source` to its end within `duration`, as Okio's discard/skipAll. Returns false if the
// time ran out or the read failed. The deadline is also checked between reads, so a source that
// never blocks but never ends cannot hold us.
bool discard(Source& source, std::chrono::nanoseconds duration) {
  Timeout& timeout = source.timeout();
  auto now = Timeout::Clock::now();
  std::optional<Timeout::Clock::time_point> originalDeadline;
  if (timeout.hasDeadline()) originalDeadline = timeout.deadlineNanoTime();
  auto deadline = now + duration;
  if (originalDeadline) deadline = std::min(deadline, *originalDeadline);
  timeout.deadline(deadline);
  bool result = true;
  try {
    Buffer skipped;
    while (source.read(skipped, Buffer::kSegmentSize) != -1) {
      skipped.clear();
      if (Timeout::Clock::now() >= deadline) {
        result = false;
        break;
      }
    }
  } catch (const IOException&) {
    result = false;  // Safe to swallow: the caller gives up the connection instead.
  }
  if (originalDeadline) {
    timeout.deadline(*originalDeadline);
  } else {
    timeout.clearDeadline();
  }
  return result;
}

const char* stateName(int state) {
  static constexpr const char* kNames[] = {"idle",
                                           "open request body",
                                           "writing request body",
                                           "read response headers",
                                           "open response body",
                                           "reading response body",
                                           "closed"};
  return kNames[state];
}

}  // namespace

// Request bodies ----------------------------------------------------------------------------------

// A request body of a known length (Content-Length), checked against it.
class Http1ExchangeCodec::KnownLengthSink final : public Sink {
 public:
  KnownLengthSink(Http1ExchangeCodec& codec, int64_t contentLength)
      : codec_(codec), timeout_(codec.sink_.timeout()), contentLength_(contentLength) {}

  void write(Buffer& source, int64_t byteCount) override {
    if (closed_) throw std::logic_error("KnownLengthSink: closed");
    if (byteCount < 0 || byteCount > source.size()) {
      throw std::invalid_argument("KnownLengthSink: byteCount " + std::to_string(byteCount) +
                                  " out of range [0, " + std::to_string(source.size()) + "]");
    }
    if (byteCount > contentLength_ - bytesReceived_) {
      codec_.noNewExchanges();
      throw ProtocolException("expected " + std::to_string(contentLength_) +
                              " bytes but received " + std::to_string(bytesReceived_ + byteCount));
    }
    try {
      codec_.sink_.write(source, byteCount);
    } catch (const IOException&) {
      codec_.noNewExchanges();
      throw;
    }
    bytesReceived_ += byteCount;
  }

  void flush() override {
    if (closed_) return;  // Don't throw: the sink may have been closed on the caller's behalf.
    try {
      codec_.sink_.flush();
    } catch (const IOException&) {
      codec_.noNewExchanges();
      throw;
    }
  }

  Timeout& timeout() override { return timeout_; }

  void close() override {
    if (closed_) return;
    closed_ = true;
    detachTimeout(timeout_);
    if (bytesReceived_ != contentLength_) {
      // Stays in the writing state: the caller may still read a response the server sent early.
      codec_.noNewExchanges();
      throw ProtocolException("expected " + std::to_string(contentLength_) +
                              " bytes but received " + std::to_string(bytesReceived_));
    }
    codec_.state_ = State::kReadResponseHeaders;
  }

 private:
  Http1ExchangeCodec& codec_;
  ForwardingTimeout timeout_;
  const int64_t contentLength_;
  int64_t bytesReceived_ = 0;
  bool closed_ = false;
};

// A request body of unknown length, sent as chunks (RFC 9112 §7.1): each write() is one chunk of
// "<hex size>\r\n<bytes>\r\n", and close() writes the last chunk "0\r\n\r\n". Callers buffer,
// so chunks are as large as their buffer's writes.
class Http1ExchangeCodec::ChunkedSink final : public Sink {
 public:
  explicit ChunkedSink(Http1ExchangeCodec& codec)
      : codec_(codec), timeout_(codec.sink_.timeout()) {}

  void write(Buffer& source, int64_t byteCount) override {
    if (closed_) throw std::logic_error("ChunkedSink: closed");
    if (byteCount < 0 || byteCount > source.size()) {
      throw std::invalid_argument("ChunkedSink: byteCount " + std::to_string(byteCount) +
                                  " out of range [0, " + std::to_string(source.size()) + "]");
    }
    if (byteCount == 0) return;  // A zero-length chunk would end the body.
    try {
      BufferedSink& sink = codec_.sink_;
      sink.writeHexadecimalUnsignedLong(static_cast<uint64_t>(byteCount)).writeUtf8("\r\n");
      sink.write(source, byteCount);
      sink.writeUtf8("\r\n");
    } catch (const IOException&) {
      codec_.noNewExchanges();
      throw;
    }
  }

  void flush() override {
    if (closed_) return;  // Don't throw: the sink may have been closed on the caller's behalf.
    try {
      codec_.sink_.flush();
    } catch (const IOException&) {
      codec_.noNewExchanges();
      throw;
    }
  }

  Timeout& timeout() override { return timeout_; }

  void close() override {
    if (closed_) return;
    closed_ = true;
    detachTimeout(timeout_);
    try {
      codec_.sink_.writeUtf8("0\r\n\r\n");
    } catch (const IOException&) {
      codec_.noNewExchanges();
      throw;
    }
    codec_.state_ = State::kReadResponseHeaders;
  }

 private:
  Http1ExchangeCodec& codec_;
  ForwardingTimeout timeout_;
  bool closed_ = false;
};

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
    if (closed_) throw std::logic_error("closed");
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
    if (closed_) return;
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
    if (read == -1) throw ProtocolException(codec_.unexpectedEndOfStream());
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
    if (codec_.state_ == State::kClosed) return;
    codec_.checkState(codec_.state_ == State::kReadingResponseBody);
    detachTimeout(timeout_);
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
    if (bytesRemaining_ == 0) responseBodyComplete();
  }

 protected:
  int64_t readBody(Buffer& sink, int64_t byteCount) override {
    if (bytesRemaining_ == 0) return -1;
    if (byteCount == 0) return 0;
    int64_t read = readFromSocket(sink, std::min(bytesRemaining_, byteCount));
    bytesRemaining_ -= read;
    if (bytesRemaining_ == 0) responseBodyComplete();
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
    if (!hasMoreChunks_) return -1;
    if (byteCount == 0) return 0;
    if (bytesRemainingInChunk_ == 0 || bytesRemainingInChunk_ == kNoChunkYet) {
      readChunkSize();
      if (!hasMoreChunks_) return -1;
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
      if (!source.request(1)) throw EOFException("chunk CRLF");
      std::byte b = source.readByte();
      if (b == std::byte{'\r'}) {
        if (!source.request(1)) throw EOFException("chunk CRLF");
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
    size_t digits = 0;
    uint64_t size = 0;
    for (; digits < line.size(); ++digits) {
      int value = hexDigitValue(static_cast<std::byte>(line[digits]));
      if (value < 0) break;
      if (size > (static_cast<uint64_t>(std::numeric_limits<int64_t>::max()) >> 4)) {
        throw ProtocolException("Chunk size too large: \"" + escapeForMessage(line) + "\"");
      }
      size = size << 4 | static_cast<uint64_t>(value);
    }
    std::string_view extensions = trimAsciiWhitespace(std::string_view(line).substr(digits));
    if (digits == 0 || (!extensions.empty() && extensions[0] != ';')) {
      throw ProtocolException("Expected a hex chunk size but was \"" + escapeForMessage(line) +
                              "\"");
    }
    bytesRemainingInChunk_ = static_cast<int64_t>(size);
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
    if (inputExhausted_) return -1;
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

// The codec -------------------------------------------------------------------------------------

Http1ExchangeCodec::Http1ExchangeCodec(Carrier& carrier, BufferedSource& source, BufferedSink& sink,
                                       bool usesHttpProxy)
    : carrier_(carrier),
      source_(source),
      sink_(sink),
      usesHttpProxy_(usesHttpProxy),
      headersReader_(source) {}

Http1ExchangeCodec::~Http1ExchangeCodec() = default;

void Http1ExchangeCodec::checkState(bool ok) const {
  if (!ok) {
    throw std::logic_error(std::string("Http1ExchangeCodec: unexpected call in state: ") +
                           stateName(static_cast<int>(state_)));
  }
}

void Http1ExchangeCodec::noNewExchanges() {
  if (noNewExchanges_) return;
  noNewExchanges_ = true;
  carrier_.noNewExchanges();
}

std::string Http1ExchangeCodec::unexpectedEndOfStream() const {
  return redactedUrl_.empty() ? "unexpected end of stream"
                              : "unexpected end of stream on " + redactedUrl_;
}

std::unique_ptr<Sink> Http1ExchangeCodec::createRequestBody(const Request& request,
                                                            int64_t contentLength) {
  checkState(state_ == State::kOpenRequestBody);
  if (request.body() && request.body()->isDuplex()) {
    noNewExchanges();
    throw ProtocolException("Duplex connections are not supported for HTTP/1");
  }
  std::unique_ptr<Sink> result;
  if (isChunked(request.headers())) {
    result = std::make_unique<ChunkedSink>(*this);
  } else if (contentLength != -1) {
    if (contentLength < 0) {
      throw std::invalid_argument("createRequestBody: contentLength < -1: " +
                                  std::to_string(contentLength));
    }
    result = std::make_unique<KnownLengthSink>(*this, contentLength);
  } else {
    throw std::logic_error(
        "Cannot stream a request body without chunked encoding or a known content length!");
  }
  state_ = State::kWritingRequestBody;
  return result;
}

void Http1ExchangeCodec::writeRequestHeaders(const Request& request) {
  redactedUrl_ = request.url().redact();
  writeRequest(request.headers(), requestLine(request, usesHttpProxy_));
  // The server closes the connection after answering a request that asks it to (RFC 9112 §9.6).
  if (hasToken(request.headers(), "Connection", "close")) noNewExchanges();
}

void Http1ExchangeCodec::writeRequest(const Headers& headers, std::string_view requestLine) {
  checkState(state_ == State::kIdle);
  // Headers built leniently (copied from a response or a cache) could smuggle a line break into
  // the request; refuse before writing anything.
  for (const auto& [name, value] : headers) {
    if (name.empty() || name.find_first_of("\r\n:", 0) != std::string::npos ||
        name.find('\0') != std::string::npos || value.find_first_of("\r\n") != std::string::npos ||
        value.find('\0') != std::string::npos) {
      throw std::invalid_argument("Http1ExchangeCodec: header \"" + escapeForMessage(name) +
                                  "\" cannot be sent in HTTP/1.1 (empty name or CR, LF or NUL)");
    }
  }
  try {
    sink_.writeUtf8(requestLine).writeUtf8("\r\n");
    for (const auto& [name, value] : headers) {
      sink_.writeUtf8(name).writeUtf8(": ").writeUtf8(value).writeUtf8("\r\n");
    }
    sink_.writeUtf8("\r\n");
  } catch (const IOException&) {
    noNewExchanges();
    throw;
  }
  state_ = State::kOpenRequestBody;
}

void Http1ExchangeCodec::flushRequest() {
  try {
    sink_.flush();
  } catch (const IOException&) {
    noNewExchanges();
    throw;
  }
}

void Http1ExchangeCodec::finishRequest() { flushRequest(); }

std::optional<Response::Builder> Http1ExchangeCodec::readResponseHeaders(bool expectContinue) {
  checkState(state_ == State::kIdle || state_ == State::kOpenRequestBody ||
             state_ == State::kWritingRequestBody || state_ == State::kReadResponseHeaders);
  try {
    StatusLine statusLine = StatusLine::parse(headersReader_.readLine());
    Headers headers = headersReader_.readHeaders();
    Response::Builder builder;
    builder.protocol(statusLine.protocol).code(statusLine.code).message(statusLine.message);
    builder.headers(headers);

    if (expectContinue && statusLine.code == 100) return std::nullopt;  // Send the body now.
    if (isInformational(statusLine.code)) {
      state_ = State::kReadResponseHeaders;  // The final response follows.
      return builder;
    }

    // A final answer to "Expect: 100-continue" before the body was sent: the body never will
    // be, so the server may still be waiting for it (RFC 9110 §10.1.1).
    if (expectContinue && state_ == State::kOpenRequestBody) noNewExchanges();
    // RFC 9112 §9.3: the connection closes after this response if it says so, and an HTTP/1.0
    // connection persists only when the server opts in with keep-alive.
    if (hasToken(headers, "Connection", "close") ||
        (statusLine.protocol == Protocol::HTTP_1_0 &&
         !hasToken(headers, "Connection", "keep-alive"))) {
      noNewExchanges();
    }
    state_ = State::kOpenResponseBody;
    return builder;
  } catch (const EOFException&) {
    // Say where: the server closed the connection before sending a whole response.
    noNewExchanges();
    throw IOException(unexpectedEndOfStream());
  } catch (const IOException&) {
    noNewExchanges();
    throw;
  }
}

Http1ExchangeCodec::Framing Http1ExchangeCodec::framing(const Response& response) {
  try {
    if (!promisesBody(response)) return {Framing::Kind::kNone, 0};
    if (isChunked(response.headers())) return {Framing::Kind::kChunked, -1};
    int64_t length = contentLength(response.headers());
    if (length != -1) return {Framing::Kind::kFixedLength, length};
    return {Framing::Kind::kCloseDelimited, -1};
  } catch (const IOException&) {
    noNewExchanges();
    throw;
  }
}

int64_t Http1ExchangeCodec::reportedContentLength(const Response& response) {
  return framing(response).contentLength;
}

std::unique_ptr<Source> Http1ExchangeCodec::openResponseBodySource(const Response& response) {
  Framing f = framing(response);
  checkState(state_ == State::kOpenResponseBody);
  switch (f.kind) {
    case Framing::Kind::kNone:
    case Framing::Kind::kFixedLength:
      return newFixedLengthSource(f.contentLength);
    case Framing::Kind::kChunked:
      state_ = State::kReadingResponseBody;
      return std::make_unique<ChunkedSource>(*this);
    case Framing::Kind::kCloseDelimited:
      state_ = State::kReadingResponseBody;
      noNewExchanges();
      return std::make_unique<UnknownLengthSource>(*this);
  }
  throw std::logic_error("unreachable");
}

std::unique_ptr<Source> Http1ExchangeCodec::newFixedLengthSource(int64_t length) {
  checkState(state_ == State::kOpenResponseBody);
  state_ = State::kReadingResponseBody;
  return std::make_unique<FixedLengthSource>(*this, length);
}

void Http1ExchangeCodec::skipConnectBody(const Response& response) {
  int64_t length;
  try {
    length = contentLength(response.headers());
  } catch (const IOException&) {
    noNewExchanges();
    throw;
  }
  if (length == -1) return;
  std::unique_ptr<Source> body = newFixedLengthSource(length);
  Buffer skipped;
  while (body->read(skipped, Buffer::kSegmentSize) != -1) skipped.clear();
  body->close();
}

Headers Http1ExchangeCodec::trailers() {
  if (state_ != State::kClosed) throw std::logic_error("too early; can't read the trailers yet");
  return trailers_.value_or(Headers());
}

bool Http1ExchangeCodec::isResponseComplete() const { return responseComplete_; }

void Http1ExchangeCodec::cancel() { carrier_.cancel(); }

}  // namespace tern::internal
