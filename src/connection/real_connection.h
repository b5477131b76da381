// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#pragma once

#include <chrono>
#include <memory>
#include <vector>

#include "connection/exchange_codec.h"
#include "net/socket.h"
#include "tern/buffered_sink.h"
#include "tern/buffered_source.h"
#include "tern/connection.h"
#include "tern/route.h"

namespace tern::internal {

class RealCall;
class RealConnectionPool;

// One TCP connection to a server, carrying one HTTP/1.1 exchange at a time, as OkHttp's
// RealConnection. Made by ExchangeFinder, connected on the call's thread, then owned by the
// pool (std::shared_ptr), which lends it to one call at a time.
//
// Threads and locks: the call that holds it connects it and drives its codec; any thread may
// cancel() it. The bookkeeping below (calls_, noNewExchanges_, counts, idleAtNanos_) is
// guarded by the pool's mutex (RealConnectionPool::mutex()), so the pool can scan it; methods
// named *Locked expect that lock held, the others take it.
class RealConnection final : public Connection, public ExchangeCodec::Carrier {
 public:
  // How long a connection may sit idle before reuse without the extensive health check
  // (a non-blocking read to see whether the peer has closed it). OkHttp's 10 s.
  static constexpr std::chrono::seconds kIdleConnectionHealthy{10};

  // A connection over `route`, not connected yet. Its socket exists from the start, so cancel()
  // can stop connect(). Throws IOException if no socket can be made.
  RealConnection(RealConnectionPool& pool, Route route);
  ~RealConnection() override;
  RealConnection(const RealConnection&) = delete;
  RealConnection& operator=(const RealConnection&) = delete;

  // Opens the TCP connection within `connectTimeout` (zero: no limit), for `call`, which hears
  // the events of the steps inside a connect (secureConnectStart/End around a TLS handshake);
  // the caller reports connectStart/End/Failed around it. Throws ConnectException,
  // SocketTimeoutException, InterruptedIOException("Canceled") after cancel(), and IOException
  // for an https address (TLS is not implemented yet).
  void connect(std::chrono::milliseconds connectTimeout, RealCall& call);

  // A codec for the next exchange, with the socket's read and write timeouts set (zero: none).
  std::unique_ptr<ExchangeCodec> newCodec(std::chrono::milliseconds readTimeout,
                                          std::chrono::milliseconds writeTimeout);

  // True if this connection can carry a new exchange for `address`: no call holds it, it takes
  // new exchanges, and it goes to the same address. Pool lock held.
  bool isEligibleLocked(const Address& address) const;

  // True if the socket is usable: open, not shut down or canceled; with `doExtensiveChecks`
  // (for requests that must not be sent twice, and connections idle a while) also not closed by
  // the peer. Call without the pool lock (the extensive check reads the socket).
  bool isHealthy(bool doExtensiveChecks);

  // Carrier: forbids further exchanges (takes the pool lock), and breaks the socket from any
  // thread.
  void noNewExchanges() override;
  void cancel() override;

  // Records that `e` failed an exchange on this connection: no new exchanges; and if no
  // exchange ever succeeded here, the route is marked failed so it is tried last next time.
  void trackFailure(RealCall& call, const IOException& e);

  // Closes the socket. Only when no call uses the connection (the pool evicted it, or the last
  // call released it and the pool refused it).
  void closeSocket() noexcept;

  // Connection
  const Route& route() const override { return route_; }
  Protocol protocol() const override { return Protocol::HTTP_1_1; }
  InetSocketAddress localAddress() const override;
  const InetSocketAddress& remoteAddress() const override { return route_.socketAddress(); }

  Socket& socket() noexcept { return *socket_; }
  RealConnectionPool& pool() noexcept { return pool_; }

  // True if bytes the peer sent are read but unclaimed by any exchange: on an HTTP/1.1
  // connection between exchanges that is a server sending more than it framed (a body longer
  // than its Content-Length, say), and those bytes must never become the next call's response.
  // For the thread that last used the connection (it releases it to the pool).
  bool hasUnclaimedInput() const noexcept;

  // Bookkeeping; pool lock held for all of these.
  std::vector<RealCall*>& callsLocked() noexcept { return calls_; }
  bool noNewExchangesLocked() const noexcept { return noNewExchanges_; }
  void setNoNewExchangesLocked() noexcept { noNewExchanges_ = true; }
  int routeFailureCountLocked() const noexcept { return routeFailureCount_; }
  void incrementSuccessCountLocked() noexcept { ++successCount_; }
  std::chrono::nanoseconds idleAtNanosLocked() const noexcept { return idleAtNanos_; }
  void setIdleAtNanosLocked(std::chrono::nanoseconds nanos) noexcept { idleAtNanos_ = nanos; }

 private:
  RealConnectionPool& pool_;
  const Route route_;
  const std::unique_ptr<Socket> socket_;    // Made by the constructor; cancel() may reach it.
  std::unique_ptr<BufferedSource> source_;  // Over socket_->source(), once connected.
  std::unique_ptr<BufferedSink> sink_;      // Over socket_->sink(), once connected.

  // Guarded by the pool's mutex.
  std::vector<RealCall*> calls_;  // The calls holding this connection: at most one (HTTP/1).
  bool noNewExchanges_ = false;
  int routeFailureCount_ = 0;
  int successCount_ = 0;
  std::chrono::nanoseconds idleAtNanos_{0};
};

}  // namespace tern::internal
