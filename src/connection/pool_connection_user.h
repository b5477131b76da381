// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#pragma once

#include <atomic>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "concurrent/mutex.h"
#include "connection/connection_user.h"
#include "tern/address.h"

namespace tern::internal {

// The ConnectionUser a pool opens connections with when no call asks for them (an address
// policy warming its address; OkHttp's PoolConnectionUser). It hears no events (there is no
// call to report them to) and carries no exchange: the connection it is lent goes back to the
// pool idle as soon as it is connected. The pool cancels it when the policy goes, when the pool
// closes, or when a limit leaves no room for it (see stopAtLimit()).
//
// One per warming attempt, on the TaskRunner thread that warms; cancel() from any thread.
class PoolConnectionUser final : public ConnectionUser {
 public:
  PoolConnectionUser(RealConnectionPool& pool, Address address);
  ~PoolConnectionUser() override;

  // Stops the attempt: isCanceled() turns true and the connection being connected breaks, so
  // the warming thread returns soon.
  void cancel();
  // Cancels because the pool's limits leave no room for another connection: the pool calls it
  // (with its lock held) instead of making the warming wait or close another connection.
  void stopAtLimit() noexcept;
  bool stoppedAtLimit() const noexcept { return atLimit_; }

  bool isCanceled() const override { return canceled_; }
  void addConnectionToCancel(std::shared_ptr<RealConnection> connection) override;
  void removeConnectionToCancel(const std::shared_ptr<RealConnection>& connection) override;
  std::exception_ptr messageDone(Exchange& exchange, bool requestDone, bool responseDone,
                                 std::exception_ptr e) override;
  std::string toLoggableString() const override;

  // No events: there is no call (and so no listener) to report them to.
  void proxySelectStart(const HttpUrl&) override {}
  void proxySelectEnd(const HttpUrl&, const std::vector<std::string>&) override {}
  void dnsStart(const std::string&) override {}
  void dnsEnd(const std::string&, const std::vector<InetAddress>&) override {}
  void connectStart(const InetSocketAddress&) override {}
  void secureConnectStart() override {}
  void secureConnectEnd(const Handshake*) override {}
  void connectEnd(const InetSocketAddress&, std::optional<Protocol>) override {}
  void connectFailed(const InetSocketAddress&, std::optional<Protocol>,
                     const IOException&) override {}
  void connectionAcquired(Connection&) override {}
  void connectionReleased(Connection&) override {}
  void requestHeadersStart() override {}
  void requestHeadersEnd(const Request&) override {}
  void requestBodyStart() override {}
  void requestBodyEnd(int64_t) override {}
  void requestFailed(const IOException&) override {}
  void responseHeadersStart() override {}
  void responseHeadersEnd(const Response&) override {}
  void responseBodyStart() override {}
  void responseBodyEnd(int64_t) override {}
  void responseFailed(const IOException&) override {}

 private:
  const Address address_;
  std::atomic<bool> canceled_{false};
  std::atomic<bool> atLimit_{false};
  // Guards connectionsToCancel_: cancel() may come while the warming thread adds one.
  Mutex mutex_;
  std::vector<std::shared_ptr<RealConnection>> connectionsToCancel_ TERN_GUARDED_BY(mutex_);
};

}  // namespace tern::internal
