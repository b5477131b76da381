// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#pragma once

#include <sys/socket.h>

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <list>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "body_transfer.h"
#include "server_socket.h"
#include "server_state.h"
#include "tern/handshake.h"
#include "tern/headers.h"
#include "tern/mockwebserver/mock_response.h"
#include "tern/mockwebserver/recorded_request.h"
#include "tern/tls/handshake_certificates.h"

struct gnutls_certificate_credentials_st;
struct ngtcp2_path;

namespace tern::mockwebserver::internal {

// MockWebServer's HTTP/3 (RFC 9114) side: QUIC (RFC 9000) on a UDP socket bound to the same
// address and port as the TCP listener, on ngtcp2's server API with its GnuTLS crypto helper (TLS
// 1.3, ALPN "h3") and nghttp3. Requests are recorded and dispatched as over HTTP/2, each answered
// on a thread of its own, so the scripted delays, throttling and policies of one response never
// hold up another stream.
//
// Threads: one "MockWebServer H3" thread reads every datagram, demultiplexes it by destination
// connection ID (a new connection for a client's Initial), runs ngtcp2's timers and writes
// whatever every connection has ready. Responder threads queue response bytes and wake it.
// mutex_ guards everything: ngtcp2, nghttp3, GnuTLS and every stream; it is never held while a
// responder sleeps or the dispatcher runs.
//
// Socket policies over HTTP/3: ResetStreamAtStart resets the stream (RESET_STREAM and
// STOP_SENDING with the HTTP/3 code matching its HTTP/2 code); NoResponse leaves the stream
// unanswered; DoNotReadRequestBody answers, then sends STOP_SENDING; the policies that disconnect
// or shut a TCP connection down (DisconnectAfterRequest, HalfCloseAfterRequest, DisconnectAtEnd,
// DisconnectDuringResponseBody, ShutdownInputAtEnd, ShutdownOutputAtEnd) close the QUIC
// connection with CONNECTION_CLOSE (H3_NO_ERROR) at that point; ShutdownServerAfterResponse
// closes the server. The connection-level ones a TCP accept meets (DisconnectAtStart,
// StallSocketAtStart, FailHandshake) and the HTTP/2 settings and GOAWAY of a response do not
// apply to QUIC and are ignored.
class Http3Server {
 public:
  // Serves on `socket`, a bound UDP socket (non-blocking), presenting `certificates`' held
  // certificate. Starts the server's thread. Throws std::invalid_argument if `certificates` holds
  // no certificate, std::runtime_error if GnuTLS cannot load it.
  Http3Server(ServerState& server, const tls::HandshakeCertificates& certificates,
              FileDescriptor socket);
  // close().
  ~Http3Server();
  Http3Server(const Http3Server&) = delete;
  Http3Server& operator=(const Http3Server&) = delete;

  // Ends every connection (CONNECTION_CLOSE, best effort), wakes every responder and joins every
  // thread. Call once the server's close signal has fired. Idempotent.
  void close();

 private:
  struct Callbacks;
  struct Connection;
  struct Stream;

  struct ResponderThread {
    std::thread thread;
    std::atomic<bool> done{false};
  };

  void run();
  // Reads every waiting datagram and feeds it to its connection, making connections for new
  // clients' Initial packets. `mutex_` held.
  void receiveLocked();
  void acceptLocked(const uint8_t* datagram, size_t length, const sockaddr_storage& remote,
                    socklen_t remoteLength);
  // Feeds one datagram to `connection`. False: the connection is over.
  bool readLocked(Connection& connection, const uint8_t* datagram, size_t length);
  // Writes what `connection` has ready. False: the connection is over.
  bool writeLocked(Connection& connection);
  // Runs `connection`'s expired timers. False: the connection is over.
  bool handleExpiryLocked(Connection& connection);
  // Sends CONNECTION_CLOSE with `applicationError` (an HTTP/3 code), then ends the connection.
  void closeConnectionLocked(Connection& connection, uint64_t applicationError);
  // Ends `connection` without a word (its peer is gone or broke QUIC): fails its streams and
  // forgets its connection IDs.
  void endConnectionLocked(Connection& connection);
  bool setupHttp3Locked(Connection& connection);
  // Sends a datagram on `path` (as ngtcp2 wrote it for).
  void sendLocked(const Connection& connection, const ngtcp2_path& path, const uint8_t* packet,
                  size_t length);

  void startResponderLocked(const std::shared_ptr<Connection>& connection,
                            const std::shared_ptr<Stream>& stream, bool bodyUnread);
  void respond(const std::shared_ptr<Connection>& connection, const std::shared_ptr<Stream>& stream,
               bool bodyUnread);
  RecordedRequest recordedRequest(Connection& connection, Stream& stream);
  // Queues the body, paced as the response asks. False if a policy cut it short or the stream
  // or connection went away.
  bool writeBody(Connection& connection, Stream& stream, const MockResponse& response);
  bool writeOut(Connection& connection, Stream& stream, Buffer& source, int64_t byteCount);
  bool endOut(Connection& connection, Stream& stream);
  // Waits until the client acknowledged every body byte queued on `stream`.
  bool awaitAcked(Connection& connection, Stream& stream);
  // Waits until the whole response is delivered: `stream` closed (the client acknowledged its
  // end) and nothing of the connection's in flight (QPACK's encoder instructions, which the
  // response may wait for, included); QUIC, unlike TCP, may otherwise see a CONNECTION_CLOSE
  // overtake them. At most 5 s.
  void awaitDelivered(Connection& connection, Stream& stream);
  // Closes the connection from a responder (the disconnecting policies).
  void disconnect(Connection& connection);
  void wake() noexcept;
  void joinFinishedResponders(bool all);

  ServerState& server_;
  FileDescriptor socket_;
  FileDescriptor wakeup_;  // An eventfd: responders make the server thread run its loop.
  sockaddr_storage localAddress_{};
  socklen_t localAddressLength_ = 0;
  std::vector<Certificate> localCertificates_;  // The chain served, for RecordedRequest.
  gnutls_certificate_credentials_st* credentials_ = nullptr;  // Owned.
  std::thread thread_;

  std::mutex mutex_;  // Guards everything below, and every connection's and stream's state.
  // Every connection, by each of its connection IDs (as raw bytes).
  std::map<std::string, std::shared_ptr<Connection>> connectionsById_;
  std::list<std::shared_ptr<Connection>> connections_;
  int nextConnectionIndex_ = 0;
  bool closed_ = false;
  std::list<std::unique_ptr<ResponderThread>> responders_;
};

}  // namespace tern::mockwebserver::internal
