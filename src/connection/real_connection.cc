// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#include "connection/real_connection.h"

#include <utility>

#include "call/real_call.h"
#include "connection/real_connection_pool.h"
#include "connection/route_database.h"
#include "http1/http1_exchange_codec.h"
#include "http2/connection_shutdown_exception.h"
#include "http2/error_code.h"
#include "http2/http2_exchange_codec.h"
#include "tern/buffer.h"
#include "tern/exceptions.h"

namespace tern::internal {

RealConnection::RealConnection(RealConnectionPool& pool, Route route)
    : pool_(pool),
      route_(std::move(route)),
      socket_(std::make_unique<Socket>()),
      idleAtNanos_(pool.nanoTime()) {}

RealConnection::~RealConnection() = default;

void RealConnection::connect(std::chrono::milliseconds connectTimeout,
                             std::chrono::milliseconds pingInterval,
                             std::chrono::milliseconds writeTimeout) {
  if (route_.address().url().isHttps()) {
    throw IOException("Cannot connect to " + route_.address().url().toString() +
                      ": https needs TLS, which this version of tern does not have yet");
  }
  socket_->connect(route_.socketAddress(), connectTimeout);
  const std::vector<Protocol>& protocols = route_.address().protocols();
  if (protocols.size() == 1 && protocols[0] == Protocol::H2_PRIOR_KNOWLEDGE) {
    protocol_ = Protocol::H2_PRIOR_KNOWLEDGE;
    // The reader thread waits for frames without a timeout (streams time out on their own);
    // a write that the peer does not take for writeTimeout fails the connection.
    socket_->source().timeout().timeout(std::chrono::milliseconds(0));
    socket_->sink().timeout().timeout(writeTimeout);
    const HttpUrl& url = route_.address().url();
    auto http2 = std::make_unique<Http2Connection>(
        socket_->source(), socket_->sink(), [socket = socket_.get()] { socket->cancel(); },
        static_cast<Http2Connection::Listener&>(*this), pool_.taskRunner(),
        url.host() + ":" + std::to_string(url.port()), pingInterval);
    http2->start();
    http2Connection_ = std::move(http2);
    std::lock_guard lock(pool_.mutex());
    allocationLimit_ = http2Connection_->maxConcurrentStreams();
    return;
  }
  source_ = buffer(socket_->source());
  sink_ = buffer(socket_->sink());
}

std::unique_ptr<ExchangeCodec> RealConnection::newCodec(std::chrono::milliseconds readTimeout,
                                                        std::chrono::milliseconds writeTimeout) {
  if (http2Connection_) {
    return std::make_unique<Http2ExchangeCodec>(*this, *http2Connection_, protocol_, readTimeout,
                                                writeTimeout);
  }
  socket_->source().timeout().timeout(readTimeout);
  socket_->sink().timeout().timeout(writeTimeout);
  return std::make_unique<Http1ExchangeCodec>(*this, *source_, *sink_);
}

bool RealConnection::isEligibleLocked(const Address& address) const {
  // HTTP/1.1 carries one exchange at a time, HTTP/2 up to the peer's limit. (Coalescing across
  // hosts needs TLS.)
  if (static_cast<int>(calls_.size()) >= allocationLimit_ || noNewExchanges_) return false;
  return route_.address() == address;
}

void RealConnection::onSettings(int maxConcurrentStreams) {
  std::lock_guard lock(pool_.mutex());
  allocationLimit_ = maxConcurrentStreams;
}

void RealConnection::onShutdown() {
  std::lock_guard lock(pool_.mutex());
  noNewExchanges_ = true;
}

bool RealConnection::isHealthy(bool doExtensiveChecks) {
  if (!socket_->isHealthy(false)) return false;
  // HTTP/2 knows its own health: shut down, or a ping after a read timeout went unanswered.
  if (http2Connection_) return http2Connection_->isHealthy();
  std::chrono::nanoseconds idleAt;
  {
    std::lock_guard lock(pool_.mutex());
    idleAt = idleAtNanos_;
  }
  // A connection idle a while may have been closed by the server; a request that must not be
  // sent twice cannot risk finding out by failing. Both pay for one non-blocking peek.
  bool idleLong = pool_.nanoTime() - idleAt >= kIdleConnectionHealthy;
  if (!doExtensiveChecks && !idleLong) return true;
  return socket_->isHealthy(true);
}

bool RealConnection::hasUnclaimedInput() const noexcept {
  return source_ && source_->buffer().size() > 0;
}

void RealConnection::noNewExchanges() {
  std::lock_guard lock(pool_.mutex());
  noNewExchanges_ = true;
}

void RealConnection::cancel() { socket_->cancel(); }

void RealConnection::trackFailure(RealCall& call, const IOException& e) {
  std::lock_guard lock(pool_.mutex());
  if (http2Connection_) {
    // A failed stream leaves the connection to the others, as OkHttp's trackFailure: except a
    // second REFUSED_STREAM, a reset other than the caller's own cancel, or a shut down
    // connection. A stream over a lowered limit is just that call's bad luck.
    if (const auto* reset = dynamic_cast<const StreamResetException*>(&e)) {
      if (reset->errorCode() == static_cast<uint32_t>(ErrorCode::REFUSED_STREAM)) {
        if (++refusedStreamCount_ <= 1) return;
      } else if (reset->errorCode() == static_cast<uint32_t>(ErrorCode::CANCEL) &&
                 call.isCanceled()) {
        return;
      }
    } else if (const auto* shutdown = dynamic_cast<const ConnectionShutdownException*>(&e)) {
      if (shutdown->atStreamLimit()) return;
    } else {
      return;  // A timeout or a broken body: the stream's problem, not the connection's.
    }
  }
  noNewExchanges_ = true;
  // A route that never completed an exchange is suspect: try the others first next time.
  if (successCount_ == 0) {
    call.client().routeDatabase().failed(route_);
    ++routeFailureCount_;
  }
}

void RealConnection::closeSocket() noexcept {
  if (http2Connection_) http2Connection_->close();  // Joins its reader before the socket closes.
  socket_->close();
}

InetSocketAddress RealConnection::localAddress() const { return socket_->localAddress(); }

}  // namespace tern::internal
