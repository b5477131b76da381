// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#pragma once

#include <chrono>
#include <memory>
#include <string_view>

#include "tern/event_listener.h"
#include "tern/export.h"
#include "tern/http_logging_interceptor.h"

namespace tern {

// Logs every event of a call, one line each, with the milliseconds since the call started, as
// OkHttp's LoggingEventListener (logging-interceptor module). Install its Factory, which makes
// one per call:
//
//   client = client.newBuilder()
//                .eventListenerFactory(std::make_shared<tern::LoggingEventListener::Factory>())
//                .build();
//
//   [0 ms] callStart: Request{method=GET, url=http://example.com/}
//   [0 ms] proxySelectStart: http://example.com/
//   [0 ms] proxySelectEnd: [DIRECT]
//   [0 ms] dnsStart: example.com
//   [4 ms] dnsEnd: [example.com/93.184.215.14]
//   [4 ms] connectStart: 93.184.215.14:80
//   [95 ms] connectEnd: http/1.1
//   ...
//   [190 ms] callEnd
//
// The format is for people, not parsers: it may change. One listener serves one call (its
// start time is per call); its events never overlap.
class TERN_API LoggingEventListener final : public EventListener {
 public:
  class Factory;

  // Logs to `logger` (HttpLoggingInterceptor::defaultLogger(), stderr, if empty).
  explicit LoggingEventListener(
      HttpLoggingInterceptor::Logger logger = HttpLoggingInterceptor::defaultLogger());

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
  // Logs "[<ms since callStart> ms] <message>".
  void logWithTime(std::string_view message);

  const HttpLoggingInterceptor::Logger logger_;
  std::chrono::steady_clock::time_point start_ = std::chrono::steady_clock::now();
};

// Makes a LoggingEventListener for each call, all logging to one logger.
class TERN_API LoggingEventListener::Factory final : public EventListener::Factory {
 public:
  explicit Factory(HttpLoggingInterceptor::Logger logger = HttpLoggingInterceptor::defaultLogger());
  std::shared_ptr<EventListener> create(Call& call) override;

 private:
  const HttpLoggingInterceptor::Logger logger_;
};

}  // namespace tern
