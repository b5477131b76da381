// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#include "connection/real_connection.h"

#include <utility>

#include "call/real_call.h"
#include "connection/real_connection_pool.h"
#include "connection/route_database.h"
#include "http1/http1_exchange_codec.h"
#include "tern/buffer.h"
#include "tern/exceptions.h"

namespace tern::internal {

RealConnection::RealConnection(RealConnectionPool& pool, Route route)
    : pool_(pool),
      route_(std::move(route)),
      socket_(std::make_unique<Socket>()),
      idleAtNanos_(pool.nanoTime()) {}

RealConnection::~RealConnection() = default;

void RealConnection::connect(std::chrono::milliseconds connectTimeout, RealCall& /*call*/) {
  // TLS goes here, after the TCP connect: report
  //   call.event([&](EventListener& l) { l.secureConnectStart(call); });
  // before the handshake, and secureConnectEnd(call, &handshake) after it succeeds (a failed
  // handshake throws; ExchangeFinder then reports connectFailed).
  if (route_.address().url().isHttps()) {
    throw IOException("Cannot connect to " + route_.address().url().toString() +
                      ": https needs TLS, which this version of tern does not have yet");
  }
  socket_->connect(route_.socketAddress(), connectTimeout);
  source_ = buffer(socket_->source());
  sink_ = buffer(socket_->sink());
}

std::unique_ptr<ExchangeCodec> RealConnection::newCodec(std::chrono::milliseconds readTimeout,
                                                        std::chrono::milliseconds writeTimeout) {
  socket_->source().timeout().timeout(readTimeout);
  socket_->sink().timeout().timeout(writeTimeout);
  return std::make_unique<Http1ExchangeCodec>(*this, *source_, *sink_);
}

bool RealConnection::isEligibleLocked(const Address& address) const {
  // HTTP/1.1 carries one exchange at a time. (HTTP/2 coalescing across hosts comes later.)
  if (!calls_.empty() || noNewExchanges_) return false;
  return route_.address() == address;
}

bool RealConnection::isHealthy(bool doExtensiveChecks) {
  if (!socket_->isHealthy(false)) return false;
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

void RealConnection::trackFailure(RealCall& call, const IOException&) {
  std::lock_guard lock(pool_.mutex());
  noNewExchanges_ = true;
  // A route that never completed an exchange is suspect: try the others first next time.
  if (successCount_ == 0) {
    call.client().routeDatabase().failed(route_);
    ++routeFailureCount_;
  }
}

void RealConnection::closeSocket() noexcept { socket_->close(); }

InetSocketAddress RealConnection::localAddress() const { return socket_->localAddress(); }

}  // namespace tern::internal
