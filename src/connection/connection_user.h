// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cassert>
#include <cstdint>
#include <exception>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "concurrent/thread_annotations.h"
#include "connection/real_connection_pool.h"
#include "tern/connection.h"
#include "tern/exceptions.h"
#include "tern/handshake.h"
#include "tern/http_url.h"
#include "tern/inet_address.h"
#include "tern/protocol.h"
#include "tern/request.h"
#include "tern/response.h"

namespace tern::internal {

class Exchange;
class RealConnection;

// What the connection layer needs of a call, and all it knows of one (OkHttp 5's
// ConnectionUser): src/connection never sees RealCall or the Client. RealCall implements it.
//
// - Cancellation: isCanceled(), and the connections being connected, so cancel() can break
//   them.
// - The call's connection slot: the connection the call holds, guarded by the pool's mutex as
//   part of the pool's bookkeeping (the pool sets it when it lends a connection and clears it
//   when the call lets go).
// - Exchange completion: messageDone(), as each body of an exchange ends.
// - Events: one method per EventListener event the connection layer reports, named as the
//   listener's, without the Call (the user adds itself). Each may come from the call's thread or
//   the thread reading its response body; none is called with the pool's mutex held.
class ConnectionUser {
 public:
  virtual ~ConnectionUser() = default;
  ConnectionUser(const ConnectionUser&) = delete;
  ConnectionUser& operator=(const ConnectionUser&) = delete;

  virtual bool isCanceled() const = 0;
  // A connection being connected (fast fallback races several), so that a cancel() can reach
  // it, until it is removed. If the user is already canceled, cancels `connection` at once.
  virtual void addConnectionToCancel(std::shared_ptr<RealConnection> connection) = 0;
  virtual void removeConnectionToCancel(const std::shared_ptr<RealConnection>& connection) = 0;

  // Reports that `exchange`'s request (`requestDone`) and/or response (`responseDone`) body is
  // finished, with `e` its failure or null. Returns the exception to throw (`e`, or the user's
  // own translation of it: a fired call timeout), or null.
  virtual std::exception_ptr messageDone(Exchange& exchange, bool requestDone, bool responseDone,
                                         std::exception_ptr e) = 0;

  // "call to http://host/..." (or "canceled call to ..."), for messages.
  virtual std::string toLoggableString() const = 0;

  // The connection this user holds, or null. Takes the pool lock.
  std::shared_ptr<RealConnection> connection() const;
  // An exchange on the held connection (if any) completed: it counts as a success there, so a
  // later failure does not mark its route failed.
  void connectionSucceeded();
  // Lets go of the held connection, which goes back to the pool or, if the pool refuses it
  // (no new exchanges, no idle connections kept), is closed. Returns it for the caller's
  // connectionReleased(), or null if none was held.
  std::shared_ptr<RealConnection> releaseConnectionNoEvents();

  // The pool this user takes connections from.
  RealConnectionPool& pool() const noexcept { return *pool_; }

  // The connection this user holds, or null. Pool lock held.
  const std::shared_ptr<RealConnection>& connectionLocked() const noexcept
      TERN_REQUIRES(pool_->mutex()) {
    return connection_;
  }
  void setConnectionLocked(std::shared_ptr<RealConnection> connection)
      TERN_REQUIRES(pool_->mutex()) {
    connection_ = std::move(connection);
  }
  // For `pool` (the one this user was made for, which other classes hold by another name):
  // tells the analysis that the lock guarding the slot is that pool's mutex, held. Checks it in
  // debug builds.
  void assertPoolLockHeld(const RealConnectionPool& pool) const TERN_REQUIRES(pool.mutex())
      TERN_ASSERT_CAPABILITY(pool_->mutex()) {
    assert(&pool == pool_);
    (void)pool;
  }

  // Events (see tern::EventListener for each).
  virtual void proxySelectStart(const HttpUrl& url) = 0;
  virtual void proxySelectEnd(const HttpUrl& url, const std::vector<std::string>& proxies) = 0;
  virtual void dnsStart(const std::string& domainName) = 0;
  virtual void dnsEnd(const std::string& domainName,
                      const std::vector<InetAddress>& inetAddressList) = 0;
  virtual void connectStart(const InetSocketAddress& inetSocketAddress) = 0;
  virtual void secureConnectStart() = 0;
  virtual void secureConnectEnd(const Handshake* handshake) = 0;
  virtual void connectEnd(const InetSocketAddress& inetSocketAddress,
                          std::optional<Protocol> protocol) = 0;
  virtual void connectFailed(const InetSocketAddress& inetSocketAddress,
                             std::optional<Protocol> protocol, const IOException& ioe) = 0;
  virtual void connectionAcquired(Connection& connection) = 0;
  virtual void connectionReleased(Connection& connection) = 0;
  virtual void requestHeadersStart() = 0;
  virtual void requestHeadersEnd(const Request& request) = 0;
  virtual void requestBodyStart() = 0;
  virtual void requestBodyEnd(int64_t byteCount) = 0;
  virtual void requestFailed(const IOException& ioe) = 0;
  virtual void responseHeadersStart() = 0;
  virtual void responseHeadersEnd(const Response& response) = 0;
  virtual void responseBodyStart() = 0;
  virtual void responseBodyEnd(int64_t byteCount) = 0;
  virtual void responseFailed(const IOException& ioe) = 0;

 protected:
  // A user of `pool`'s connections.
  explicit ConnectionUser(RealConnectionPool& pool) noexcept : pool_(&pool) {}

  // From now on a user of `pool`'s connections (a call whose chain overrode its client's pool).
  // Only while the user holds no connection, and only from the thread that runs its exchanges:
  // a pool knows a user only through a connection it holds, and the user's own threads read
  // pool() only once an exchange began, after this.
  void bindPool(RealConnectionPool& pool) noexcept {
    assert(connection() == nullptr);
    pool_ = &pool;
  }

 private:
  RealConnectionPool* pool_;  // Never null.
  std::shared_ptr<RealConnection> connection_ TERN_GUARDED_BY(pool_->mutex());
};

}  // namespace tern::internal
