// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#pragma once

#include <atomic>
#include <chrono>
#include <exception>
#include <memory>
#include <vector>

#include "concurrent/thread_annotations.h"
#include "connection/real_connection_pool.h"
#include "http/exchange_codec.h"
#include "http2/http2_connection.h"
#include "http3/http3_connection.h"
#include "net/socket.h"
#include "net/tls_socket.h"
#include "tern/buffered_sink.h"
#include "tern/buffered_source.h"
#include "tern/connection.h"
#include "tern/handshake.h"
#include "tern/request.h"
#include "tern/route.h"

namespace tern::internal {

class ConnectionSpecSelector;
class ConnectionUser;
class RealConnectionPool;
class RouteDatabase;
struct ConnectionSettings;

// Thrown by RealConnection::connectTlsEtc() when an HTTP proxy answered CONNECT with 407 and
// closed the connection, and the proxy authenticator gave `request` (with credentials) to try:
// the caller connects again over the same route and sends it (setTunnelRequest()). As OkHttp's
// ConnectPlan with a next tunnel request. Not an IOException: nothing failed.
struct TunnelRetry {
  Request request;
  int attempt;  // How many tunnels were tried so far.
};

// True if the peer reset a stream without processing it (HTTP/2's REFUSED_STREAM, HTTP/3's
// H3_REQUEST_REJECTED): the request may go again on another connection.
bool isRefusedStream(const StreamResetException& e);
// True for a reset that cancels the stream (HTTP/2's CANCEL, HTTP/3's H3_REQUEST_CANCELLED).
bool isCanceledStream(const StreamResetException& e);

// Authenticates the server of `address` whose chain (`peer`, leaf first, as sent) the TLS
// handshake has verified: its leaf must name the host (the address's HostnameVerifier), and when
// pins apply to the host the chain cleaned to a trusted root must hold a pinned key
// (CertificatePinner). Returns what Handshake::peerCertificates() reports: the cleaned chain, or
// the chain as sent when no trusted path can be rebuilt (an insecure host). Throws
// SSLPeerUnverifiedException, after dropping the cached TLS session for the host so a resumed
// session cannot skip the check. One check for TLS over TCP and QUIC's handshake alike.
std::vector<Certificate> authenticatePeer(const Address& address,
                                          const std::vector<Certificate>& peer);

// One connection to a server, as OkHttp's RealConnection: a TCP connection (with TLS on top for
// https) or, for HTTP/3, a QUIC connection. HTTP/1.1 carries one exchange at a time; HTTP/2 (an
// Http2Connection over the socket, or over TLS when ALPN chose h2) and HTTP/3 (an
// Http3Connection over its own UDP socket) carry up to the peer's stream limit at once. Made by
// ExchangeFinder, connected on the call's thread, then owned by the pool (std::shared_ptr),
// which lends it to calls.
//
// Threads and locks: the call that makes it connects it; the calls holding it drive their
// codecs; any thread may cancel() it; an HTTP/2 or HTTP/3 connection's reader thread reports
// settings and shutdown through its Listener (one onSettings() and onShutdown() serve both). The
// bookkeeping below (calls_, noNewExchanges_, allocationLimit_, counts, idleAtNanos_) is guarded by
// the pool's mutex (RealConnectionPool::mutex()), so the pool can scan it; methods named *Locked
// expect that lock held (TERN_REQUIRES), the others take it.
class RealConnection final : public Connection,
                             public ExchangeCodec::Carrier,
                             private Http2Connection::Listener,
                             private Http3Connection::Listener {
 public:
  // How long a connection may sit idle before reuse without the extensive health check
  // (a non-blocking read to see whether the peer has closed it). OkHttp's 10 s.
  static constexpr std::chrono::seconds kIdleConnectionHealthy{10};

  // A connection over `route`, not connected yet. Its socket exists from the start, so cancel()
  // can stop connect(). Throws IOException if no socket can be made.
  RealConnection(RealConnectionPool& pool, Route route);

  // Picks the QUIC constructor.
  struct OverQuic {};
  // An HTTP/3 connection over QUIC for `route`: an https address with no proxy, whose socket
  // address is the IP address and UDP port of the origin's "h3" alternative service (RFC 7838),
  // not connected yet. connectSocket() runs the whole QUIC handshake, the TLS 1.3 inside it
  // included: the server must prove it is the origin (RFC 7838 §2.1), with the address's trust,
  // hostname verifier and pins, as over TCP. connectTlsEtc() then only reports the handshake.
  RealConnection(RealConnectionPool& pool, Route route, OverQuic);
  ~RealConnection() override;
  RealConnection(const RealConnection&) = delete;
  RealConnection& operator=(const RealConnection&) = delete;

  // Opens the TCP connection within `connectTimeout` (zero: no limit), and for https runs the
  // TLS handshake within `connectTimeout` again, with the spec `specSelector` picks, then checks
  // the server's identity: the hostname verifier against the certificates, the certificate pinner
  // against the cleaned chain. Then, if ALPN chose h2 or the address's protocols are exactly
  // {H2_PRIOR_KNOWLEDGE} (RFC 9113 §3.3), starts HTTP/2 on it with the client's pingInterval and
  // settings' http2WriteTimeout bounding each write. `user` hears the events of the steps inside a
  // connect (secureConnectStart/End around the TLS handshake); the caller reports
  // connectStart/End/Failed around it. Throws ConnectException, SocketTimeoutException,
  // InterruptedIOException("Canceled") after cancel(), SSLHandshakeException (the cause named),
  // SSLPeerUnverifiedException (hostname or pin mismatch), UnknownServiceException (no usable
  // connection spec). A connection that failed is never pooled: the caller drops it.
  void connect(std::chrono::milliseconds connectTimeout, ConnectionSpecSelector& specSelector,
               const ConnectionSettings& settings, ConnectionUser& user);
  // connect() in its two steps, for fast fallback, which races TCP connects on other threads
  // and runs the rest on the call's: the TCP connect alone (any thread; cancel() breaks it),
  // then TLS and HTTP/2 on the thread that will use the connection.
  // For QUIC, connectSocket() is the QUIC handshake, and throws what Http3Connection::connect()
  // throws, or InterruptedIOException("Canceled") after cancel().
  void connectSocket(std::chrono::milliseconds connectTimeout);
  void connectTlsEtc(std::chrono::milliseconds connectTimeout, ConnectionSpecSelector& specSelector,
                     const ConnectionSettings& settings, ConnectionUser& user);

  // Through an HTTP(S) proxy, the CONNECT request to send first (RFC 9110 §9.3.6) and how many
  // tunnels this connection's call has tried already: set when a proxy closed the last
  // connection after a 407 and the proxy authenticator gave credentials to send on a new one
  // (see TunnelRetry). Before connectTlsEtc().
  void setTunnelRequest(Request request, int attempt);

  // A codec for the next exchange with these read and write timeouts (zero: none): on the
  // socket's streams for HTTP/1.1, on a new stream for HTTP/2.
  std::unique_ptr<ExchangeCodec> newCodec(std::chrono::milliseconds readTimeout,
                                          std::chrono::milliseconds writeTimeout);

  // True if this connection can carry a new exchange for `address`, as OkHttp's isEligible():
  // fewer calls hold it than its allocation limit (1 for HTTP/1.1, the peer's
  // MAX_CONCURRENT_STREAMS for HTTP/2), it takes new exchanges, and everything but the host
  // matches. Then either the host is this connection's own, or the connection may be coalesced
  // for it (RFC 9113 §9.1.1): it is HTTP/2 over TLS; one of `routes` (the address's resolved
  // routes, null before DNS) has this connection's IP address and port, with no proxy; the
  // address uses the default OkHostnameVerifier (a custom verifier is a black box: tern cannot
  // tell what else it would accept) and this connection's leaf certificate is valid for the
  // host; the address's certificate pinner accepts the connection's certificates for the host;
  // and no 421 turned coalescing off here. Pool lock held.
  bool isEligibleLocked(const Address& address, const std::vector<Route>* routes) const
      TERN_REQUIRES(pool_.mutex());

  // True for HTTP/2 and HTTP/3: many calls at once.
  bool isMultiplexed() const noexcept { return http2Connection_ != nullptr || isQuic(); }

  // True for HTTP/3 over QUIC.
  bool isQuic() const noexcept { return http3Connection_ != nullptr; }

  // The HTTP/2 connection, or null for HTTP/1.1 and HTTP/3.
  Http2Connection* http2Connection() noexcept { return http2Connection_.get(); }

  // True if the socket is usable: open, not shut down or canceled; with `doExtensiveChecks`
  // (for requests that must not be sent twice, and connections idle a while) also not closed by
  // the peer. Call without the pool lock (the extensive check reads the socket).
  bool isHealthy(bool doExtensiveChecks);

  // Why an HTTP/2 or HTTP/3 connection failed (say, a TLS alert the server sent after the
  // handshake, as a TLS 1.3 server refusing the client's certificate does), or null.
  std::exception_ptr failure();

  // Forbids carrying calls for hosts other than this connection's own (after a 421 Misdirected
  // Request on a coalesced call); its own host's calls still come. Takes the pool lock.
  void noCoalescedConnections();

  // Carrier: forbids further exchanges (takes the pool lock), and breaks the socket from any
  // thread.
  void noNewExchanges() override;
  void cancel() override;

  // Records that `e` failed an exchange on this connection: no new exchanges; and if no
  // exchange ever succeeded here, the route is marked failed so it is tried last next time.
  // A reset of the user's own cancel (`userCanceled`) is not the connection's fault.
  void trackFailure(const IOException& e, bool userCanceled, RouteDatabase& routeDatabase);

  // Closes the socket (after GOAWAY, for HTTP/2). Only when no call uses the connection (the
  // pool evicted it, or the last call released it and the pool refused it).
  void closeSocket() noexcept;

  // Connection
  const Route& route() const override { return route_; }
  Protocol protocol() const override { return protocol_; }
  std::optional<Handshake> handshake() const override { return handshake_; }
  InetSocketAddress localAddress() const override;
  const InetSocketAddress& remoteAddress() const override { return route_.socketAddress(); }

  // The TCP socket (an unconnected one for QUIC, whose UDP socket is Http3Connection's).
  Socket& socket() noexcept { return *socket_; }
  // The TLS layer, or null for http; set by connect().
  TlsSocket* tlsSocket() noexcept { return tlsSocket_.get(); }
  RealConnectionPool& pool() noexcept { return pool_; }

  // True if bytes the peer sent are read but unclaimed by any exchange: on an HTTP/1.1
  // connection between exchanges that is a server sending more than it framed (a body longer
  // than its Content-Length, say), and those bytes must never become the next call's response.
  // For the thread that last used the connection (it releases it to the pool).
  bool hasUnclaimedInput() const noexcept;

  // The lock that guards the bookkeeping below: pool().mutex().
  Mutex& poolMutex() const noexcept TERN_RETURN_CAPABILITY(pool_.mutex()) { return pool_.mutex(); }

  // For `pool`, which holds its mutex and scans its connections: tells the analysis that this
  // connection's bookkeeping lock is that mutex (it cannot see that a connection in a pool's list
  // belongs to that pool). Checks it in debug builds.
  void assertPoolLockHeld(const RealConnectionPool& pool) const TERN_REQUIRES(pool.mutex())
      TERN_ASSERT_CAPABILITY(pool_.mutex());

  // Bookkeeping; pool lock held for all of these.
  std::vector<ConnectionUser*>& callsLocked() noexcept TERN_REQUIRES(pool_.mutex()) {
    return calls_;
  }
  bool noNewExchangesLocked() const noexcept TERN_REQUIRES(pool_.mutex()) {
    return noNewExchanges_;
  }
  void setNoNewExchangesLocked() noexcept TERN_REQUIRES(pool_.mutex()) { noNewExchanges_ = true; }
  int routeFailureCountLocked() const noexcept TERN_REQUIRES(pool_.mutex()) {
    return routeFailureCount_;
  }
  int allocationLimitLocked() const noexcept TERN_REQUIRES(pool_.mutex()) {
    return allocationLimit_;
  }
  void incrementSuccessCountLocked() noexcept TERN_REQUIRES(pool_.mutex()) { ++successCount_; }
  std::chrono::nanoseconds idleAtNanosLocked() const noexcept TERN_REQUIRES(pool_.mutex()) {
    return idleAtNanos_;
  }
  void setIdleAtNanosLocked(std::chrono::nanoseconds nanos) noexcept TERN_REQUIRES(pool_.mutex()) {
    idleAtNanos_ = nanos;
  }

 private:
  // Http2Connection::Listener and Http3Connection::Listener, from their reader threads.
  void onSettings(int maxConcurrentStreams) override;
  void onShutdown() override;

  // Coalescing's tests in isEligibleLocked(): one of `routes` reaches this connection's IP
  // address and port directly, and the certificates and pins allow `url`'s host.
  bool routeMatchesAny(const std::vector<Route>& routes) const;
  bool supportsUrlLocked(const HttpUrl& url) const TERN_REQUIRES(pool_.mutex());

  RealConnectionPool& pool_;
  const Route route_;
  void connectTls(std::chrono::milliseconds connectTimeout, ConnectionSpecSelector& specSelector);
  // Asks the SOCKS5 proxy for the origin (after the TCP connect to the proxy).
  void connectSocks(std::chrono::milliseconds connectTimeout);
  // The TLS handshake with an HTTPS proxy, checking its certificate for the proxy's host.
  void connectProxyTls(std::chrono::milliseconds connectTimeout);
  // The streams the codecs' bytes travel on: the origin's TLS, else the proxy's, else the socket.
  Source& rawSource() noexcept;
  Sink& rawSink() noexcept;
  // Opens a CONNECT tunnel through the HTTP proxy over `source` and `sink`: answers 407s with
  // the proxy authenticator, throws ProxyException for a refusal, TunnelRetry when the proxy
  // closed the connection after a 407 that the authenticator answered.
  void createTunnel(Source& source, Sink& sink, std::chrono::milliseconds connectTimeout);
  Request makeTunnelRequest() const;
  std::optional<Request> tunnelRequest_;  // Set by setTunnelRequest().
  int tunnelAttempt_ = 0;

  const std::unique_ptr<Socket> socket_;  // Made by the constructor; cancel() may reach it.
  // Through an HTTPS proxy: the TLS to the proxy, over socket_.
  std::unique_ptr<SocketTlsTransport> proxyTransport_;
  std::unique_ptr<TlsSocket> proxyTls_;
  // For https: the TLS to the origin, over socket_, or over proxyTls_ through an HTTPS proxy.
  std::unique_ptr<TlsTransport> transport_;
  std::unique_ptr<TlsSocket> tlsSocket_;    // Over transport_.
  std::optional<Handshake> handshake_;      // For https, once connected.
  Protocol protocol_ = Protocol::HTTP_1_1;  // Set by connect().
  std::unique_ptr<BufferedSource>
      source_;                          // HTTP/1: over the TLS or socket source, once connected.
  std::unique_ptr<BufferedSink> sink_;  // HTTP/1: over the TLS or socket sink, once connected.
  // HTTP/2 only; destroyed before the TLS socket and socket_, which its reader thread reads.
  std::unique_ptr<Http2Connection> http2Connection_;
  // HTTP/3 only: made by the QUIC constructor, so cancel() can reach it.
  std::unique_ptr<Http3Connection> http3Connection_;
  // QUIC: the peer's chain as authenticatePeer() cleaned it, set by the verifier during the
  // handshake (on the QUIC reader thread, before connect() returns).
  std::vector<Certificate> quicPeerCertificates_;
  std::atomic<bool> canceled_{false};  // QUIC: cancel() was called.

  // Guarded by the pool's mutex.
  std::vector<ConnectionUser*> calls_ TERN_GUARDED_BY(pool_.mutex());  // The calls holding this.
  int allocationLimit_ TERN_GUARDED_BY(pool_.mutex()) = 1;             // How many at once.
  // REFUSED_STREAM resets seen (OkHttp tolerates one).
  int refusedStreamCount_ TERN_GUARDED_BY(pool_.mutex()) = 0;
  bool noNewExchanges_ TERN_GUARDED_BY(pool_.mutex()) = false;
  // A 421 came on a call for another host.
  bool noCoalescedConnections_ TERN_GUARDED_BY(pool_.mutex()) = false;
  int routeFailureCount_ TERN_GUARDED_BY(pool_.mutex()) = 0;
  int successCount_ TERN_GUARDED_BY(pool_.mutex()) = 0;
  std::chrono::nanoseconds idleAtNanos_ TERN_GUARDED_BY(pool_.mutex()){0};
};

}  // namespace tern::internal
