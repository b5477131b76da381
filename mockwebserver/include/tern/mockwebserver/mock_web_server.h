// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "tern/export.h"
#include "tern/http_url.h"
#include "tern/mockwebserver/dispatcher.h"
#include "tern/mockwebserver/mock_response.h"
#include "tern/mockwebserver/queue_dispatcher.h"
#include "tern/mockwebserver/recorded_request.h"
#include "tern/mockwebserver/socket_policy.h"
#include "tern/protocol.h"
#include "tern/tls/handshake_certificates.h"

namespace tern::mockwebserver {

// A scriptable HTTP/1.1, HTTP/2 and HTTP/3 server for tests, as OkHttp's mockwebserver3
// MockWebServer, over cleartext or (after useHttps()) TLS, and QUIC for HTTP/3 (protocols()).
// HTTP/2 is cleartext with prior knowledge (setProtocols({Protocol::H2_PRIOR_KNOWLEDGE})), served
// on nghttp2's server API: each stream is answered on its own thread, so a slow or stalled response
// never holds up the connection's other streams. Script the responses, point the code under test at
// url(), then check the requests it made:
//
//   MockWebServer server;
//   server.enqueue(MockResponse::Builder().body("hello").build());
//   HttpUrl url = server.url("/greeting");      // Starts the server on 127.0.0.1.
//   ... make a request to url ...
//   RecordedRequest request = server.takeRequest();
//   EXPECT_EQ(request.path(), "/greeting");
//
// Threads: one accept thread, plus one thread per connection (with HTTP/3, one more thread for
// every QUIC connection, plus one per HTTP/2 or HTTP/3 stream being answered). close() (and the
// destructor) stops them all promptly, whatever they are doing (reading a request, waiting in the
// dispatcher, sleeping for a delay or throttle, stalled by a socket policy), closes every
// socket and joins every thread: nothing leaks.
//
// Every method is thread-safe. Not copyable or movable (its threads refer to it).
class TERN_API MockWebServer {
 public:
  // How long takeRequest() without a timeout waits.
  static constexpr std::chrono::seconds kDefaultTakeRequestTimeout{10};

  // A server that is not started yet, with a QueueDispatcher.
  MockWebServer();

  // Closes the server (see close()).
  ~MockWebServer();

  MockWebServer(const MockWebServer&) = delete;
  MockWebServer& operator=(const MockWebServer&) = delete;

  // Starts listening on the loopback interface, 127.0.0.1, on `port` (0, the default, picks a
  // free port; tests should use 0). Does nothing if already started. Throws IOException if the
  // port cannot be bound, std::logic_error if the server was closed, std::invalid_argument if
  // `port` is outside 0..65535.
  void start(int port = 0);

  // Starts listening on `host` (an IPv4 or IPv6 literal, or a name resolved to its first
  // address) and `port`. hostName() is then `host`. Throws UnknownHostException if `host` does
  // not resolve, otherwise as start(port).
  void start(std::string_view host, int port);

  // Starts listening on a Unix domain socket at `path` (a file it creates, replacing a socket
  // already there), or with `abstract` on the Linux abstract socket named `path`, for clients
  // set with Client::Builder::unixSocket(). url() is then "http://localhost/..." (https with
  // useHttps()): only its host and port are what requests name, the socket is where they go.
  // The file is removed by close(). Throws IOException if it cannot be bound, otherwise as
  // start(port).
  void startUnixSocket(std::string_view path, bool abstract = false);

  // Stops the server: stops accepting, closes every connection (clients see end of stream or a
  // reset), releases the dispatcher (Dispatcher::shutdown()), and joins every thread. Returns
  // promptly even while clients are mid-request or connections are stalled. Recorded requests
  // stay available to takeRequest(). Idempotent; the server cannot be started again. Must not
  // be called from a dispatcher (use SocketPolicy::ShutdownServerAfterResponse).
  void close();

  // The same as close(), OkHttp's other name for it.
  void shutdown() { close(); }

  // True once start() (or a method that starts the server) has run.
  bool started() const;

  // The host clients should connect to: "127.0.0.1", or the host given to start(host, port).
  // Starts the server if needed.
  std::string hostName();

  // The port the server listens on. Starts the server if needed.
  int port();

  // A URL on this server: url("/a?b") is "http://127.0.0.1:<port>/a?b". `path` is resolved
  // against the server's root URL, so it may hold a query or be relative. Starts the server if
  // needed. Throws std::invalid_argument if the result is not a valid URL.
  HttpUrl url(std::string_view path);

  // Serves https instead of http, presenting `certificates`' held certificate (and
  // intermediates) in TLS handshakes; url() then gives https URLs. For mutual TLS, the trusted
  // certificates of `certificates` verify the client's certificate (see requestClientAuth()).
  //
  //   HeldCertificate localhost = HeldCertificate::Builder().addSubjectAlternativeName(
  //       "localhost").build();
  //   server.useHttps(HandshakeCertificates::Builder().heldCertificate(localhost).build());
  //
  // Call it, and the client-auth and protocols settings below, before the server starts. Throws
  // std::logic_error once started, std::invalid_argument at start() if `certificates` holds no
  // certificate to serve with.
  void useHttps(const tls::HandshakeCertificates& certificates);

  // Asks TLS clients for a certificate without requiring one (Java's wantClientAuth); one that
  // is sent must be trusted by the certificates given to useHttps(), or the handshake fails.
  void requestClientAuth();
  // Requires a client certificate (needClientAuth): a handshake without one fails.
  void requireClientAuth();
  // Asks for no client certificate (the default).
  void noClientAuth();

  // The protocols the server selects from by ALPN, in its order of preference. Must contain
  // HTTP_1_1. Default {HTTP_2, HTTP_1_1}: over TLS a client offering h2 is served HTTP/2.
  // With HTTP_3 (and useHttps(), or start() throws std::invalid_argument), the server also
  // serves HTTP/3 over QUIC on the same port over UDP, and its responses over TCP advertise it
  // with "Alt-Svc: h3=\":<port>\"; ma=86400" (unless the script sets an Alt-Svc header): a
  // client that may use HTTP/3 moves to it after its first call (see docs/mockwebserver.md for
  // what HTTP/3 serves and which socket policies apply). Throws std::invalid_argument without
  // HTTP_1_1, std::logic_error once started. The same list as setProtocols() below.
  void protocols(std::vector<Protocol> protocols);

  // Scripts `response` for a future request: the first request gets the first enqueued
  // response, and so on (see QueueDispatcher). Throws std::logic_error if setDispatcher()
  // replaced the QueueDispatcher.
  void enqueue(MockResponse response);

  // Replaces the dispatcher that answers requests. Throws std::invalid_argument if null.
  void setDispatcher(std::shared_ptr<Dispatcher> dispatcher);

  // Replaces the dispatcher with `dispatch`, called for each request (from connection threads,
  // possibly concurrently).
  void setDispatcher(std::function<MockResponse(const RecordedRequest&)> dispatch);

  // The current dispatcher.
  std::shared_ptr<Dispatcher> dispatcher() const;

  // Waits for the next request the server received, removes it from the server's record and
  // returns it. Waits at most kDefaultTakeRequestTimeout, then throws InterruptedIOException
  // ("MockWebServer.takeRequest() timed out after 10s") rather than hang a test forever.
  RecordedRequest takeRequest();

  // Like takeRequest(), waiting at most `timeout`; std::nullopt if no request arrived in time.
  std::optional<RecordedRequest> takeRequest(std::chrono::nanoseconds timeout);

  // The number of requests received so far (including those already taken and the requests
  // recorded for DisconnectAtStart / StallSocketAtStart connections). More than the number of
  // connections when connections are reused.
  int requestCount() const;

  // The protocols to serve, as OkHttp's MockWebServer.protocols: {HTTP_2, HTTP_1_1} by default
  // (HTTP/1.1 on cleartext), or exactly {H2_PRIOR_KNOWLEDGE} to serve every connection as
  // HTTP/2 without negotiation (RFC 9113 §3.3). Applies to connections accepted afterwards.
  // With HTTP_3 beside HTTP_1_1 (and useHttps()), HTTP/3 is served too, as protocols() says.
  // Throws std::invalid_argument as Client::Builder::protocols() does for a bad list, and for
  // HTTP_3 without HTTP_1_1 (TCP is always served).
  void setProtocols(std::vector<Protocol> protocols);
  std::vector<Protocol> protocols() const;

  // HTTP/2: each connection serves `streamCount` streams, then answers the next stream's HEADERS
  // with GOAWAY(last-stream-id = the last served stream, NO_ERROR), so the client retries that
  // stream and any later ones on a new connection; the streams served finish normally. 0 (the
  // default) never sends GOAWAY. Throws std::invalid_argument if negative.
  void setGoAwayAfterStreams(int streamCount);

  // HTTP/2: whether the server's first SETTINGS carry SETTINGS_ENABLE_CONNECT_PROTOCOL = 1, so
  // clients may open WebSockets over HTTP/2 with extended CONNECT (RFC 8441). On by default; off,
  // a request with a :protocol pseudo-header is refused (RST_STREAM PROTOCOL_ERROR), as by a
  // server without RFC 8441. A stream whose response has webSocketUpgrade() is answered 200 and
  // becomes the WebSocket (see docs/mockwebserver.md). Throws std::logic_error once started.
  void setExtendedConnect(bool enabled);
  bool extendedConnect() const;

  // Keeps at most `bodyLimit` bytes of each request body in RecordedRequest::body() (bodySize()
  // still counts them all). Unlimited by default. Throws std::invalid_argument if negative.
  void setBodyLimit(int64_t bodyLimit);
  int64_t bodyLimit() const;

  // "MockWebServer[<port>]" (-1 before start()).
  std::string toString() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace tern::mockwebserver
