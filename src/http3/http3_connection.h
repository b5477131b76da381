// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#pragma once

#include <sys/socket.h>

#include <chrono>
#include <cstdint>
#include <exception>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "concurrent/adaptive_mutex.h"
#include "concurrent/condition.h"
#include "concurrent/thread_annotations.h"
#include "http/header_block.h"
#include "http3/http3_stream.h"
#include "net/wakeup_fd.h"
#include "tern/certificate.h"
#include "tern/handshake.h"
#include "tern/inet_address.h"

struct ngtcp2_conn;
struct nghttp3_conn;
struct ngtcp2_crypto_conn_ref;
struct ngtcp2_connection_close_error;
struct gnutls_session_int;
struct gnutls_certificate_credentials_st;

namespace tern::internal {

// A client HTTP/3 connection (RFC 9114) over QUIC (RFC 9000) on a UDP socket, the HTTP/3
// counterpart of Http2Connection. ngtcp2 does QUIC (packets, loss recovery, flow control,
// streams), GnuTLS the TLS 1.3 handshake inside it (through ngtcp2's crypto helper), nghttp3 the
// HTTP/3 framing and QPACK; this class owns the socket, the threads, the streams and shutdown.
//
// Trust is tern's, not GnuTLS's: GnuTLS is given no trust store and verifies nothing. During the
// handshake the peer's chain goes to the `verifyPeer` function the owner passed (chain
// verification, hostname verification, pins); if it throws, the handshake fails and connect()
// throws that exception.
//
// Threads and locks (DESIGN.md, Threads):
//  - One reader thread ("tern H3 Reader") waits in poll() on the socket and a wake-up
//    descriptor, never holding the lock; then, under the lock, it feeds the datagrams to ngtcp2,
//    runs ngtcp2's timers (loss detection, ACK delay, idle timeout: ngtcp2_conn_get_expiry) and
//    writes every packet ngtcp2 and nghttp3 have ready. It is the only thread that reads or
//    writes the socket (non-blocking: a datagram the kernel cannot take now is lost, and QUIC
//    sends it again), so no other thread waits for the network under the lock.
//  - mutex_ guards ngtcp2, nghttp3, GnuTLS and every stream's state. Other threads (a stream's
//    writer, cancel(), a reader freeing flow-control credit) change that state under the lock
//    and signal the wake-up descriptor: the reader writes what they queued.
//  - The verifier runs on the reader thread with the lock held (inside ngtcp2_conn_read_pkt): it
//    must not use this connection.
//  - The listener hears of stream limits and shutdown without the lock held.
class Http3Connection {
 public:
  // What the owner (RealConnection) learns. Called without the connection's lock, from the
  // reader thread or whichever thread noticed.
  class Listener {
   public:
    virtual ~Listener() = default;
    // The peer now allows `maxConcurrentStreams` request streams at once (its
    // initial_max_streams_bidi transport parameter, RFC 9000 §18.2, known once the handshake is
    // done; QUIC raises the cumulative limit as streams close).
    virtual void onSettings(int maxConcurrentStreams) = 0;
    // The connection takes no new streams: GOAWAY came, or it was closed, timed out or failed.
    virtual void onShutdown() = 0;
  };

  // Checks the peer's certificate chain (leaf first, as the peer sent it) during the handshake;
  // throws (typically SSLPeerUnverifiedException) to refuse it.
  using PeerVerifier = std::function<void(const std::vector<Certificate>& peerChain)>;

  // The flow-control windows tern advertises for the connection and each request stream
  // (as HTTP/2's kClientWindowSize).
  static constexpr uint64_t kClientWindowSize = 16 * 1024 * 1024;
  // The largest response header section accepted (SETTINGS_MAX_FIELD_SECTION_SIZE): as HTTP/2's.
  static constexpr int64_t kMaxHeaderListSize = 256 * 1024;
  // How long the connection may stay silent before QUIC closes it (max_idle_timeout).
  static constexpr std::chrono::seconds kIdleTimeout{30};
  // How long the peer has, after a stream's read or write timed out, to show it is still there
  // (any packet) before the connection is degraded and given no new calls: HTTP/2's
  // kDegradedPongTimeout. The timed-out stream's RESET_STREAM is ack-eliciting, so a live peer
  // answers within a round trip and its max_ack_delay; one that stopped answering leaves the
  // connection looking healthy until kIdleTimeout, and every call given it meanwhile would time
  // out too.
  static constexpr std::chrono::seconds kDegradedTimeout{1};

  // `host` is the origin's host name or IP literal (SNI is sent for a name only), `address` the
  // resolved address to connect to (IPv4 or IPv6) with the port. Nothing happens until
  // connect().
  Http3Connection(std::string host, InetSocketAddress address, PeerVerifier verifyPeer,
                  Listener& listener);

  // close(), then frees ngtcp2's, nghttp3's and GnuTLS's state.
  ~Http3Connection();
  Http3Connection(const Http3Connection&) = delete;
  Http3Connection& operator=(const Http3Connection&) = delete;

  // Opens the UDP socket, runs the QUIC handshake (TLS 1.3, ALPN "h3") and opens HTTP/3's
  // control and QPACK streams. Returns once the handshake is complete. `timeout` bounds it all
  // (zero: no limit). Throws, each message naming "HTTP/3" and host:port:
  //  - ConnectException when the peer's host refuses the datagrams (ICMP port unreachable:
  //    nothing listens there), or the socket cannot be made;
  //  - SocketTimeoutException when nothing answered within `timeout` (UDP reports no error of
  //    its own: a silent peer is indistinguishable from a slow one);
  //  - SSLHandshakeException when TLS fails (an alert, no common cipher, a peer that does not
  //    offer "h3");
  //  - whatever verifyPeer threw, as it threw it.
  // The connection is closed after a failure. Call once.
  void connect(std::chrono::milliseconds timeout);

  // Opens a request stream with `headers` (pseudo-headers first, names lower-case); with
  // `hasRequestBody` false the HEADERS frame ends the stream. The frame goes out from the reader
  // thread; this never waits for the network. Throws a copy of the connection's failure if it
  // failed, ConnectionShutdownException if it takes no new streams (closed or GOAWAY), or
  // ConnectionShutdownException with atStreamLimit() when the peer's stream limit (QUIC
  // MAX_STREAMS) is reached, so the caller can take another connection.
  std::shared_ptr<Http3Stream> newStream(const HeaderBlock& headers, bool hasRequestBody);

  // False once the connection is shut down or failed, or when nothing came from the peer within
  // kDegradedTimeout of a stream timing out.
  bool isHealthy();

  // True once the connection takes no new streams.
  bool isShutdown();

  // Why the connection failed (a copy of the failure), or null.
  std::exception_ptr failure();

  // The peer's limit of concurrent request streams (INT32_MAX until the handshake is done).
  int maxConcurrentStreams();

  // Request streams open now.
  int openStreamCount();

  // After connect(): what the handshake negotiated, the peer's chain as it sent it.
  Handshake handshake();
  // After connect(): the ALPN protocol, "h3".
  std::string applicationProtocol();
  // After connect(): the TLS version ("TLSv1.3") and cipher suite ("TLS_AES_128_GCM_SHA256").
  std::string tlsVersionName();
  std::string cipherSuiteName();

  // Breaks the connection from any thread without waiting (a call's cancel, a lost race):
  // connect() and every open stream fail with InterruptedIOException("Canceled"), no new streams
  // open, and the reader thread stops. close() still has to follow, to join the reader and close
  // the socket. Idempotent.
  void cancel();

  // Sends CONNECTION_CLOSE with H3_NO_ERROR (best effort), fails the streams still open with
  // IOException("HTTP/3 connection to ... closed"), and stops the reader thread. Idempotent. Not
  // from the reader thread (nor the verifier or listener).
  void close();

  const std::string& peerName() const noexcept { return peerName_; }

  // After connect(): the local address and port of the UDP socket.
  InetSocketAddress localAddress();

 private:
  friend class Http3Stream;
  friend struct Http3Callbacks;

  void readerLoop();
  // Reads every datagram waiting and feeds it to ngtcp2. Returns the failure, or null.
  std::exception_ptr receiveLocked() TERN_REQUIRES(mutex_);
  // Runs ngtcp2's timers if one expired. Returns the failure, or null.
  std::exception_ptr handleExpiryLocked() TERN_REQUIRES(mutex_);
  // Writes what ngtcp2 and nghttp3 have ready, as far as congestion control and pacing allow.
  // Returns the failure, or null.
  std::exception_ptr writeLocked() TERN_REQUIRES(mutex_);
  // Sends CONNECTION_CLOSE with `error` unless the connection is already closing or draining.
  // Best effort.
  void sendConnectionCloseLocked(const ngtcp2_connection_close_error* error) TERN_REQUIRES(mutex_);
  // The exception for a failed ngtcp2_conn_read_pkt() (`result`), after sending the
  // CONNECTION_CLOSE it calls for.
  std::exception_ptr readFailureLocked(int result) TERN_REQUIRES(mutex_);
  // Sets up nghttp3 once 1-RTT keys are in place: the control stream and QPACK's two streams.
  // Returns false if it cannot (the peer allows fewer than 3 unidirectional streams).
  bool setupHttp3Locked() TERN_REQUIRES(mutex_);
  // The handshake is complete: checks ALPN and records what was negotiated. False: refused.
  bool handshakeCompletedLocked() TERN_REQUIRES(mutex_);
  // Fails the connection: every open stream gets `e`, no new streams, the reader stops.
  // Idempotent (the first failure wins).
  void failConnectionLocked(std::exception_ptr e) TERN_REQUIRES(mutex_);
  // Tells the listener what changed since last time, without the lock.
  void deliverEvents();
  // Makes the reader thread run its loop now (to write what another thread queued).
  void wakeReader() noexcept;
  // The stream with `id`, or null. Lock held.
  Http3Stream* streamLocked(int64_t id) TERN_REQUIRES(mutex_);
  // Counts `count` response body bytes of `stream` as read by the application (QUIC stream flow
  // control). Lock held; the caller wakes the reader.
  void consumeLocked(Http3Stream& stream, uint64_t count) TERN_REQUIRES(mutex_);
  // Resumes a request body nghttp3 paused for want of bytes. Lock held.
  void resumeDataLocked(Http3Stream& stream) TERN_REQUIRES(mutex_);
  // Resets `stream` both ways with `code` (RESET_STREAM and STOP_SENDING). Lock held; the
  // caller wakes the reader.
  void resetStreamLocked(Http3Stream& stream, uint64_t code) TERN_REQUIRES(mutex_);
  // For a stream, which holds the lock under its own name: tells the analysis that `held` and
  // mutex_ are one lock. Checks it in debug builds.
  void assertLockIs(const Mutex& held) const TERN_REQUIRES(held) TERN_ASSERT_CAPABILITY(mutex_);
  // Frees ngtcp2's, nghttp3's and GnuTLS's state. Lock held.
  void releaseLocked() noexcept TERN_REQUIRES(mutex_);
  // A stream's read or write timed out: the connection is degraded unless a packet arrives within
  // kDegradedTimeout. Lock held.
  void streamTimedOutLocked() TERN_REQUIRES(mutex_);

  const std::string host_;
  const InetSocketAddress address_;
  const PeerVerifier verifyPeer_;
  Listener& listener_;
  const std::string peerName_;  // "host:port".
  int fd_ = -1;                 // The connected UDP socket; owned; closed by the destructor.
  WakeupFd wakeup_;
  std::thread reader_;
  sockaddr_storage localAddress_{};  // ngtcp2's path: what the socket is bound and connected to.
  socklen_t localAddressLength_ = 0;
  sockaddr_storage remoteAddress_{};
  socklen_t remoteAddressLength_ = 0;
  std::unique_ptr<ngtcp2_crypto_conn_ref> connRef_;  // GnuTLS's way back to conn_.

  // Guards everything below and every stream's state.
  AdaptiveMutex mutex_;
  ngtcp2_conn* conn_ TERN_GUARDED_BY(mutex_) = nullptr;    // Owned; freed by releaseLocked().
  nghttp3_conn* http3_ TERN_GUARDED_BY(mutex_) = nullptr;  // Owned; likewise.
  gnutls_session_int* session_ TERN_GUARDED_BY(mutex_) = nullptr;  // Owned; likewise.
  gnutls_certificate_credentials_st* credentials_ TERN_GUARDED_BY(mutex_) = nullptr;  // Likewise.
  std::map<int64_t, std::shared_ptr<Http3Stream>> streams_
      TERN_GUARDED_BY(mutex_);  // Request streams open in ngtcp2.
  // While the reader feeds datagrams to ngtcp2, the streams they concern are woken once, after
  // it lets go of the lock (as Http2Connection does).
  bool deferWakeups_ TERN_GUARDED_BY(mutex_) = false;
  std::vector<std::shared_ptr<Http3Stream>> wakeups_ TERN_GUARDED_BY(mutex_);
  bool handshakeCompleted_ TERN_GUARDED_BY(mutex_) = false;
  // connect()'s timeout, for the message when ngtcp2's handshake timer (set to it) runs out first.
  std::chrono::milliseconds connectTimeout_ TERN_GUARDED_BY(mutex_){0};
  // Set when a stream timed out, cleared by the next packet from the peer: once past, the
  // connection is degraded (see kDegradedTimeout).
  std::optional<std::chrono::steady_clock::time_point> degradedDeadline_ TERN_GUARDED_BY(mutex_);
  Condition handshakeChanged_;                          // Notified on completion and failure.
  bool stopReader_ TERN_GUARDED_BY(mutex_) = false;     // close() asks the reader to return.
  bool shutdown_ TERN_GUARDED_BY(mutex_) = false;       // No new streams.
  bool closed_ TERN_GUARDED_BY(mutex_) = false;         // close() ran.
  std::exception_ptr failure_ TERN_GUARDED_BY(mutex_);  // Why the connection failed, or null.
  // What verifyPeer threw, as it threw it (connect() rethrows this very exception).
  std::exception_ptr verifyFailure_ TERN_GUARDED_BY(mutex_);
  // Why nghttp3 or a callback gave up, for the message of the failure it causes.
  std::string lastError_ TERN_GUARDED_BY(mutex_);
  // The CONNECTION_CLOSE error code nghttp3 asked for (an H3 code), when it saw a peer's error.
  uint64_t http3ErrorCode_ TERN_GUARDED_BY(mutex_) = 0;
  int maxConcurrentStreams_ TERN_GUARDED_BY(mutex_) = INT32_MAX;
  std::optional<int64_t> goawayStreamId_ TERN_GUARDED_BY(mutex_);  // The peer's GOAWAY.
  // What the handshake negotiated.
  std::vector<Certificate> peerCertificates_ TERN_GUARDED_BY(mutex_);
  std::string alpn_ TERN_GUARDED_BY(mutex_);
  std::string tlsVersion_ TERN_GUARDED_BY(mutex_);
  std::string cipherSuite_ TERN_GUARDED_BY(mutex_);
  // Events for the listener, delivered by deliverEvents().
  bool settingsChanged_ TERN_GUARDED_BY(mutex_) = false;
  bool shutdownToReport_ TERN_GUARDED_BY(mutex_) = false;
};

}  // namespace tern::internal
