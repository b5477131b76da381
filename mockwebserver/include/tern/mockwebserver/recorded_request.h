// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstdint>
#include <exception>
#include <optional>
#include <string>
#include <vector>

#include "tern/buffer.h"
#include "tern/export.h"
#include "tern/handshake.h"
#include "tern/headers.h"
#include "tern/http_url.h"

namespace tern::mockwebserver {

// A request MockWebServer received, as OkHttp's mockwebserver3 RecordedRequest: what a test
// asserts on after MockWebServer::takeRequest(). Dispatchers see the same value.
//
// A request the server could not read completely (a malformed request line or header, a body
// cut short, a bad chunk) is still recorded, with what was read and failure() set. Connections
// refused or stalled by DisconnectAtStart / StallSocketAtStart record a request with an empty
// requestLine().
//
// Over TLS (MockWebServer::useHttps()) it carries the connection's handshake: the TLS version
// and cipher suite negotiated, and the client's certificates for mutual TLS.
//
// A value type: copyable, immutable, safe to read from many threads.
class TERN_API RecordedRequest {
 public:
  // For the server and for tests of dispatchers. `requestLine` is parsed into method, target and
  // version (each empty if the line has fewer parts); `url` is the URL the request was for (see
  // url()). `body` holds the bytes kept (at most the server's bodyLimit) and `bodySize` counts
  // every body byte received. `handshake` and `handshakeServerNames` describe the TLS connection
  // the request came on (nullopt and empty over cleartext); `streamId` is the HTTP/2 stream it
  // came on (0 over HTTP/1).
  RecordedRequest(std::string requestLine, Headers headers, std::vector<int64_t> chunkSizes,
                  int64_t bodySize, std::string body, int sequenceNumber, int connectionIndex,
                  const HttpUrl& url, std::exception_ptr failure = nullptr,
                  std::optional<Handshake> handshake = std::nullopt,
                  std::vector<std::string> handshakeServerNames = {}, int streamId = 0);

  // The request line as received, without CRLF: "GET /a?b=c HTTP/1.1". Over HTTP/2, made from
  // the pseudo-headers as OkHttp does: "GET /a?b=c HTTP/2". Empty for the requests recorded for
  // DisconnectAtStart and StallSocketAtStart connections.
  const std::string& requestLine() const noexcept { return requestLine_; }

  // "GET", "POST", ...: the request line's first field; empty if there is no request line.
  const std::string& method() const noexcept { return method_; }

  // The request-target exactly as sent (RFC 9112 §3.2): "/a?b=c", or "http://h/a" (absolute
  // form, to a proxy), "h:443" (CONNECT), "*" (OPTIONS).
  const std::string& target() const noexcept { return target_; }

  // The path and query of the request: the target itself when it starts with "/", else the path
  // and query of url() ("/a" for "http://h/a", "/" for "*"). Empty if there is no request line.
  const std::string& path() const noexcept { return path_; }

  // The protocol version from the request line: "HTTP/1.1".
  const std::string& version() const noexcept { return version_; }

  // The URL the request was for: the target if it is absolute, else built from the server's
  // scheme, the Host header (or the server's address if there is none) and the target. The
  // server's URL for "/" if there is no request line or it makes no valid URL.
  const HttpUrl& url() const noexcept { return url_; }

  // The request headers, in order, as received (read leniently, so malformed lines are kept).
  // Over HTTP/2 the pseudo-headers come first (":method", ":scheme", ":authority", ":path"),
  // with names in lower case as HTTP/2 sends them.
  const Headers& headers() const noexcept { return headers_; }

  // The sizes of the chunks of a chunked request body, in order; empty if the body was not
  // chunked.
  const std::vector<int64_t>& chunkSizes() const noexcept { return chunkSizes_; }

  // The number of body bytes received, including any beyond the server's body limit.
  int64_t bodySize() const noexcept { return bodySize_; }

  // A new Buffer holding the body bytes kept (at most MockWebServer::bodyLimit()); read it
  // freely, the recorded request is unchanged.
  Buffer body() const;

  // The body bytes kept, in a std::string (bytes unchanged, no decoding).
  const std::string& bodyUtf8() const noexcept { return body_; }

  // The index of this request on its connection: 0 for the first request on a connection, 1 for
  // the second, and so on (over HTTP/2, in the order the streams' headers arrived).
  int sequenceNumber() const noexcept { return sequenceNumber_; }

  // The index of the connection this request arrived on, counting every connection the server
  // accepted from 0. Two requests with the same connectionIndex() shared a connection.
  int connectionIndex() const noexcept { return connectionIndex_; }

  // The HTTP/2 stream id the request arrived on (1, 3, 5, ... on one connection); 0 over HTTP/1.
  int streamId() const noexcept { return streamId_; }

  // The error that stopped the server reading this request (an IOException, usually a
  // ProtocolException or EOFException), or null if it was read completely. Rethrow it with
  // std::rethrow_exception to inspect its type.
  std::exception_ptr failure() const noexcept { return failure_; }

  // The TLS handshake of the connection this request came on, or nullopt if it came over
  // cleartext. From the server's side: peerCertificates() are the client's (mutual TLS; empty
  // otherwise), localCertificates() the server's.
  const std::optional<Handshake>& handshake() const noexcept { return handshake_; }

  // The host names the client sent in the TLS server_name extension (SNI, RFC 6066 §3): empty
  // for cleartext and for clients that sent none (as tern does for IP addresses).
  const std::vector<std::string>& handshakeServerNames() const noexcept {
    return handshakeServerNames_;
  }

  // failure()'s message, or std::nullopt if the request was read completely.
  std::optional<std::string> failureMessage() const;

  // The request line.
  std::string toString() const { return requestLine_; }

 private:
  std::string requestLine_;
  std::string method_;
  std::string target_;
  std::string path_;
  std::string version_;
  HttpUrl url_;
  Headers headers_;
  std::vector<int64_t> chunkSizes_;
  int64_t bodySize_;
  std::string body_;
  int sequenceNumber_;
  int connectionIndex_;
  std::exception_ptr failure_;
  std::optional<Handshake> handshake_;
  std::vector<std::string> handshakeServerNames_;
  int streamId_;
};

}  // namespace tern::mockwebserver
