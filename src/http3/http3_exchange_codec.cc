// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#include "http3/http3_exchange_codec.h"

#include <algorithm>
#include <stdexcept>
#include <string>
#include <string_view>

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
  explicit StreamBodySink(std::shared_ptr<Http3Stream> stream) : stream_(std::move(stream)) {}
  void write(Buffer& source, int64_t byteCount) override {
    stream_->sink().write(source, byteCount);
  }
  void flush() override { stream_->sink().flush(); }
  Timeout& timeout() override { return stream_->sink().timeout(); }
  void close() override { stream_->sink().close(); }

 private:
  std::shared_ptr<Http3Stream> stream_;
};

class StreamBodySource final : public Source {
 public:
  explicit StreamBodySource(std::shared_ptr<Http3Stream> stream) : stream_(std::move(stream)) {}
  int64_t read(Buffer& sink, int64_t byteCount) override {
    return stream_->source().read(sink, byteCount);
  }
  Timeout& timeout() override { return stream_->source().timeout(); }
  void close() override { stream_->source().close(); }

 private:
  std::shared_ptr<Http3Stream> stream_;
};

}  // namespace

Http3ExchangeCodec::Http3ExchangeCodec(Carrier& carrier, Http3Connection& connection,
                                       Protocol protocol, std::chrono::milliseconds readTimeout,
                                       std::chrono::milliseconds writeTimeout)
    : carrier_(carrier),
      connection_(connection),
      protocol_(protocol),
      readTimeout_(readTimeout),
      writeTimeout_(writeTimeout) {}

Http3ExchangeCodec::~Http3ExchangeCodec() {
  MutexLock lock(mutex_);
  // Does nothing if the stream is done.
  if (stream_) stream_->closeLater(Http3ErrorCode::H3_REQUEST_CANCELLED);
}

HeaderBlock Http3ExchangeCodec::http3HeadersList(const Request& request) {
  HeaderBlock result;
  result.emplace_back(":method", request.method());
  result.emplace_back(":path", requestPath(request.url()));
  if (std::optional<std::string> host = request.header("Host")) {
    result.emplace_back(":authority", *host);
  }
  result.emplace_back(":scheme", request.url().scheme());
  for (const auto& [name, value] : request.headers()) {
    std::string lower = toLowerAscii(name);
    if (lower.starts_with(':')) continue;
    // TE is allowed with "trailers" only (RFC 9114 §4.2).
    if (isConnectionSpecificField(lower) && !(lower == "te" && value == "trailers")) continue;
    result.emplace_back(std::move(lower), value);
  }
  return result;
}

Http3ExchangeCodec::StatusAndHeaders Http3ExchangeCodec::readHttp3HeadersList(
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

std::shared_ptr<Http3Stream> Http3ExchangeCodec::stream() const {
  MutexLock lock(mutex_);
  if (!stream_ && openFailure_) std::rethrow_exception(openFailure_);
  if (!stream_) throw std::logic_error("Http3ExchangeCodec: request headers not written yet");
  return stream_;
}

void Http3ExchangeCodec::writeRequestHeaders(const Request& request) {
  {
    MutexLock lock(mutex_);
    if (stream_) return;
    if (canceled_) throw InterruptedIOException("Canceled");
  }
  const bool hasRequestBody = request.body() && permitsRequestBody(request.method());
  std::shared_ptr<Http3Stream> stream;
  try {
    stream = connection_.newStream(http3HeadersList(request), hasRequestBody);
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
    stream_->closeLater(Http3ErrorCode::H3_REQUEST_CANCELLED);
    throw InterruptedIOException("Canceled");
  }
}

std::unique_ptr<Sink> Http3ExchangeCodec::createRequestBody(const Request&, int64_t) {
  return std::make_unique<StreamBodySink>(stream());
}

void Http3ExchangeCodec::flushRequest() { stream()->sink().flush(); }

void Http3ExchangeCodec::finishRequest() { stream()->sink().close(); }

std::optional<Response::Builder> Http3ExchangeCodec::readResponseHeaders(bool expectContinue) {
  std::shared_ptr<Http3Stream> s = stream();
  while (true) {
    StatusAndHeaders response = readHttp3HeadersList(s->takeHeaders());
    if (response.code == 101) {
      throw ProtocolException("HTTP/3 does not switch protocols with 101 (RFC 9114 §4.5)");
    }
    if (expectContinue && response.code == 100) return std::nullopt;
    if (expectContinue && isInformational(response.code)) continue;  // Wait for 100 or final.
    Response::Builder result;
    result.protocol(protocol_).code(response.code).message("").headers(response.headers);
    return result;
  }
}

int64_t Http3ExchangeCodec::reportedContentLength(const Response& response) {
  if (!promisesBody(response)) return 0;
  return contentLength(response.headers());
}

std::unique_ptr<Source> Http3ExchangeCodec::openResponseBodySource(const Response&) {
  return std::make_unique<StreamBodySource>(stream());
}

bool Http3ExchangeCodec::switchedProtocols(const Response&) const { return false; }

ExchangeCodec::UpgradedStreams Http3ExchangeCodec::openUpgradedStreams() {
  throw std::logic_error("Http3ExchangeCodec: HTTP/3 requests do not switch protocols");
}

Headers Http3ExchangeCodec::trailers() {
  Headers::Builder builder;
  for (const auto& [name, value] : stream()->trailers()) {
    if (name.starts_with(':')) continue;
    checkReceivedFieldValue(name, value);
    builder.addLenient(name, value);
  }
  return builder.build();
}

bool Http3ExchangeCodec::isResponseComplete() const {
  MutexLock lock(mutex_);
  return stream_ && stream_->isSourceExhausted();
}

void Http3ExchangeCodec::cancel() {
  std::shared_ptr<Http3Stream> stream;
  {
    MutexLock lock(mutex_);
    canceled_ = true;
    stream = stream_;
  }
  if (stream) stream->closeLater(Http3ErrorCode::H3_REQUEST_CANCELLED);
}

}  // namespace tern::internal
