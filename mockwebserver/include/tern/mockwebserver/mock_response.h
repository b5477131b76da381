// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "tern/buffer.h"
#include "tern/export.h"
#include "tern/headers.h"
#include "tern/mockwebserver/http2_settings.h"
#include "tern/mockwebserver/socket_policy.h"

namespace tern {
class WebSocketListener;  // tern/web_socket.h
}  // namespace tern

namespace tern::mockwebserver {

// A scripted response for MockWebServer to replay, as OkHttp's mockwebserver3 MockResponse: a
// status line, headers, an optional body (fixed or chunked, with trailers), informational (1xx)
// responses to send first, pacing (delays, throttling) and a SocketPolicy.
//
// Immutable and cheap to copy (the body bytes are shared); safe to read from many threads.
// Build one with MockResponse::Builder, or with the short constructor for the common case:
//   server.enqueue(MockResponse(200, Headers::of("Content-Type", "text/plain"), "hello"));
//
// The status line and headers are sent as given, without validation, so tests can script
// malformed responses (a garbage status line, a wrong Content-Length) on purpose.
class TERN_API MockResponse {
 public:
  class Builder;

  // "HTTP/1.1 200 OK" with "Content-Length: 0" and no body.
  MockResponse();

  // A response with status `code` (reason phrase as Builder::code() picks it), `headers`
  // followed by a Content-Length for `body`, the bytes of `body`, and `socketPolicy`.
  explicit MockResponse(int code, const Headers& headers = Headers(), std::string_view body = "",
                        SocketPolicy socketPolicy = SocketPolicy());

  // The status line, without CRLF: "HTTP/1.1 200 OK".
  const std::string& status() const noexcept;

  // The status code: the second space-separated field of status(). Throws std::invalid_argument
  // if the status line has none or it is not a number.
  int code() const;

  // The reason phrase: what follows the code in status() (empty if nothing does). Throws
  // std::invalid_argument as code() does.
  std::string message() const;

  // The response headers, sent in this order.
  const Headers& headers() const noexcept;

  // The trailers, sent after the last chunk of a chunked body (RFC 9112 §7.1.2). Over HTTP/1
  // only sent when headers() say "Transfer-Encoding: chunked"; over HTTP/2 sent whenever they
  // are not empty, as a trailing HEADERS frame (RFC 9113 §8.1).
  const Headers& trailers() const noexcept;

  // HTTP/2 SETTINGS to send on the connection before this response's headers (none by default;
  // ignored over HTTP/1).
  const Http2Settings& settings() const noexcept;

  // True if the response has a body (even an empty one set with body("")).
  bool hasBody() const noexcept;

  // A copy of the body as it goes on the wire: for chunkedBody() that is the chunk-encoded bytes
  // up to and including the last chunk's "0\r\n" (the trailers follow it). Empty if there is no
  // body.
  Buffer body() const;

  // The number of body bytes on the wire (body().size()).
  int64_t bodySize() const noexcept;

  // The responses sent before this one, in order, once the request headers are read (a 100
  // Continue invites the client to send its body).
  const std::vector<MockResponse>& informationalResponses() const noexcept;

  // Throttling: after each `throttleBytesPerPeriod()` bytes of a request or response body, the
  // server pauses for `throttlePeriod()`. INT64_MAX and zero (the default) mean no throttling.
  int64_t throttleBytesPerPeriod() const noexcept;
  std::chrono::nanoseconds throttlePeriod() const noexcept;

  // How long the server waits before writing the status line and headers.
  std::chrono::nanoseconds headersDelay() const noexcept;

  // How long the server waits between the headers and the body.
  std::chrono::nanoseconds bodyDelay() const noexcept;

  const SocketPolicy& socketPolicy() const noexcept;

  // True if this response answers a CONNECT as a proxy would (Builder::inTunnel()).
  bool inTunnel() const noexcept;

  // The listener of the server's side of a WebSocket (Builder::webSocketUpgrade()), or null.
  const std::shared_ptr<WebSocketListener>& webSocketListener() const noexcept;

  // A builder holding this response's fields, to derive a modified response.
  Builder newBuilder() const;

  // The status line.
  std::string toString() const { return status(); }

 private:
  struct Data;
  explicit MockResponse(std::shared_ptr<const Data> data);
  std::shared_ptr<const Data> data_;  // Never null; shared by copies, never modified.
};

// Builds a MockResponse. Starts as "HTTP/1.1 200 OK" with "Content-Length: 0", no body,
// KeepOpen. Not thread-safe; every setter returns *this for chaining, and build() may be called
// on a temporary or on a named builder (which stays usable).
class TERN_API MockResponse::Builder {
 public:
  Builder();

  // Sets the status line to "HTTP/1.1 <code> <reason>", the reason picked by class as OkHttp
  // does: "Informational", "OK", "Redirection", "Client Error", "Server Error", else
  // "Mock Response". Throws std::invalid_argument if `code` is negative.
  Builder& code(int code);

  // Sets the whole status line, sent as given: "HTTP/1.1 404 Not Found". No validation.
  Builder& status(std::string status);

  // Replaces every header (including the default Content-Length) with `headers`.
  Builder& headers(const Headers& headers);

  // Removes every header, including the Content-Length or Transfer-Encoding that body() and
  // chunkedBody() add.
  Builder& clearHeaders();

  // Adds the header line "Name: value". Validated as Headers::Builder::add(line) does.
  Builder& addHeader(std::string_view line);

  // Adds a header; the name may repeat. Validated as Headers::Builder::add(name, value) does.
  Builder& addHeader(std::string_view name, std::string_view value);

  // Adds a header without validation, to script what a well-behaved server would never send
  // (obs-text, an empty name, ...). The value is still trimmed.
  Builder& addHeaderLenient(std::string_view name, std::string_view value);

  // Removes every header named `name` (ignoring case), then adds `name: value`.
  Builder& setHeader(std::string_view name, std::string_view value);

  // Removes every header named `name` (ignoring case).
  Builder& removeHeader(std::string_view name);

  // Sets the body to these bytes and the Content-Length header to their count (replacing any
  // Content-Length).
  Builder& body(std::string_view body);
  Builder& body(std::span<const std::byte> body);
  Builder& body(const Buffer& body);  // Copies `body`; the buffer is not consumed.

  // Sets the body to `body` sent with chunked transfer coding (RFC 9112 §7.1) in chunks of at
  // most `maxChunkSize` bytes: removes Content-Length and adds "Transfer-encoding: chunked". The
  // trailers() are written after the last chunk. Throws std::invalid_argument unless
  // maxChunkSize >= 1.
  Builder& chunkedBody(std::string_view body, int64_t maxChunkSize);
  Builder& chunkedBody(const Buffer& body, int64_t maxChunkSize);

  // Sets the trailers sent after a chunked body (over HTTP/2: after any body).
  Builder& trailers(const Headers& trailers);

  // Sets the HTTP/2 SETTINGS sent before this response (see settings()).
  Builder& settings(Http2Settings settings);

  // Sets the socket policy (KeepOpen by default).
  Builder& socketPolicy(SocketPolicy socketPolicy);

  // Pauses `period` after each `bytesPerPeriod` bytes of the request body the server reads and
  // of the response body it writes, to simulate a slow network. (The request body is paced by
  // the response the dispatcher peeks when the request's headers arrive: for a queue, this one
  // once it is next.) Throws std::invalid_argument unless bytesPerPeriod >= 1 and period >= 0.
  Builder& throttleBody(int64_t bytesPerPeriod, std::chrono::nanoseconds period);

  // Waits `delay` before writing the status line and headers. Throws std::invalid_argument if
  // negative.
  Builder& headersDelay(std::chrono::nanoseconds delay);

  // Waits `delay` after the headers, before the body. Throws std::invalid_argument if negative.
  Builder& bodyDelay(std::chrono::nanoseconds delay);

  // Adds a 1xx response to send before this one, after the request headers are read and before
  // the request body is (so "100 Continue" answers "Expect: 100-continue", RFC 9110 §10.1.1).
  // Its headers are sent without Content-Length or Transfer-Encoding and it has no body
  // (RFC 9110 §15.2); its headersDelay() applies before it is written.
  //
  // A request with "Expect: 100-continue" whose response has no 100 informational response is
  // answered without reading its body (the client is still waiting for permission to send it),
  // and the connection is closed after the response, as RFC 9110 §10.1.1 allows.
  Builder& addInformationalResponse(MockResponse response);

  // Adds a "HTTP/1.1 100 Continue" informational response.
  Builder& add100Continue();

  // Makes this the answer of a proxy to a client's CONNECT (OkHttp's inTunnel()), so tests need
  // no real proxy. A connection whose next queued response is in a tunnel starts in cleartext,
  // even on an https server: the server reads the CONNECT requests and answers each with the
  // next response while they are in a tunnel (a 407, say, to ask for Proxy-Authorization); after
  // a 2xx it runs the TLS handshake (useHttps()) on the same connection and serves the tunneled
  // requests as usual, HTTP/2 included. On a cleartext server the tunnel just carries HTTP/1.1.
  // Every request, the CONNECTs included, is recorded (method() "CONNECT", target() "host:port").
  Builder& inTunnel();

  // Answers a WebSocket handshake (OkHttp's withWebSocketUpgrade()): the status becomes
  // "HTTP/1.1 101 Switching Protocols", and the server adds "Connection: Upgrade", "Upgrade:
  // websocket" and the Sec-WebSocket-Accept for the request's key, unless this response sets them
  // itself (to test a client against wrong ones). Then the connection is a WebSocket whose server
  // side reports to `listener` (include tern/web_socket.h), on the connection's thread, as a
  // client's would; the WebSocket& it gets can send, close and cancel. permessage-deflate is used
  // when this response carries a Sec-WebSocket-Extensions header that agrees to it (add
  // "permessage-deflate" and any parameters): the server compresses and inflates per its
  // parameters, as tern's client does. The connection ends once the socket closes or fails.
  // Over HTTP/2 it answers an extended CONNECT with :protocol "websocket" (RFC 8441): the status
  // sent is 200, with this response's headers less Sec-WebSocket-Accept, and the stream is the
  // WebSocket until it ends (see MockWebServer::setExtendedConnect()).
  Builder& webSocketUpgrade(std::shared_ptr<WebSocketListener> listener);

  MockResponse build() const&;
  MockResponse build() &&;

 private:
  friend class MockResponse;
  std::string status_ = "HTTP/1.1 200 OK";
  Headers::Builder headers_;
  Headers::Builder trailers_;
  std::shared_ptr<const std::string> body_;  // Null when there is no body.
  std::vector<MockResponse> informationalResponses_;
  int64_t throttleBytesPerPeriod_ = INT64_MAX;
  std::chrono::nanoseconds throttlePeriod_{0};
  std::chrono::nanoseconds headersDelay_{0};
  std::chrono::nanoseconds bodyDelay_{0};
  SocketPolicy socketPolicy_;
  Http2Settings settings_;
  bool inTunnel_ = false;
  std::shared_ptr<WebSocketListener> webSocketListener_;
};

}  // namespace tern::mockwebserver
