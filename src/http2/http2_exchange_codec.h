// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#pragma once

#include <chrono>
#include <exception>
#include <memory>

#include "concurrent/mutex.h"
#include "http/exchange_codec.h"
#include "http2/http2_connection.h"
#include "http2/http2_stream.h"
#include "tern/protocol.h"

namespace tern::internal {

// The HTTP/2 exchange codec, as OkHttp's Http2ExchangeCodec: one request and its response on one
// stream of a shared Http2Connection (RFC 9113 §8).
//
// The request goes out as :method, :scheme, :authority (from the Host header) and :path, then
// the other headers in lower case, without the connection-specific ones HTTP/2 forbids
// (Connection, Keep-Alive, Proxy-Connection, Transfer-Encoding, Upgrade, Host, and TE unless it
// is "trailers"; RFC 9113 §8.2.2). Responses have no reason phrase (message() is empty).
//
// A request with an Upgrade header (a WebSocket handshake) goes out as an extended CONNECT
// (RFC 8441 §4) when the peer's SETTINGS allow it: :method CONNECT and :protocol naming the
// Upgrade's protocol, the stream left open after the headers. A 2xx answer means the stream now
// carries that protocol (switchedProtocols()), through openUpgradedStreams(); the connection's
// other streams go on. Without the peer's consent the Upgrade header is dropped, as OkHttp does,
// and the request is an ordinary one.
//
// Failures of the stream (a reset, a timeout) leave the connection to the other streams: the
// codec tells the carrier noNewExchanges() only through the connection's own shutdown. Not
// thread-safe, except cancel().
class Http2ExchangeCodec final : public ExchangeCodec {
 public:
  // `connection` carries the stream; `protocol` is what responses report (HTTP_2, or
  // H2_PRIOR_KNOWLEDGE for cleartext). Timeouts apply to each read and write of the stream (zero:
  // none).
  Http2ExchangeCodec(Carrier& carrier, Http2Connection& connection, Protocol protocol,
                     std::chrono::milliseconds readTimeout, std::chrono::milliseconds writeTimeout);
  // Resets the stream (CANCEL) if either half is still open.
  ~Http2ExchangeCodec() override;
  Http2ExchangeCodec(const Http2ExchangeCodec&) = delete;
  Http2ExchangeCodec& operator=(const Http2ExchangeCodec&) = delete;

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

  // The request's header block: pseudo-headers, then the allowed headers in lower case. With
  // `extendedConnect`, the extended CONNECT for the request's Upgrade header (RFC 8441 §4):
  // :method CONNECT and :protocol, without the WebSocket key HTTP/2 does not use (§5).
  static HeaderBlock http2HeadersList(const Request& request, bool extendedConnect = false);

  // A response's code (from :status) and headers (without pseudo-headers and connection-specific
  // fields). Throws ProtocolException without a valid :status.
  struct StatusAndHeaders {
    int code;
    Headers headers;
  };
  static StatusAndHeaders readHttp2HeadersList(const HeaderBlock& block);

  // On a fiber that may park, openResponseBodySource() waits for a body of at most
  // kAwaitedBodyBytes (by its Content-Length) to arrive whole (END_STREAM) before it returns:
  // while the connection received something within kBodyPatience, and kBodyWaitLimit at most.
  static constexpr int64_t kAwaitedBodyBytes = 64 * 1024;
  static constexpr std::chrono::milliseconds kBodyPatience{100};
  static constexpr std::chrono::milliseconds kBodyWaitLimit{1000};

 private:
  std::shared_ptr<Http2Stream> stream() const;  // Throws std::logic_error before the headers.

  Carrier& carrier_;
  Http2Connection& connection_;
  const Protocol protocol_;
  const std::chrono::milliseconds readTimeout_;
  const std::chrono::milliseconds writeTimeout_;
  bool extendedConnect_ = false;  // The request went out as an extended CONNECT.

  mutable Mutex mutex_;  // Guards the fields below against cancel().
  std::shared_ptr<Http2Stream> stream_ TERN_GUARDED_BY(mutex_);
  // Why the stream could not be opened, if it could not.
  std::exception_ptr openFailure_ TERN_GUARDED_BY(mutex_);
  bool canceled_ TERN_GUARDED_BY(mutex_) = false;
};

}  // namespace tern::internal
