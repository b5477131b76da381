// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#include "tern/logging_event_listener.h"

#include <string>
#include <utility>

namespace tern {
namespace {

// "ConnectException: Failed to connect to ...", as Java prints an exception.
std::string describe(const IOException& e) {
  const char* type = "IOException";
  if (dynamic_cast<const UnknownHostException*>(&e)) {
    type = "UnknownHostException";
  } else if (dynamic_cast<const ConnectException*>(&e)) {
    type = "ConnectException";
  } else if (dynamic_cast<const SocketTimeoutException*>(&e)) {
    type = "SocketTimeoutException";
  } else if (dynamic_cast<const InterruptedIOException*>(&e)) {
    type = "InterruptedIOException";
  } else if (dynamic_cast<const ProtocolException*>(&e)) {
    type = "ProtocolException";
  } else if (dynamic_cast<const EOFException*>(&e)) {
    type = "EOFException";
  } else if (dynamic_cast<const SSLHandshakeException*>(&e)) {
    type = "SSLHandshakeException";
  } else if (dynamic_cast<const SSLPeerUnverifiedException*>(&e)) {
    type = "SSLPeerUnverifiedException";
  } else if (dynamic_cast<const StreamResetException*>(&e)) {
    type = "StreamResetException";
  }
  return std::string(type) + ": " + e.what();
}

std::string protocolName(std::optional<Protocol> protocol) {
  return protocol ? std::string(toString(*protocol)) : std::string("null");
}

}  // namespace

LoggingEventListener::LoggingEventListener(HttpLoggingInterceptor::Logger logger)
    : logger_(logger ? std::move(logger) : HttpLoggingInterceptor::defaultLogger()) {}

void LoggingEventListener::logWithTime(std::string_view message) {
  auto elapsed = std::chrono::duration_cast<std::chrono::milliseconds>(
      std::chrono::steady_clock::now() - start_);
  logger_("[" + std::to_string(elapsed.count()) + " ms] " + std::string(message));
}

void LoggingEventListener::callStart(Call& call) {
  start_ = std::chrono::steady_clock::now();
  logWithTime("callStart: " + call.request().toString());
}

void LoggingEventListener::dispatcherQueueStart(Call&, Dispatcher& dispatcher) {
  logWithTime("dispatcherQueueStart: queuedCalls=" + std::to_string(dispatcher.queuedCallsCount()));
}

void LoggingEventListener::dispatcherQueueEnd(Call&, Dispatcher&) {
  logWithTime("dispatcherQueueEnd");
}

void LoggingEventListener::proxySelectStart(Call&, const HttpUrl& url) {
  logWithTime("proxySelectStart: " + url.toString());
}

void LoggingEventListener::proxySelectEnd(Call&, const HttpUrl&,
                                          const std::vector<std::string>& proxies) {
  std::string list;
  for (const std::string& proxy : proxies) list += (list.empty() ? "" : ", ") + proxy;
  logWithTime("proxySelectEnd: [" + list + "]");
}

void LoggingEventListener::dnsStart(Call&, const std::string& domainName) {
  logWithTime("dnsStart: " + domainName);
}

void LoggingEventListener::dnsEnd(Call&, const std::string&,
                                  const std::vector<InetAddress>& inetAddressList) {
  std::string list;
  for (const InetAddress& address : inetAddressList) {
    list += (list.empty() ? "" : ", ") + address.toString();
  }
  logWithTime("dnsEnd: [" + list + "]");
}

void LoggingEventListener::connectStart(Call&, const InetSocketAddress& inetSocketAddress) {
  logWithTime("connectStart: " + inetSocketAddress.toString());
}

void LoggingEventListener::secureConnectStart(Call&) { logWithTime("secureConnectStart"); }

void LoggingEventListener::secureConnectEnd(Call&, const Handshake* handshake) {
  logWithTime(handshake ? "secureConnectEnd" : "secureConnectEnd: null");
}

void LoggingEventListener::connectEnd(Call&, const InetSocketAddress&,
                                      std::optional<Protocol> protocol) {
  logWithTime("connectEnd: " + protocolName(protocol));
}

void LoggingEventListener::connectFailed(Call&, const InetSocketAddress&,
                                         std::optional<Protocol> protocol, const IOException& ioe) {
  logWithTime("connectFailed: " + protocolName(protocol) + " " + describe(ioe));
}

void LoggingEventListener::connectionAcquired(Call&, Connection& connection) {
  logWithTime("connectionAcquired: Connection{" + connection.remoteAddress().toString() +
              " protocol=" + std::string(toString(connection.protocol())) + "}");
}

void LoggingEventListener::connectionReleased(Call&, Connection&) {
  logWithTime("connectionReleased");
}

void LoggingEventListener::requestHeadersStart(Call&) { logWithTime("requestHeadersStart"); }

void LoggingEventListener::requestHeadersEnd(Call&, const Request&) {
  logWithTime("requestHeadersEnd");
}

void LoggingEventListener::requestBodyStart(Call&) { logWithTime("requestBodyStart"); }

void LoggingEventListener::requestBodyEnd(Call&, int64_t byteCount) {
  logWithTime("requestBodyEnd: byteCount=" + std::to_string(byteCount));
}

void LoggingEventListener::requestFailed(Call&, const IOException& ioe) {
  logWithTime("requestFailed: " + describe(ioe));
}

void LoggingEventListener::responseHeadersStart(Call&) { logWithTime("responseHeadersStart"); }

void LoggingEventListener::responseHeadersEnd(Call&, const Response& response) {
  logWithTime("responseHeadersEnd: " + response.toString());
}

void LoggingEventListener::responseBodyStart(Call&) { logWithTime("responseBodyStart"); }

void LoggingEventListener::responseBodyEnd(Call&, int64_t byteCount) {
  logWithTime("responseBodyEnd: byteCount=" + std::to_string(byteCount));
}

void LoggingEventListener::responseFailed(Call&, const IOException& ioe) {
  logWithTime("responseFailed: " + describe(ioe));
}

void LoggingEventListener::callEnd(Call&) { logWithTime("callEnd"); }

void LoggingEventListener::callFailed(Call&, const IOException& ioe) {
  logWithTime("callFailed: " + describe(ioe));
}

void LoggingEventListener::canceled(Call&) { logWithTime("canceled"); }

void LoggingEventListener::satisfactionFailure(Call&, const Response& response) {
  logWithTime("satisfactionFailure: " + response.toString());
}

void LoggingEventListener::cacheHit(Call&, const Response& response) {
  logWithTime("cacheHit: " + response.toString());
}

void LoggingEventListener::cacheMiss(Call&) { logWithTime("cacheMiss"); }

void LoggingEventListener::cacheConditionalHit(Call&, const Response& cachedResponse) {
  logWithTime("cacheConditionalHit: " + cachedResponse.toString());
}

void LoggingEventListener::retryDecision(Call&, const IOException& exception, bool retry) {
  logWithTime("retryDecision: " + describe(exception) + " retry=" + (retry ? "true" : "false"));
}

void LoggingEventListener::followUpDecision(Call&, const Response& networkResponse,
                                            const Request* nextRequest) {
  logWithTime("followUpDecision: " + networkResponse.toString() +
              " nextRequest=" + (nextRequest ? nextRequest->toString() : "null"));
}

LoggingEventListener::Factory::Factory(HttpLoggingInterceptor::Logger logger)
    : logger_(logger ? std::move(logger) : HttpLoggingInterceptor::defaultLogger()) {}

std::shared_ptr<EventListener> LoggingEventListener::Factory::create(Call&) {
  return std::make_shared<LoggingEventListener>(logger_);
}

}  // namespace tern
