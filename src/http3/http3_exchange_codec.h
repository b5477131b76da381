// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#pragma once

#include <chrono>
#include <exception>
#include <memory>

#include "concurrent/mutex.h"
#include "http/exchange_codec.h"
#include "http/header_block.h"
#include "http3/http3_connection.h"
#include "http3/http3_stream.h"
#include "tern/protocol.h"

namespace tern::internal {

// The HTTP/3 exchange codec, the counterpart of Http2ExchangeCodec: one request and its response
// on one request stream of a shared Http3Connection (RFC 9114 §4).
//
// The request goes out as :method, :path, :authority (from the Host header) and :scheme, then
// the other headers in lower case, without the connection-specific ones HTTP/3 forbids as HTTP/2
// does (Connection, Keep-Alive, Proxy-Connection, Transfer-Encoding, Upgrade, Host, and TE unless
// it is "trailers"; RFC 9114 §4.2). Responses have no reason phrase (message() is empty). HTTP/3
// has no protocol upgrade here (no 101, RFC 9114 §4.5; extended CONNECT, RFC 9220, is not
// offered): switchedProtocols() is always false.
//
// Failures of the stream (a reset, a timeout) leave the connection to the other streams. Not
// thread-safe, except cancel().
class Http3ExchangeCodec final : public ExchangeCodec {
 public:
  // `connection` carries the stream; `protocol` is what responses report (Protocol::HTTP_3).
  // Timeouts apply to each read and write of the stream (zero: none).
  Http3ExchangeCodec(Carrier& carrier, Http3Connection& connection, Protocol protocol,
                     std::chrono::milliseconds readTimeout, std::chrono::milliseconds writeTimeout);
  // Resets the stream (H3_REQUEST_CANCELLED) if either half is still open.
  ~Http3ExchangeCodec() override;
  Http3ExchangeCodec(const Http3ExchangeCodec&) = delete;
  Http3ExchangeCodec& operator=(const Http3ExchangeCodec&) = delete;

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

  // The request's header section: pseudo-headers, then the allowed headers in lower case.
  static HeaderBlock http3HeadersList(const Request& request);

  // A response's code (from :status) and headers (without pseudo-headers and connection-specific
  // fields). Throws ProtocolException without a valid :status.
  struct StatusAndHeaders {
    int code;
    Headers headers;
  };
  static StatusAndHeaders readHttp3HeadersList(const HeaderBlock& block);

 private:
  std::shared_ptr<Http3Stream> stream() const;  // Throws std::logic_error before the headers.

  Carrier& carrier_;
  Http3Connection& connection_;
  const Protocol protocol_;
  const std::chrono::milliseconds readTimeout_;
  const std::chrono::milliseconds writeTimeout_;

  mutable Mutex mutex_;  // Guards the fields below against cancel().
  std::shared_ptr<Http3Stream> stream_ TERN_GUARDED_BY(mutex_);
  // Why the stream could not be opened, if it could not.
  std::exception_ptr openFailure_ TERN_GUARDED_BY(mutex_);
  bool canceled_ TERN_GUARDED_BY(mutex_) = false;
};

}  // namespace tern::internal
