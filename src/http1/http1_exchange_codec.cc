// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#include "http1/http1_exchange_codec.h"

#include <stdexcept>
#include <string>
#include <utility>

#include "http/http_syntax.h"
#include "http/interim_responses.h"
#include "http/message_framing.h"
#include "http/request_line.h"
#include "http1/status_line.h"
#include "io/borrowed_streams.h"
#include "io/forwarding_timeout.h"
#include "tern/buffer.h"
#include "tern/exceptions.h"

namespace tern::internal {
namespace {

const char* stateName(int state) {
  static constexpr const char* kNames[] = {"idle",
                                           "open request body",
                                           "writing request body",
                                           "read response headers",
                                           "open response body",
                                           "reading response body",
                                           "upgraded",
                                           "closed"};
  return kNames[state];
}

}  // namespace

// Request bodies ----------------------------------------------------------------------------------

// What both request body framings share: argument checks, flushing, giving up the connection on
// failure, and moving the codec on once the body is done.
class Http1ExchangeCodec::RequestBodySink : public Sink {
 public:
  explicit RequestBodySink(Http1ExchangeCodec& codec)
      : codec_(codec), timeout_(codec.sink_.timeout()) {}

  void write(Buffer& source, int64_t byteCount) final {
    if (closed_) {
      throw std::logic_error("request body: closed");
    }
    if (byteCount < 0 || byteCount > source.size()) {
      throw std::invalid_argument("request body: byteCount " + std::to_string(byteCount) +
                                  " out of range [0, " + std::to_string(source.size()) + "]");
    }
    codec_.guarded([&] { writeBody(source, byteCount); });
  }

  void flush() final {
    if (closed_) {
      return;  // Don't throw: the sink may have been closed on the caller's behalf.
    }
    codec_.guarded([&] { codec_.sink_.flush(); });
  }

  Timeout& timeout() final { return timeout_; }

  void close() final {
    if (closed_) {
      return;
    }
    closed_ = true;
    detachTimeout(timeout_);
    // On failure the state stays "writing": the caller may still read a response the server
    // sent early.
    codec_.guarded([&] { finishBody(); });
    codec_.state_ = State::kReadResponseHeaders;
  }

 protected:
  virtual void writeBody(Buffer& source, int64_t byteCount) = 0;
  virtual void finishBody() = 0;

  Http1ExchangeCodec& codec_;

 private:
  ForwardingTimeout timeout_;
  bool closed_ = false;
};

// A request body of a known length (Content-Length), checked against it.
class Http1ExchangeCodec::KnownLengthSink final : public RequestBodySink {
 public:
  KnownLengthSink(Http1ExchangeCodec& codec, int64_t contentLength)
      : RequestBodySink(codec), contentLength_(contentLength) {}

 protected:
  void writeBody(Buffer& source, int64_t byteCount) override {
    if (byteCount > contentLength_ - bytesReceived_) {
      throw ProtocolException("expected " + std::to_string(contentLength_) +
                              " bytes but received " + std::to_string(bytesReceived_ + byteCount));
    }
    codec_.sink_.write(source, byteCount);
    bytesReceived_ += byteCount;
  }

  void finishBody() override {
    if (bytesReceived_ != contentLength_) {
      throw ProtocolException("expected " + std::to_string(contentLength_) +
                              " bytes but received " + std::to_string(bytesReceived_));
    }
  }

 private:
  const int64_t contentLength_;
  int64_t bytesReceived_ = 0;
};

// A request body of unknown length, sent as chunks (RFC 9112 §7.1): each write() is one chunk of
// "<hex size>\r\n<bytes>\r\n", and close() writes the last chunk "0\r\n\r\n". Callers buffer,
// so chunks are as large as their buffer's writes.
class Http1ExchangeCodec::ChunkedSink final : public RequestBodySink {
 public:
  explicit ChunkedSink(Http1ExchangeCodec& codec) : RequestBodySink(codec) {}

 protected:
  void writeBody(Buffer& source, int64_t byteCount) override {
    if (byteCount == 0) {
      return;  // A zero-length chunk would end the body.
    }
    BufferedSink& sink = codec_.sink_;
    sink.writeHexadecimalUnsignedLong(static_cast<uint64_t>(byteCount)).writeUtf8("\r\n");
    sink.write(source, byteCount);
    sink.writeUtf8("\r\n");
  }

  void finishBody() override { codec_.sink_.writeUtf8("0\r\n\r\n"); }
};

// The codec -------------------------------------------------------------------------------------

Http1ExchangeCodec::Http1ExchangeCodec(Carrier& carrier, BufferedSource& source, BufferedSink& sink,
                                       bool usesHttpProxy, std::string proxyAuthorization)
    : carrier_(carrier),
      source_(source),
      sink_(sink),
      usesHttpProxy_(usesHttpProxy),
      proxyAuthorization_(std::move(proxyAuthorization)),
      headersReader_(source) {}

Http1ExchangeCodec::~Http1ExchangeCodec() = default;

void Http1ExchangeCodec::checkState(bool ok) const {
  if (!ok) {
    throw std::logic_error(std::string("Http1ExchangeCodec: unexpected call in state: ") +
                           stateName(static_cast<int>(state_)));
  }
}

void Http1ExchangeCodec::detachTimeout(ForwardingTimeout& timeout) {
  Timeout& old = timeout.delegate();
  timeout.setDelegate(Timeout::none());
  old.clearDeadline();
  old.clearTimeout();
}

void Http1ExchangeCodec::noNewExchanges() {
  if (noNewExchanges_) {
    return;
  }
  noNewExchanges_ = true;
  carrier_.noNewExchanges();
}

std::string Http1ExchangeCodec::unexpectedEndOfStream() const {
  if (url_) return "unexpected end of stream on " + url_->redact();
  return subject_.empty() ? "unexpected end of stream" : "unexpected end of stream on " + subject_;
}

std::unique_ptr<Sink> Http1ExchangeCodec::createRequestBody(const Request& request,
                                                            int64_t contentLength) {
  checkState(state_ == State::kOpenRequestBody);
  if (request.body() && request.body()->isDuplex()) {
    guarded([] { throw ProtocolException("Duplex connections are not supported for HTTP/1"); });
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
  url_ = request.url();  // A shared copy; redacted only if a message needs it.
  upgradeRequested_ = request.header("Upgrade").has_value();
  if (!proxyAuthorization_.empty() && !request.header("Proxy-Authorization")) {
    Headers headers =
        request.headers().newBuilder().add("Proxy-Authorization", proxyAuthorization_).build();
    writeRequest(headers, requestLine(request, usesHttpProxy_));
  } else {
    writeRequest(request.headers(), requestLine(request, usesHttpProxy_));
  }
  // The server closes the connection after answering a request that asks it to (RFC 9112 §9.6).
  if (hasToken(request.headers(), "Connection", "close")) {
    noNewExchanges();
  }
}

void Http1ExchangeCodec::writeRequest(const Headers& headers, std::string_view requestLine,
                                      std::string subject) {
  checkState(state_ == State::kIdle);
  if (!subject.empty()) subject_ = std::move(subject);
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
  guarded([&] {
    sink_.writeUtf8(requestLine).writeUtf8("\r\n");
    for (const auto& [name, value] : headers) {
      sink_.writeUtf8(name).writeUtf8(": ").writeUtf8(value).writeUtf8("\r\n");
    }
    sink_.writeUtf8("\r\n");
  });
  state_ = State::kOpenRequestBody;
}

void Http1ExchangeCodec::flushRequest() {
  guarded([&] { sink_.flush(); });
}

void Http1ExchangeCodec::finishRequest() { flushRequest(); }

std::optional<Response::Builder> Http1ExchangeCodec::readResponseHeaders(bool expectContinue) {
  checkState(state_ == State::kIdle || state_ == State::kOpenRequestBody ||
             state_ == State::kWritingRequestBody || state_ == State::kReadResponseHeaders);
  try {
    while (true) {
      StatusLine statusLine = StatusLine::parse(headersReader_.readLine());
      Headers headers = headersReader_.readHeaders();
      Response::Builder builder;
      builder.protocol(statusLine.protocol).code(statusLine.code).message(statusLine.message);
      builder.headers(headers);

      if (isInformational(statusLine.code) && ++interimResponses_ > kMaxInterimResponses) {
        // The header budget bounds their bytes, not their number: tiny ones could keep the
        // call reading them until its timeout.
        throw ProtocolException(tooManyInterimResponses(url_               ? url_->redact()
                                                        : subject_.empty() ? "the server"
                                                                           : subject_));
      }
      if (expectContinue && statusLine.code == 100) {
        return std::nullopt;  // Send the body now.
      }
      if (isInformational(statusLine.code)) {
        // While waiting for 100 Continue, other interim responses (103 Early Hints) tell the
        // caller nothing.
        if (expectContinue) {
          continue;
        }
        state_ = State::kReadResponseHeaders;  // The final response follows.
        return builder;
      }

      // A final answer to "Expect: 100-continue" before the body was sent: the body never will
      // be, so the server may still be waiting for it (RFC 9110 §10.1.1).
      if (expectContinue && state_ == State::kOpenRequestBody) {
        noNewExchanges();
      }
      // RFC 9112 §9.3: the connection closes after this response if it says so, and an HTTP/1.0
      // connection persists only when the server opts in with keep-alive.
      if (hasToken(headers, "Connection", "close") ||
          (statusLine.protocol == Protocol::HTTP_1_0 &&
           !hasToken(headers, "Connection", "keep-alive"))) {
        noNewExchanges();
      }
      state_ = State::kOpenResponseBody;
      return builder;
    }
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
  if (!promisesBody(response)) {
    return {Framing::Kind::kNone, 0};
  }
  if (isChunked(response.headers())) {
    return {Framing::Kind::kChunked, -1};
  }
  int64_t length = guarded([&] { return contentLength(response.headers()); });
  if (length != -1) {
    return {Framing::Kind::kFixedLength, length};
  }
  return {Framing::Kind::kCloseDelimited, -1};
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
      return newChunkedSource();
    case Framing::Kind::kCloseDelimited:
      return newUnknownLengthSource();
  }
  throw std::logic_error("unreachable");
}

void Http1ExchangeCodec::skipConnectBody(const Response& response) {
  int64_t length = guarded([&] { return contentLength(response.headers()); });
  if (length == -1) {
    return;
  }
  std::unique_ptr<Source> body = newFixedLengthSource(length);
  Buffer skipped;
  while (body->read(skipped, Buffer::kSegmentSize) != -1) {
    skipped.clear();
  }
  body->close();
}

Headers Http1ExchangeCodec::trailers() {
  if (state_ != State::kClosed) {
    throw std::logic_error("too early; can't read the trailers yet");
  }
  return trailers_.value_or(Headers());
}

bool Http1ExchangeCodec::isResponseComplete() const { return responseComplete_; }

bool Http1ExchangeCodec::switchedProtocols(const Response& response) const {
  return upgradeRequested_ && response.code() == 101;
}

ExchangeCodec::UpgradedStreams Http1ExchangeCodec::openUpgradedStreams() {
  if (!upgradeRequested_) throw std::logic_error("Http1ExchangeCodec: no Upgrade was requested");
  checkState(state_ == State::kOpenResponseBody);
  state_ = State::kUpgraded;
  noNewExchanges();  // The connection now speaks another protocol, for good.
  return {std::make_unique<BorrowedSource>(source_, "UpgradedSocket"),
          std::make_unique<FlushingSink>(sink_, "UpgradedSocket")};
}

void Http1ExchangeCodec::cancel() { carrier_.cancel(); }

}  // namespace tern::internal
