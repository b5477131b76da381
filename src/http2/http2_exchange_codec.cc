// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#include "http2/http2_exchange_codec.h"

#include <algorithm>
#include <stdexcept>
#include <string>
#include <string_view>

#include "concurrent/fiber.h"
#include "http/http_method.h"
#include "http/http_syntax.h"
#include "http/message_framing.h"
#include "http/request_line.h"
#include "io/ascii.h"

namespace tern::internal {
namespace {

// A Sink or Source over the stream's, keeping the stream alive while it is used.
class StreamBodySink final : public Sink {
 public:
  explicit StreamBodySink(std::shared_ptr<Http2Stream> stream) : stream_(std::move(stream)) {}
  void write(Buffer& source, int64_t byteCount) override {
    stream_->sink().write(source, byteCount);
  }
  void flush() override { stream_->sink().flush(); }
  Timeout& timeout() override { return stream_->sink().timeout(); }
  void close() override { stream_->sink().close(); }

 private:
  std::shared_ptr<Http2Stream> stream_;
};

class StreamBodySource final : public Source {
 public:
  explicit StreamBodySource(std::shared_ptr<Http2Stream> stream) : stream_(std::move(stream)) {}
  int64_t read(Buffer& sink, int64_t byteCount) override {
    return stream_->source().read(sink, byteCount);
  }
  Timeout& timeout() override { return stream_->source().timeout(); }
  void close() override { stream_->source().close(); }

 private:
  std::shared_ptr<Http2Stream> stream_;
};

}  // namespace

Http2ExchangeCodec::Http2ExchangeCodec(Carrier& carrier, Http2Connection& connection,
                                       Protocol protocol, std::chrono::milliseconds readTimeout,
                                       std::chrono::milliseconds writeTimeout)
    : carrier_(carrier),
      connection_(connection),
      protocol_(protocol),
      readTimeout_(readTimeout),
      writeTimeout_(writeTimeout) {}

Http2ExchangeCodec::~Http2ExchangeCodec() {
  MutexLock lock(mutex_);
  if (stream_) stream_->closeLater(ErrorCode::CANCEL);  // Does nothing if the stream is done.
}

HeaderBlock Http2ExchangeCodec::http2HeadersList(const Request& request, bool extendedConnect) {
  HeaderBlock result;
  std::string protocol;
  if (extendedConnect)
    protocol = toLowerAscii(trimAsciiWhitespace(request.header("Upgrade").value_or("")));
  result.emplace_back(":method", extendedConnect ? "CONNECT" : request.method());
  if (extendedConnect) result.emplace_back(":protocol", protocol);
  result.emplace_back(":path", requestPath(request.url()));
  if (std::optional<std::string> host = request.header("Host")) {
    result.emplace_back(":authority", *host);
  }
  result.emplace_back(":scheme", request.url().scheme());
  for (const auto& [name, value] : request.headers()) {
    std::string lower = toLowerAscii(name);
    if (lower.starts_with(':')) continue;
    // RFC 8441 §5: no Sec-WebSocket-Key (nor Accept) on HTTP/2; the stream proves the handshake.
    if (extendedConnect && protocol == "websocket" && lower == "sec-websocket-key") continue;
    // TE is allowed with "trailers" only (RFC 9113 §8.2.2).
    if (isConnectionSpecificField(lower) && !(lower == "te" && value == "trailers")) continue;
    result.emplace_back(std::move(lower), value);
  }
  return result;
}

Http2ExchangeCodec::StatusAndHeaders Http2ExchangeCodec::readHttp2HeadersList(
    const HeaderBlock& block) {
  std::optional<int> code;
  Headers::Builder headers;
  for (const auto& [name, value] : block) {
    if (name == ":status") {
      if (value.size() != 3 ||
          !std::all_of(value.begin(), value.end(), [](char c) { return c >= '0' && c <= '9'; })) {
        throw ProtocolException("Unexpected :status header: \"" + value + "\"");
      }
      code = std::stoi(value);
    } else if (!name.starts_with(':') && !isConnectionSpecificField(name)) {
      checkReceivedFieldValue(name, value);
      headers.addLenient(name, value);
    }
  }
  if (!code) throw ProtocolException("Expected ':status' header not present");
  return {*code, headers.build()};
}

std::shared_ptr<Http2Stream> Http2ExchangeCodec::stream() const {
  MutexLock lock(mutex_);
  if (!stream_ && openFailure_) std::rethrow_exception(openFailure_);
  if (!stream_) throw std::logic_error("Http2ExchangeCodec: request headers not written yet");
  return stream_;
}

void Http2ExchangeCodec::writeRequestHeaders(const Request& request) {
  {
    MutexLock lock(mutex_);
    if (stream_) return;
    if (canceled_) throw InterruptedIOException("Canceled");
  }
  bool hasRequestBody = request.body() && permitsRequestBody(request.method());
  // RFC 8441 §3: extended CONNECT only once the peer's SETTINGS said so, so a new connection
  // waits for them (they are the first frame a server sends).
  extendedConnect_ = !hasRequestBody && request.header("Upgrade") &&
                     connection_.awaitPeerSettings(readTimeout_) &&
                     connection_.peerAcceptsExtendedConnect();
  std::shared_ptr<Http2Stream> stream;
  try {
    // An extended CONNECT leaves the stream open for the protocol it carries.
    stream = connection_.newStream(http2HeadersList(request, extendedConnect_),
                                   hasRequestBody || extendedConnect_);
  } catch (const IOException&) {
    MutexLock lock(mutex_);
    openFailure_ = std::current_exception();  // What reading a response from it throws.
    throw;
  }
  stream->readTimeout().timeout(readTimeout_);
  stream->writeTimeout().timeout(writeTimeout_);
  MutexLock lock(mutex_);
  stream_ = stream;
  // A cancel() that came while the stream opened found nothing to reset.
  if (canceled_) {
    stream_->closeLater(ErrorCode::CANCEL);
    throw InterruptedIOException("Canceled");
  }
}

std::unique_ptr<Sink> Http2ExchangeCodec::createRequestBody(const Request&, int64_t) {
  return std::make_unique<StreamBodySink>(stream());
}

void Http2ExchangeCodec::flushRequest() { stream()->sink().flush(); }

void Http2ExchangeCodec::finishRequest() {
  // An extended CONNECT's stream stays open: what follows is the upgraded protocol's.
  if (!extendedConnect_) stream()->sink().close();
}

std::optional<Response::Builder> Http2ExchangeCodec::readResponseHeaders(bool expectContinue) {
  std::shared_ptr<Http2Stream> s = stream();
  while (true) {
    StatusAndHeaders response = readHttp2HeadersList(s->takeHeaders());
    if (response.code == 101) {
      throw ProtocolException("HTTP/2 does not switch protocols with 101 (RFC 9113 §8.6)");
    }
    if (expectContinue && response.code == 100) return std::nullopt;
    if (expectContinue && isInformational(response.code)) continue;  // Wait for 100 or final.
    Response::Builder result;
    result.protocol(protocol_).code(response.code).message("").headers(response.headers);
    return result;
  }
}

int64_t Http2ExchangeCodec::reportedContentLength(const Response& response) {
  if (!promisesBody(response)) return 0;
  return contentLength(response.headers());
}

std::unique_ptr<Source> Http2ExchangeCodec::openResponseBodySource(const Response& response) {
  std::shared_ptr<Http2Stream> s = stream();
  // An enqueued call (on a fiber that may park) hands its response to onResponse, which runs
  // pinned to its thread: a body read there that must wait holds that thread. The DATA of a small
  // response and its END_STREAM usually follow its HEADERS within moments, so the call waits for
  // them here, parked, and onResponse finds the whole body in memory (docs/calls.md, "What costs a
  // thread"). Bounded: a body that lags (the connection quiet for kBodyPatience, or
  // kBodyWaitLimit in all) is read as it comes.
  if (Fiber::parkable()) {
    const int64_t length = reportedContentLength(response);
    if (length > 0 && length <= kAwaitedBodyBytes) s->awaitBodyEnd(kBodyPatience, kBodyWaitLimit);
  }
  return std::make_unique<StreamBodySource>(std::move(s));
}

bool Http2ExchangeCodec::switchedProtocols(const Response& response) const {
  return extendedConnect_ && response.code() >= 200 && response.code() < 300;
}

ExchangeCodec::UpgradedStreams Http2ExchangeCodec::openUpgradedStreams() {
  if (!extendedConnect_) {
    throw std::logic_error("Http2ExchangeCodec: the request was not an extended CONNECT");
  }
  std::shared_ptr<Http2Stream> s = stream();
  return {std::make_unique<StreamBodySource>(s), std::make_unique<StreamBodySink>(s)};
}

Headers Http2ExchangeCodec::trailers() {
  Headers::Builder builder;
  for (const auto& [name, value] : stream()->trailers()) {
    if (name.starts_with(':')) continue;
    checkReceivedFieldValue(name, value);
    builder.addLenient(name, value);
  }
  return builder.build();
}

bool Http2ExchangeCodec::isResponseComplete() const {
  MutexLock lock(mutex_);
  return stream_ && stream_->isSourceExhausted();
}

void Http2ExchangeCodec::cancel() {
  std::shared_ptr<Http2Stream> stream;
  {
    MutexLock lock(mutex_);
    canceled_ = true;
    stream = stream_;
  }
  if (stream) stream->closeLater(ErrorCode::CANCEL);
}

}  // namespace tern::internal
