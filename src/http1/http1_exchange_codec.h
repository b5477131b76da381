// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

#include "http/exchange_codec.h"
#include "http1/headers_reader.h"
#include "io/forwarding_timeout.h"
#include "tern/buffered_sink.h"
#include "tern/buffered_source.h"
#include "tern/exceptions.h"
#include "tern/http_url.h"

namespace tern::internal {

// The HTTP/1.1 exchange codec (RFC 9112), as OkHttp's Http1ExchangeCodec: writes one request to
// the connection's socket streams and reads its response, framing both bodies.
//
// Request bodies are sent with a known length (Content-Length) or chunked. Response bodies are
// read as fixed-length (Content-Length), chunked (Transfer-Encoding: chunked, which wins over
// Content-Length; trailers go to trailers()) or close-delimited (neither header: the body ends
// with the connection, which then cannot be reused). Responses to HEAD, 1xx and 304 responses
// and 2xx responses to CONNECT have no body whatever their headers say (RFC 9112 §6.3); a 204 has
// none unless its headers announce one, which is then framed by them as OkHttp does, so the
// caller sees the Content-Length and can reject the response.
//
// Lifecycle, strictly enforced (otherwise std::logic_error "Http1ExchangeCodec: unexpected call
// in state: <state>"): write the request headers; optionally open, write and close one request
// body sink; read the response headers (repeatedly for 1xx, at most kMaxInterimResponses times: one
// more is a ProtocolException); open one response body source; read and close it. One codec per
// exchange: the next exchange on the same connection gets a new codec over the same streams, once
// isResponseComplete() is true here.
//
// `source` and `sink` are the connection's buffered socket streams and `carrier` the connection;
// all three must outlive this codec, and the codec must outlive the sinks and sources it
// returns. Not thread-safe, except cancel().
class Http1ExchangeCodec final : public ExchangeCodec {
 public:
  // `usesHttpProxy`: the connection goes to an HTTP proxy without a CONNECT tunnel, so requests
  // for http URLs carry the absolute URL in their request line (RFC 9112 §3.2.2), and
  // `proxyAuthorization` (if not empty) as their Proxy-Authorization unless they have one.
  Http1ExchangeCodec(Carrier& carrier, BufferedSource& source, BufferedSink& sink,
                     bool usesHttpProxy = false, std::string proxyAuthorization = {});
  ~Http1ExchangeCodec() override;
  Http1ExchangeCodec(const Http1ExchangeCodec&) = delete;
  Http1ExchangeCodec& operator=(const Http1ExchangeCodec&) = delete;

  Carrier& carrier() override { return carrier_; }
  std::unique_ptr<Sink> createRequestBody(const Request& request, int64_t contentLength) override;
  void writeRequestHeaders(const Request& request) override;
  void flushRequest() override;
  void finishRequest() override;
  std::optional<Response::Builder> readResponseHeaders(bool expectContinue) override;
  int64_t reportedContentLength(const Response& response) override;
  std::unique_ptr<Source> openResponseBodySource(const Response& response) override;
  bool switchedProtocols(const Response& response) const override;
  UpgradedStreams openUpgradedStreams() override;
  Headers trailers() override;
  bool isResponseComplete() const override;
  void cancel() override;

  // Writes `requestLine` ("GET / HTTP/1.1", without CRLF) and `headers`, then the empty line.
  // writeRequestHeaders() uses it; a proxy tunnel writes its CONNECT request with it directly,
  // with a `subject` for failure messages to name, as a request's URL is named ("unexpected end
  // of stream on CONNECT (HTTP @ proxy:3128 to example.com:443)").
  void writeRequest(const Headers& headers, std::string_view requestLine, std::string subject = {});

  // Reads and drops the body of a response to CONNECT (RFC 9110 §9.3.6), which should be empty,
  // so the tunnel starts clean. Bounded by the source's timeout rather than
  // kDiscardStreamTimeout, since the tunnel cannot be used until the body is gone.
  void skipConnectBody(const Response& response);

  // True once the response body has been closed or read to its end, or the codec failed.
  bool isClosed() const { return state_ == State::kClosed; }

 private:
  class RequestBodySink;
  class KnownLengthSink;
  class ChunkedSink;
  class AbstractSource;
  class FixedLengthSource;
  class ChunkedSource;
  class UnknownLengthSource;

  enum class State {
    kIdle,                 // Ready to write request headers.
    kOpenRequestBody,      // Headers written; a request body may be opened.
    kWritingRequestBody,   // A request body sink is open.
    kReadResponseHeaders,  // Request done (or interim response read); reading headers.
    kOpenResponseBody,     // Final response headers read; a body source may be opened.
    kReadingResponseBody,  // A response body source is open.
    kUpgraded,             // After a 101: the streams belong to another protocol.
    kClosed,               // The response body is done (or the codec failed).
  };

  // How a response body is delimited (RFC 9112 §6.3).
  struct Framing {
    enum class Kind { kNone, kFixedLength, kChunked, kCloseDelimited } kind;
    int64_t contentLength;  // For kFixedLength; -1 otherwise.
  };
  Framing framing(const Response& response);

  void checkState(bool ok) const;
  std::unique_ptr<Source> newFixedLengthSource(int64_t length);
  std::unique_ptr<Source> newChunkedSource();
  std::unique_ptr<Source> newUnknownLengthSource();

  // Runs `io`; if it throws IOException, the connection cannot be trusted any more: tell the
  // carrier, then rethrow.
  template <typename F>
  decltype(auto) guarded(F&& io) {
    try {
      return std::forward<F>(io)();
    } catch (const IOException&) {
      noNewExchanges();
      throw;
    }
  }

  // Points a body's timeout at Timeout::none() and clears the socket timeout it forwarded to, so
  // a pooled connection keeps nothing of this call's deadlines (OkHttp's detachTimeout).
  static void detachTimeout(ForwardingTimeout& timeout);
  void noNewExchanges();  // Tells the carrier, once.
  std::string unexpectedEndOfStream() const;

  Carrier& carrier_;
  BufferedSource& source_;
  BufferedSink& sink_;
  const bool usesHttpProxy_;
  const std::string proxyAuthorization_;
  HeadersReader headersReader_;
  State state_ = State::kIdle;
  std::optional<HttpUrl> url_;  // Of the request written, for error messages.
  std::string subject_;         // Or what writeRequest() was told to name instead.
  bool noNewExchanges_ = false;
  bool upgradeRequested_ = false;  // The request has an Upgrade header.
  bool responseComplete_ = false;  // The response body was read to its end.
  int interimResponses_ = 0;       // 1xx heads read, at most kMaxInterimResponses.
  std::optional<Headers> trailers_;
};

}  // namespace tern::internal
