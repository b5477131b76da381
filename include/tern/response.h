// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "tern/cache_control.h"
#include "tern/challenge.h"
#include "tern/export.h"
#include "tern/handshake.h"
#include "tern/headers.h"
#include "tern/protocol.h"
#include "tern/request.h"
#include "tern/response_body.h"
#include "tern/upgraded_socket.h"

namespace tern {

// An HTTP response, as OkHttp's Response: the status, headers and body a server returned for a
// request, plus how it was obtained (the network and cache responses behind it, and the response
// that led to it through a redirect or an auth challenge).
//
// Move-only: it owns its body, which streams from the connection. Destroying the response
// closes the body and so releases the connection. The networkResponse(), cacheResponse() and
// priorResponse() have no body.
class TERN_API Response final {
 public:
  class Builder;

  Response(Response&&) noexcept = default;
  Response& operator=(Response&&) noexcept = default;
  Response(const Response&) = delete;
  Response& operator=(const Response&) = delete;
  ~Response() = default;

  // The request that produced this response. After redirects this is the last request, not the
  // one the caller made.
  const Request& request() const noexcept { return request_; }
  Protocol protocol() const noexcept { return protocol_; }
  int code() const noexcept { return code_; }
  // The reason phrase ("OK"); empty over HTTP/2, which has none.
  const std::string& message() const noexcept { return message_; }
  // The TLS handshake of the connection that carried the response, or nullopt for http (and for
  // responses made without a connection).
  const std::optional<Handshake>& handshake() const noexcept { return handshake_; }
  // True if the code is in [200, 300).
  bool isSuccessful() const noexcept { return code_ >= 200 && code_ < 300; }
  // True for the redirect codes a client follows: 300, 301, 302, 303, 307 and 308.
  bool isRedirect() const noexcept;

  const Headers& headers() const noexcept { return headers_; }
  // The last value of header `name`, or nullopt.
  std::optional<std::string> header(std::string_view name) const { return headers_.get(name); }
  // The last value of header `name`, or `defaultValue`.
  std::string header(std::string_view name, std::string_view defaultValue) const;
  // Every value of header `name`, in order.
  std::vector<std::string> headers(std::string_view name) const { return headers_.values(name); }

  // The body, or null for a response that has none (networkResponse() and friends). Read it and
  // let it close, or destroy the response, to release the connection.
  ResponseBody* body() noexcept { return body_.get(); }
  const ResponseBody* body() const noexcept { return body_.get(); }

  // Up to `byteCount` bytes from the start of the body, in a new body, without consuming them
  // from this one (OkHttp's peekBody): the caller can still read the whole body afterwards.
  // Throws std::logic_error if this response has no body.
  ResponseBody peekBody(int64_t byteCount);

  // The raw response from the network, if the call used it; for a conditional cache hit this is
  // the 304. Null when the response came from the cache alone.
  const Response* networkResponse() const noexcept { return networkResponse_.get(); }
  // The cached response, if the call used the cache. Null otherwise.
  const Response* cacheResponse() const noexcept { return cacheResponse_.get(); }
  // The response to a redirect or an auth challenge that led to this one, or null.
  const Response* priorResponse() const noexcept { return priorResponse_.get(); }

  // When the request was sent and the response headers arrived, in milliseconds since the Unix
  // epoch (the cache's and OkHttp's clock).
  int64_t sentRequestAtMillis() const noexcept { return sentRequestAtMillis_; }
  int64_t receivedResponseAtMillis() const noexcept { return receivedResponseAtMillis_; }

  // The trailers that followed the body (RFC 9110 §6.5): HTTP/1.1 chunked trailers or an HTTP/2
  // trailing HEADERS frame; empty if there were none. Read the body to its end first: before
  // that it throws std::logic_error (as OkHttp's trailers()).
  Headers trailers() const;

  // The response's cache directives, parsed from its headers.
  CacheControl cacheControl() const { return CacheControl::parse(headers_); }

  // The auth challenges: WWW-Authenticate's for a 401, Proxy-Authenticate's for a 407, none
  // otherwise (RFC 9110 §11.6).
  std::vector<Challenge> challenges() const;

  // The connection after a 101 Switching Protocols that answered a request with an Upgrade
  // header (a WebSocket handshake, or any other upgrade): read and write the new protocol's
  // bytes through it. Null for every other response. The response's body() is then empty. See
  // UpgradedSocket for threads and when the connection closes.
  const std::shared_ptr<UpgradedSocket>& socket() const noexcept { return socket_; }

  // A builder holding this response's fields and its body, which moves into the builder: the
  // response is left without a body.
  Builder newBuilder() &&;

  // "Response{protocol=http/1.1, code=200, message=OK, url=https://example.com/}".
  std::string toString() const;

 private:
  explicit Response(Builder& builder);

  Request request_;
  Protocol protocol_;
  int code_;
  std::string message_;
  std::optional<Handshake> handshake_;
  Headers headers_;
  std::unique_ptr<ResponseBody> body_;
  std::shared_ptr<const Response> networkResponse_;
  std::shared_ptr<const Response> cacheResponse_;
  std::shared_ptr<const Response> priorResponse_;
  int64_t sentRequestAtMillis_;
  int64_t receivedResponseAtMillis_;
  std::function<Headers()> trailersSource_;  // Empty: no trailers.
  std::shared_ptr<UpgradedSocket> socket_;
};

// Builds a Response. request, protocol, code and message are required. Move-only, as it may
// hold the body.
class TERN_API Response::Builder {
 public:
  Builder() = default;
  Builder(Builder&&) noexcept = default;
  Builder& operator=(Builder&&) noexcept = default;

  Builder& request(Request request);
  Builder& protocol(Protocol protocol);
  Builder& code(int code);
  Builder& message(std::string message);
  Builder& handshake(std::optional<Handshake> handshake);

  // Sets header `name` to `value`, replacing its values. Throws std::invalid_argument on an
  // invalid name or value.
  Builder& header(std::string_view name, std::string_view value);
  Builder& addHeader(std::string_view name, std::string_view value);
  Builder& removeHeader(std::string_view name);
  Builder& headers(const Headers& headers);

  // The body; nullopt for none.
  Builder& body(std::optional<ResponseBody> body);

  // Responses without bodies (each throws std::invalid_argument naming which, if it has one).
  Builder& networkResponse(std::optional<Response> response);
  Builder& cacheResponse(std::optional<Response> response);
  Builder& priorResponse(std::optional<Response> response);

  Builder& sentRequestAtMillis(int64_t millis);
  Builder& receivedResponseAtMillis(int64_t millis);

  // Where trailers() gets the trailers once the body is read (the call sets it to its
  // exchange's); empty for none.
  Builder& trailers(std::function<Headers()> trailersSource);

  // The upgraded connection (the call sets it for a 101 that answers an Upgrade request).
  Builder& socket(std::shared_ptr<UpgradedSocket> socket);
  // Throws std::logic_error naming what is missing: "request == null", "protocol == null",
  // "message == null", or "code < 0: -1". The body moves into the response, so the builder is
  // left without one.
  Response build();

 private:
  friend class Response;
  std::optional<Request> request_;
  std::optional<Protocol> protocol_;
  int code_ = -1;
  std::optional<std::string> message_;
  std::optional<Handshake> handshake_;
  Headers::Builder headers_;
  std::unique_ptr<ResponseBody> body_;
  std::shared_ptr<const Response> networkResponse_;
  std::shared_ptr<const Response> cacheResponse_;
  std::shared_ptr<const Response> priorResponse_;
  int64_t sentRequestAtMillis_ = 0;
  int64_t receivedResponseAtMillis_ = 0;
  std::function<Headers()> trailersSource_;
  std::shared_ptr<UpgradedSocket> socket_;
};

}  // namespace tern
