// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#pragma once

#include <memory>
#include <vector>

#include "tern/event_listener.h"

namespace tern::internal {

// Forwards every event to each listener in order: EventListener::compose(). Thread-safe when
// its listeners are; holds no state of its own.
class CompositeEventListener final : public EventListener {
 public:
  // `listeners` must hold no null entries.
  explicit CompositeEventListener(std::vector<std::shared_ptr<EventListener>> listeners)
      : listeners_(std::move(listeners)) {}

  void callStart(Call& call) override;
  void dispatcherQueueStart(Call& call, Dispatcher& dispatcher) override;
  void dispatcherQueueEnd(Call& call, Dispatcher& dispatcher) override;
  void proxySelectStart(Call& call, const HttpUrl& url) override;
  void proxySelectEnd(Call& call, const HttpUrl& url,
                      const std::vector<std::string>& proxies) override;
  void dnsStart(Call& call, const std::string& domainName) override;
  void dnsEnd(Call& call, const std::string& domainName,
              const std::vector<InetAddress>& inetAddressList) override;
  void connectStart(Call& call, const InetSocketAddress& inetSocketAddress) override;
  void secureConnectStart(Call& call) override;
  void secureConnectEnd(Call& call, const Handshake* handshake) override;
  void connectEnd(Call& call, const InetSocketAddress& inetSocketAddress,
                  std::optional<Protocol> protocol) override;
  void connectFailed(Call& call, const InetSocketAddress& inetSocketAddress,
                     std::optional<Protocol> protocol, const IOException& ioe) override;
  void connectionAcquired(Call& call, Connection& connection) override;
  void connectionReleased(Call& call, Connection& connection) override;
  void requestHeadersStart(Call& call) override;
  void requestHeadersEnd(Call& call, const Request& request) override;
  void requestBodyStart(Call& call) override;
  void requestBodyEnd(Call& call, int64_t byteCount) override;
  void requestFailed(Call& call, const IOException& ioe) override;
  void responseHeadersStart(Call& call) override;
  void responseHeadersEnd(Call& call, const Response& response) override;
  void responseBodyStart(Call& call) override;
  void responseBodyEnd(Call& call, int64_t byteCount) override;
  void responseFailed(Call& call, const IOException& ioe) override;
  void callEnd(Call& call) override;
  void callFailed(Call& call, const IOException& ioe) override;
  void canceled(Call& call) override;
  void satisfactionFailure(Call& call, const Response& response) override;
  void cacheHit(Call& call, const Response& response) override;
  void cacheMiss(Call& call) override;
  void cacheConditionalHit(Call& call, const Response& cachedResponse) override;
  void retryDecision(Call& call, const IOException& exception, bool retry) override;
  void followUpDecision(Call& call, const Response& networkResponse,
                        const Request* nextRequest) override;

 private:
  const std::vector<std::shared_ptr<EventListener>> listeners_;
};

}  // namespace tern::internal
