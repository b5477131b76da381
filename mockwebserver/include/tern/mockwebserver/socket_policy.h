// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstdint>
#include <string>
#include <type_traits>
#include <variant>

#include "tern/export.h"

namespace tern::mockwebserver {

// What MockWebServer does with the connection a response is served on, as OkHttp's
// mockwebserver3 SocketPolicy. Each policy is a small struct nested here, so a policy reads as
// OkHttp's does: `.socketPolicy(SocketPolicy::DisconnectAtEnd{})`. Policies that carry a value
// (DoNotReadRequestBody's HTTP/2 error code) are structs with fields; later protocols add more
// alternatives (ResetStreamAtStart, ...) without changing this API.
//
// The server decides some policies before it has read a request: it peeks the dispatcher's next
// response (Dispatcher::peek()) when it accepts a connection (DisconnectAtStart, FailHandshake,
// StallSocketAtStart) and after reading a request's headers (informational responses,
// DoNotReadRequestBody, DisconnectDuringRequestBody, throttling of the request body). The rest
// come from the response dispatch() returns.
//
// Beware policies that close or half-close a connection after the response (DisconnectAtEnd,
// ShutdownOutputAtEnd): the client may finish reading the response and send
// its next request on the pooled connection before the server has closed it. Which request then
// fails is a race; tests that follow such a response with another request should expect that.
//
// A value type: cheap to copy, compares equal when the alternative and its fields are equal.
class TERN_API SocketPolicy {
 public:
  // Keep the connection open after the response: HTTP/1.1's default.
  struct KeepOpen {
    bool operator==(const KeepOpen&) const = default;
  };
  // Close the connection right after accepting it, without reading anything. A request with an
  // empty request line is recorded (so takeRequest() sees that the connection came) and the
  // response is dispatched (and dropped), keeping a queue of responses in step with attempts.
  struct DisconnectAtStart {
    bool operator==(const DisconnectAtStart&) const = default;
  };
  // Close the connection after writing the response: HTTP/1.0's default.
  struct DisconnectAtEnd {
    bool operator==(const DisconnectAtEnd&) const = default;
  };
  // Close the connection after reading the request, before writing the response: a connection
  // that a pool believed healthy fails late.
  struct DisconnectAfterRequest {
    bool operator==(const DisconnectAfterRequest&) const = default;
  };
  // After reading the request, shut down the server's output (the client reads end of stream
  // where it expects a response), then close the connection; nothing is written.
  struct HalfCloseAfterRequest {
    bool operator==(const HalfCloseAfterRequest&) const = default;
  };
  // Close the connection after reading half of the request body. With Content-Length that is
  // half its value; for a chunked body, half of the first chunk. No response is written. The
  // request is recorded with a failure() and the response it was peeked from is consumed (so the
  // next connection gets the next scripted response).
  struct DisconnectDuringRequestBody {
    bool operator==(const DisconnectDuringRequestBody&) const = default;
  };
  // Close the connection after writing half of the response body (of its bytes on the wire, so
  // for a chunked body half of the chunk-encoded bytes).
  struct DisconnectDuringResponseBody {
    bool operator==(const DisconnectDuringResponseBody&) const = default;
  };
  // Respond without reading the request body at all. Over HTTP/1 the connection is closed after
  // the response (its unread body would otherwise be taken for the next request); over HTTP/2
  // the stream will be reset with `http2ErrorCode` after the response.
  struct DoNotReadRequestBody {
    uint32_t http2ErrorCode = 0;  // NO_ERROR (RFC 9113 §7).
    bool operator==(const DoNotReadRequestBody&) const = default;
  };
  // Shut down the server's input (shutdown(SHUT_RD)) once the request is read, before the
  // response is written (so no next request can slip in first). The server then reads end of
  // stream after the response and closes the connection.
  struct ShutdownInputAtEnd {
    bool operator==(const ShutdownInputAtEnd&) const = default;
  };
  // Shut down the server's output (shutdown(SHUT_WR)) after writing the response: the client
  // reads end of stream where it expects the next response, while the server keeps reading (and
  // recording) requests on the connection until writing a response fails.
  struct ShutdownOutputAtEnd {
    bool operator==(const ShutdownOutputAtEnd&) const = default;
  };
  // Shut the whole server down after writing the response, as MockWebServer::close() would
  // (the owner's close() or destructor still joins the threads).
  struct ShutdownServerAfterResponse {
    bool operator==(const ShutdownServerAfterResponse&) const = default;
  };
  // Accept the connection and then ignore it until the server is closed: never read, never
  // write. A request with an empty request line is recorded and the response dispatched, as for
  // DisconnectAtStart.
  struct StallSocketAtStart {
    bool operator==(const StallSocketAtStart&) const = default;
  };
  // On an https server (MockWebServer::useHttps()), answer the client's TLS ClientHello with a
  // fatal handshake_failure alert and close: the client's handshake fails as with a server that
  // shares no protocol or cipher suite with it (OkHttp's FAIL_HANDSHAKE, for testing TLS fallback).
  // A request with an empty request line is recorded and the response dispatched, as for
  // DisconnectAtStart. Has no effect on a cleartext server.
  struct FailHandshake {
    bool operator==(const FailHandshake&) const = default;
  };
  // Read the request and never respond; the connection stays open until the client closes it or
  // the server is closed. For testing read timeouts. (Over HTTP/2 only this stream goes
  // unanswered; the connection serves the others.)
  struct NoResponse {
    bool operator==(const NoResponse&) const = default;
  };
  // HTTP/2 only: reset the stream with RST_STREAM(`http2ErrorCode`) as soon as the request's
  // headers arrive, instead of responding. The request is recorded (without its body) and this
  // response consumed. REFUSED_STREAM (7) tells the client the request was not processed, so it
  // may retry it (RFC 9113 §8.7). Over HTTP/1 this is KeepOpen.
  struct ResetStreamAtStart {
    uint32_t http2ErrorCode = 0;  // NO_ERROR.
    bool operator==(const ResetStreamAtStart&) const = default;
  };

  using Variant = std::variant<KeepOpen, DisconnectAtStart, DisconnectAtEnd, DisconnectAfterRequest,
                               HalfCloseAfterRequest, DisconnectDuringRequestBody,
                               DisconnectDuringResponseBody, DoNotReadRequestBody,
                               ShutdownInputAtEnd, ShutdownOutputAtEnd, ShutdownServerAfterResponse,
                               StallSocketAtStart, FailHandshake, NoResponse, ResetStreamAtStart>;

  // KeepOpen.
  SocketPolicy() = default;

  // Any one of the policies above; implicit, so a policy struct can be passed where a
  // SocketPolicy is expected.
  template <typename Policy>
  requires std::is_constructible_v<Variant, Policy> SocketPolicy(Policy policy)
      : value_(std::move(policy)) {}  // NOLINT(google-explicit-constructor)

  // True if this is the policy `Policy`: policy.is<SocketPolicy::NoResponse>().
  template <typename Policy>
  bool is() const noexcept {
    return std::holds_alternative<Policy>(value_);
  }

  // The policy as `Policy` (to read its fields), or null if it is another policy.
  template <typename Policy>
  const Policy* getIf() const noexcept {
    return std::get_if<Policy>(&value_);
  }

  // The policy as a variant, for std::visit.
  const Variant& value() const noexcept { return value_; }

  // The policy's name as OkHttp spells it: "KeepOpen", "DisconnectAtEnd",
  // "DoNotReadRequestBody(http2ErrorCode=0)".
  std::string toString() const;

  bool operator==(const SocketPolicy& other) const = default;

 private:
  Variant value_;
};

}  // namespace tern::mockwebserver
