// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#pragma once

#include <atomic>
#include <exception>
#include <functional>
#include <memory>
#include <optional>

#include "concurrent/task_queue.h"
#include "http/exchange_codec.h"
#include "tern/headers.h"
#include "tern/request.h"
#include "tern/response.h"
#include "tern/response_body.h"
#include "tern/sink.h"
#include "tern/upgraded_socket.h"

namespace tern::internal {

class ExchangeFinder;
class ConnectionUser;
class RealConnection;

// One request and its response on a connection, as OkHttp's Exchange: wraps the codec so that
// the call learns when each body is done (to release the connection) and every failure is
// recorded on the connection (so it is not reused) and in the finder (to decide on retries). It
// reports the request and response events (headers, bodies with their byte counts, failures) to
// the call's listener.
//
// Owned by std::shared_ptr: the call holds it while the exchange runs, and the streaming
// response body holds it (and the call) until closed. Driven by one thread at a time; cancel()
// may come from any thread.
class Exchange : public std::enable_shared_from_this<Exchange> {
 public:
  Exchange(std::shared_ptr<ConnectionUser> user, std::shared_ptr<ExchangeFinder> finder,
           std::shared_ptr<RealConnection> connection, std::unique_ptr<ExchangeCodec> codec);
  ~Exchange();
  Exchange(const Exchange&) = delete;
  Exchange& operator=(const Exchange&) = delete;

  RealConnection& connection() noexcept { return *connection_; }
  const std::shared_ptr<ExchangeFinder>& finder() const noexcept { return finder_; }

  // True if the connection was made for another host and coalesced for this exchange's (see
  // RealConnection::isEligibleLocked()).
  bool isCoalescedConnection() const;

  // True once an I/O failure was recorded: the request may be half-sent, yet a response may
  // still be readable (a server that answers without reading the whole body).
  bool hasFailure() const noexcept { return hasFailure_.load(); }

  // The codec's steps (see ExchangeCodec), each reporting its events and recording a failure
  // (requestFailed / responseFailed) before rethrowing it.
  void writeRequestHeaders(const Request& request);
  // A sink for the request body; closing it finishes the request body. (Not buffered.)
  std::unique_ptr<Sink> createRequestBody(const Request& request);
  void flushRequest();
  void finishRequest();
  std::optional<Response::Builder> readResponseHeaders(bool expectContinue);

  // Reports responseHeadersStart (the caller does, once the first response headers arrived)
  // and responseHeadersEnd (with the final response, without its body).
  void responseHeadersStart();
  void responseHeadersEnd(const Response& response);
  // Reports responseBodyStart (the body source does, once).
  void responseBodyStart();

  // The streaming body of `response`: closing it or reading it to the end ends the exchange's
  // response half. Its Content-Length is the codec's reported length.
  ResponseBody openResponseBody(const Response& response);

  // Whether `response` switched protocols as the request's Upgrade header asked (the codec's
  // switchedProtocols(): a 101 on HTTP/1.1, a 2xx to an extended CONNECT on HTTP/2).
  bool switchedProtocols(const Response& response) const;

  // The connection (HTTP/2: the stream) after switchedProtocols() (the codec's
  // openUpgradedStreams()), instead of openResponseBody(). The response half ends, with
  // responseBodyStart and responseBodyEnd (the bytes read from the socket) or responseFailed,
  // once both of the socket's streams are closed or the socket is destroyed; then the call
  // releases the connection, which closes an HTTP/1.1 one (an HTTP/2 one carries on).
  std::shared_ptr<UpgradedSocket> upgrade();

  // The response's trailers (ExchangeCodec::trailers()).
  Headers trailers();

  // Runs `write` (a duplex request body's writeTo() and close(), HTTP/2 only) on the
  // connection's TaskRunner while the call reads the response, in a queue of this exchange's
  // own. Destroying the exchange waits for a write still under way, so no thread outlives it
  // (DESIGN.md: no detached threads); `write` may itself let go of the last reference.
  void writeRequestBodyLater(std::function<void()> write);

  // The request has no body (or its body will not be sent): ends the request half.
  void noRequestBody();

  // The connection must not carry further exchanges.
  void noNewExchangesOnConnection();

  // Breaks the exchange from any thread.
  void cancel();

  // Breaks the exchange and tells the call it is over, whatever state its bodies are in.
  void detachWithViolence();

  // Records `e` on the connection and the finder.
  void trackFailure(const IOException& e);

  // A body finished after `bytesRead` bytes (`e`: its failure, or null): reports the body's end
  // or failure, and returns what to throw, or null.
  std::exception_ptr bodyComplete(int64_t bytesRead, bool requestDone, bool responseDone,
                                  std::exception_ptr e);

  // The request body sink was dropped unfinished after `bytesWritten` bytes (the body's
  // writeTo() threw): reports requestFailed and ends the request half.
  void requestBodyAbandoned(int64_t bytesWritten);

 private:
  class RequestBodySink;
  void requestFailed(const IOException& e);   // Reports it, then trackFailure().
  void responseFailed(const IOException& e);  // Likewise.
  class ResponseBodySource;
  class Upgraded;

  std::shared_ptr<ConnectionUser> user_;
  std::shared_ptr<ExchangeFinder> finder_;
  std::shared_ptr<RealConnection> connection_;
  std::unique_ptr<ExchangeCodec> codec_;
  std::atomic<bool> hasFailure_{false};
  // For writeRequestBodyLater(). Last, so it is destroyed first: its destructor waits for the
  // write, which uses the members above.
  std::unique_ptr<TaskQueue> requestBodyWriter_;
};

}  // namespace tern::internal
