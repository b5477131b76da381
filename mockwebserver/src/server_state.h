// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#pragma once

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "server_socket.h"
#include "server_tls.h"
#include "tern/http_url.h"
#include "tern/mockwebserver/dispatcher.h"
#include "tern/mockwebserver/recorded_request.h"
#include "tern/protocol.h"

namespace tern::mockwebserver::internal {

// What a MockWebServer shares with its accept and connection threads: the dispatcher, the record
// of requests, settings, and the signal that it is closing. Owned by the server, which joins
// every thread before destroying it. Thread-safe.
class ServerState {
 public:
  // Throws IOException if the close signal cannot be made.
  ServerState();

  // Set once by start(), before any server thread runs; read-only afterwards.
  void setAddress(std::string hostName, std::string hostAddress, int port);
  const std::string& hostName() const noexcept { return hostName_; }
  // The bound address as it goes in a URL authority: "127.0.0.1", "[::1]".
  const std::string& hostAddress() const noexcept { return hostAddress_; }
  int port() const noexcept { return port_; }
  // "http://<hostName>:<port>/" ("https" once useHttps()): the base of url() and the fallback
  // RecordedRequest::url().
  HttpUrl rootUrl() const;
  // "http" or "https".
  std::string scheme() const { return tls_ ? "https" : "http"; }

  // Set once by useHttps() before start(), before any server thread runs; read-only afterwards.
  void setTls(std::unique_ptr<ServerTls> tls) { tls_ = std::move(tls); }
  const ServerTls* tls() const noexcept { return tls_.get(); }

  std::shared_ptr<Dispatcher> dispatcher() const;
  void setDispatcher(std::shared_ptr<Dispatcher> dispatcher);

  // The dispatcher's response to `request`. While the server also serves HTTP/3, a response
  // over TCP advertises it (RFC 7838: "Alt-Svc: h3=\":<port>\"; ma=86400") unless the script
  // set an Alt-Svc header of its own.
  MockResponse dispatch(const RecordedRequest& request);

  // Set once by start(), before any server thread runs: whether QUIC is served on port().
  void setServesHttp3(bool servesHttp3) { servesHttp3_ = servesHttp3; }
  bool servesHttp3() const noexcept { return servesHttp3_; }

  int64_t bodyLimit() const;
  void setBodyLimit(int64_t bodyLimit);

  std::vector<Protocol> protocols() const;
  void setProtocols(std::vector<Protocol> protocols);

  // After this many streams an HTTP/2 connection sends GOAWAY; 0 for never.
  int goAwayAfterStreams() const;
  void setGoAwayAfterStreams(int streamCount);

  // Whether HTTP/2 connections offer extended CONNECT (RFC 8441 §3); set before start().
  bool extendedConnect() const;
  void setExtendedConnect(bool enabled);

  // Adds `request` to the record takeRequest() reads and counts it.
  void record(RecordedRequest request);
  // The oldest recorded request not yet taken, waiting up to `timeout` for one.
  std::optional<RecordedRequest> take(std::chrono::nanoseconds timeout);
  int requestCount() const;

  // Records a placeholder request (empty request line) for a connection a socket policy refuses
  // before any HTTP (DisconnectAtStart, StallSocketAtStart) and dispatches it, dropping the
  // response, so a script of responses stays in step with connection attempts.
  void dispatchBookkeepingRequest(int sequenceNumber, int connectionIndex);

  // Fires when the server closes; every server thread polls it.
  CloseSignal& closing() noexcept { return closing_; }

  // Begins closing the server from one of its own threads (ShutdownServerAfterResponse): stops
  // accepting, ends every connection, releases the dispatcher. The owner's close() joins.
  void beginShutdown();

 private:
  CloseSignal closing_;
  std::string hostName_;
  std::string hostAddress_;
  int port_ = -1;
  bool servesHttp3_ = false;
  std::unique_ptr<ServerTls> tls_;

  mutable std::mutex mutex_;
  std::condition_variable requestRecorded_;
  std::shared_ptr<Dispatcher> dispatcher_;  // Guarded by mutex_; never null.
  std::deque<RecordedRequest> requests_;    // Guarded by mutex_.
  int requestCount_ = 0;                    // Guarded by mutex_.
  int64_t bodyLimit_ = INT64_MAX;           // Guarded by mutex_.
  std::vector<Protocol> protocols_{Protocol::HTTP_2, Protocol::HTTP_1_1};  // Guarded by mutex_.
  int goAwayAfterStreams_ = 0;                                             // Guarded by mutex_.
  bool extendedConnect_ = true;                                            // Guarded by mutex_.
};

}  // namespace tern::mockwebserver::internal
