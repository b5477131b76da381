// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#pragma once

#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>

#include "tern/headers.h"
#include "tern/request.h"
#include "tern/response.h"
#include "tern/sink.h"
#include "tern/source.h"

namespace tern::internal {

// Encodes one HTTP request and decodes its response on a connection, as OkHttp's ExchangeCodec.
// HTTP/1.1 implements it over the connection's socket streams (Http1ExchangeCodec); HTTP/2 over
// one stream of a multiplexed connection.
//
// One codec serves one exchange. The call layer (CallServerInterceptor, through Exchange) drives
// it in this order, from one thread:
//
//   1. writeRequestHeaders(request)
//   2. if the request has a body:
//        - with "Expect: 100-continue": flushRequest(), then readResponseHeaders(true); if that
//          returns std::nullopt the server said 100 Continue: go on to write the body; otherwise
//          it is the final response and the body is never sent (skip to 4 with that builder).
//        - createRequestBody(request, contentLength), write the body to it, close it.
//   3. finishRequest()
//   4. readResponseHeaders(false) until the code is final: while isInformational(code) (100 and
//      102..199, RFC 9110 §15.2) the response was interim; call readResponseHeaders(false) again.
//      101 Switching Protocols is final.
//   5. reportedContentLength(response), openResponseBodySource(response); read the body to its
//      end (or close it early), then trailers(). Or, when switchedProtocols(response) (a 101
//      that answers a request with an Upgrade header, or HTTP/2's extended CONNECT accepted):
//      openUpgradedStreams(), and the connection (HTTP/2: the stream) belongs to the new
//      protocol.
//
// Connection reuse: the codec never closes or pools the connection itself; it tells the
// connection through Carrier::noNewExchanges() that it must not carry another exchange. It does
// so whenever reuse would be unsafe: every IOException thrown by the codec or by a sink or source
// it returned (a broken socket, a malformed response, a wrong request body length), a response
// or request with "Connection: close", an HTTP/1.0 response without "Connection: keep-alive", a
// close-delimited response body, an "Expect: 100-continue" request whose body was not sent, and
// a response body closed before its end that could not be drained within
// kDiscardStreamTimeout. A connection whose codec finished with isResponseComplete() true and
// that never got noNewExchanges() may carry the next exchange.
class ExchangeCodec {
 public:
  // What carries a codec: the connection (OkHttp's ExchangeCodec.Carrier). Both methods may be
  // called from any thread and more than once.
  class Carrier {
   public:
    virtual ~Carrier() = default;

    // The connection must not carry further exchanges once this one ends (it is closed when
    // released rather than pooled). This exchange itself may continue.
    virtual void noNewExchanges() = 0;

    // Breaks the connection now (closes the socket), so that a thread blocked reading or writing
    // on it wakes with an IOException.
    virtual void cancel() = 0;
  };

  // How long closing an unfinished response body may spend reading and discarding the rest so
  // the connection can be reused. Far less than making a new connection costs (OkHttp's
  // DISCARD_STREAM_TIMEOUT_MILLIS).
  static constexpr std::chrono::milliseconds kDiscardStreamTimeout{100};

  virtual ~ExchangeCodec() = default;

  // The connection that carries this codec.
  virtual Carrier& carrier() = 0;

  // A sink for the request body, which the caller writes and then closes. `contentLength` is the
  // body's length, or -1 when unknown (the request must then carry "Transfer-Encoding: chunked",
  // as the bridge adds). For HTTP/1.1 a known-length sink throws ProtocolException("expected N
  // bytes but received M") when more than `contentLength` bytes are written, or fewer before
  // close(). Throws ProtocolException for a duplex body over HTTP/1.1, and std::logic_error if
  // the length is unknown without chunked encoding or the call order is wrong. The sink must not
  // outlive this codec.
  virtual std::unique_ptr<Sink> createRequestBody(const Request& request,
                                                  int64_t contentLength) = 0;

  // Writes the request line and headers (HTTP/1.1 buffers them until flushRequest() or the
  // body). The request's headers are sent as they are: the bridge has already added Host,
  // Content-Length and friends.
  virtual void writeRequestHeaders(const Request& request) = 0;

  // Pushes what was written so far to the network, e.g. before waiting for 100 Continue.
  virtual void flushRequest() = 0;

  // Pushes the rest of the request to the network; no more request bytes follow.
  virtual void finishRequest() = 0;

  // Reads a response's status line and headers and returns a builder with protocol, code, message
  // and headers set (the caller adds the request and timestamps).
  //  - `expectContinue` true: returns std::nullopt when the server sends 100 Continue (the caller
  //    then writes the body); other interim responses are skipped; otherwise returns the final
  //    response, and the body is never sent.
  //  - `expectContinue` false: returns every response as it comes, interim ones (100, 102..199)
  //    included; the caller loops while isInformational(code), as each is followed by another.
  // Throws ProtocolException for a malformed status line or headers beyond the limit, and
  // IOException("unexpected end of stream on <url>") if the connection ends first.
  virtual std::optional<Response::Builder> readResponseHeaders(bool expectContinue) = 0;

  // The body length the response's headers announce: 0 if the response cannot have a body, -1 if
  // unknown (chunked or close-delimited). Throws ProtocolException for an invalid
  // Content-Length.
  virtual int64_t reportedContentLength(const Response& response) = 0;

  // The raw body of `response` (whose headers readResponseHeaders() returned), framed as its
  // headers say and with no content decoding. Reading it to the end makes isResponseComplete()
  // true; closing it early discards the rest within kDiscardStreamTimeout or else gives up the
  // connection. Throws ProtocolException for an invalid Content-Length. The source must not
  // outlive this codec.
  virtual std::unique_ptr<Source> openResponseBodySource(const Response& response) = 0;

  // Whether the final `response` switched to the protocol the request's Upgrade header asked
  // for: on HTTP/1.1 a 101 Switching Protocols (RFC 9110 §7.8); on HTTP/2 a 2xx to the extended
  // CONNECT the request went out as (RFC 8441 §5; HTTP/2 has no 101, RFC 9113 §8.6). The caller
  // then takes openUpgradedStreams() instead of a body.
  virtual bool switchedProtocols(const Response& response) const = 0;

  // The raw streams of the switched protocol (instead of step 5's body), once switchedProtocols():
  // `source` reads what the server sends next, `sink` writes and flushes each write. HTTP/1.1:
  // the connection's streams (bytes already buffered after the 101's headers first); closing
  // either closes nothing underneath, and the connection is closed when it is released, as this
  // marks it noNewExchanges(). HTTP/2: the stream's; closing the sink ends the stream's request
  // half (END_STREAM), and the connection carries other streams as before. Both must not outlive
  // this codec. Throws std::logic_error when the request did not ask to switch.
  struct UpgradedStreams {
    std::unique_ptr<Source> source;
    std::unique_ptr<Sink> sink;
  };
  virtual UpgradedStreams openUpgradedStreams() = 0;

  // The trailers that followed the body (RFC 9110 §6.5); empty if there were none. Throws
  // std::logic_error if the body has not been read to its end yet.
  virtual Headers trailers() = 0;

  // True once the response body has been read to its end (or the response has none and its
  // source was opened): nothing of this exchange is left on the connection.
  virtual bool isResponseComplete() const = 0;

  // Cancels the exchange from any thread: a blocked read or write throws IOException. HTTP/1.1
  // does this by breaking the connection (Carrier::cancel()).
  virtual void cancel() = 0;
};

// True for interim responses the caller skips to wait for the final one: 100 Continue and 102..199
// (Processing, Early Hints and codes not yet defined). 101 Switching Protocols is a final answer.
constexpr bool isInformational(int code) noexcept {
  return code == 100 || (code >= 102 && code < 200);
}

}  // namespace tern::internal
