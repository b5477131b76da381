// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#include "call/composite_event_listener.h"

namespace tern::internal {

void CompositeEventListener::callStart(Call& call) {
  for (const auto& listener : listeners_) listener->callStart(call);
}

void CompositeEventListener::dispatcherQueueStart(Call& call, Dispatcher& dispatcher) {
  for (const auto& listener : listeners_) listener->dispatcherQueueStart(call, dispatcher);
}

void CompositeEventListener::dispatcherQueueEnd(Call& call, Dispatcher& dispatcher) {
  for (const auto& listener : listeners_) listener->dispatcherQueueEnd(call, dispatcher);
}

void CompositeEventListener::proxySelectStart(Call& call, const HttpUrl& url) {
  for (const auto& listener : listeners_) listener->proxySelectStart(call, url);
}

void CompositeEventListener::proxySelectEnd(Call& call, const HttpUrl& url,
                                            const std::vector<std::string>& proxies) {
  for (const auto& listener : listeners_) listener->proxySelectEnd(call, url, proxies);
}

void CompositeEventListener::dnsStart(Call& call, const std::string& domainName) {
  for (const auto& listener : listeners_) listener->dnsStart(call, domainName);
}

void CompositeEventListener::dnsEnd(Call& call, const std::string& domainName,
                                    const std::vector<InetAddress>& inetAddressList) {
  for (const auto& listener : listeners_) listener->dnsEnd(call, domainName, inetAddressList);
}

void CompositeEventListener::connectStart(Call& call, const InetSocketAddress& inetSocketAddress) {
  for (const auto& listener : listeners_) listener->connectStart(call, inetSocketAddress);
}

void CompositeEventListener::secureConnectStart(Call& call) {
  for (const auto& listener : listeners_) listener->secureConnectStart(call);
}

void CompositeEventListener::secureConnectEnd(Call& call, const Handshake* handshake) {
  for (const auto& listener : listeners_) listener->secureConnectEnd(call, handshake);
}

void CompositeEventListener::connectEnd(Call& call, const InetSocketAddress& inetSocketAddress,
                                        std::optional<Protocol> protocol) {
  for (const auto& listener : listeners_) listener->connectEnd(call, inetSocketAddress, protocol);
}

void CompositeEventListener::connectFailed(Call& call, const InetSocketAddress& inetSocketAddress,
                                           std::optional<Protocol> protocol,
                                           const IOException& ioe) {
  for (const auto& listener : listeners_)
    listener->connectFailed(call, inetSocketAddress, protocol, ioe);
}

void CompositeEventListener::connectionAcquired(Call& call, Connection& connection) {
  for (const auto& listener : listeners_) listener->connectionAcquired(call, connection);
}

void CompositeEventListener::connectionReleased(Call& call, Connection& connection) {
  for (const auto& listener : listeners_) listener->connectionReleased(call, connection);
}

void CompositeEventListener::requestHeadersStart(Call& call) {
  for (const auto& listener : listeners_) listener->requestHeadersStart(call);
}

void CompositeEventListener::requestHeadersEnd(Call& call, const Request& request) {
  for (const auto& listener : listeners_) listener->requestHeadersEnd(call, request);
}

void CompositeEventListener::requestBodyStart(Call& call) {
  for (const auto& listener : listeners_) listener->requestBodyStart(call);
}

void CompositeEventListener::requestBodyEnd(Call& call, int64_t byteCount) {
  for (const auto& listener : listeners_) listener->requestBodyEnd(call, byteCount);
}

void CompositeEventListener::requestFailed(Call& call, const IOException& ioe) {
  for (const auto& listener : listeners_) listener->requestFailed(call, ioe);
}

void CompositeEventListener::responseHeadersStart(Call& call) {
  for (const auto& listener : listeners_) listener->responseHeadersStart(call);
}

void CompositeEventListener::responseHeadersEnd(Call& call, const Response& response) {
  for (const auto& listener : listeners_) listener->responseHeadersEnd(call, response);
}

void CompositeEventListener::responseBodyStart(Call& call) {
  for (const auto& listener : listeners_) listener->responseBodyStart(call);
}

void CompositeEventListener::responseBodyEnd(Call& call, int64_t byteCount) {
  for (const auto& listener : listeners_) listener->responseBodyEnd(call, byteCount);
}

void CompositeEventListener::responseFailed(Call& call, const IOException& ioe) {
  for (const auto& listener : listeners_) listener->responseFailed(call, ioe);
}

void CompositeEventListener::callEnd(Call& call) {
  for (const auto& listener : listeners_) listener->callEnd(call);
}

void CompositeEventListener::callFailed(Call& call, const IOException& ioe) {
  for (const auto& listener : listeners_) listener->callFailed(call, ioe);
}

void CompositeEventListener::canceled(Call& call) {
  for (const auto& listener : listeners_) listener->canceled(call);
}

void CompositeEventListener::satisfactionFailure(Call& call, const Response& response) {
  for (const auto& listener : listeners_) listener->satisfactionFailure(call, response);
}

void CompositeEventListener::cacheHit(Call& call, const Response& response) {
  for (const auto& listener : listeners_) listener->cacheHit(call, response);
}

void CompositeEventListener::cacheMiss(Call& call) {
  for (const auto& listener : listeners_) listener->cacheMiss(call);
}

void CompositeEventListener::cacheConditionalHit(Call& call, const Response& cachedResponse) {
  for (const auto& listener : listeners_) listener->cacheConditionalHit(call, cachedResponse);
}

void CompositeEventListener::retryDecision(Call& call, const IOException& exception, bool retry) {
  for (const auto& listener : listeners_) listener->retryDecision(call, exception, retry);
}

void CompositeEventListener::followUpDecision(Call& call, const Response& networkResponse,
                                              const Request* nextRequest) {
  for (const auto& listener : listeners_)
    listener->followUpDecision(call, networkResponse, nextRequest);
}

}  // namespace tern::internal
