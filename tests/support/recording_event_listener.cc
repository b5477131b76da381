// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#include "support/recording_event_listener.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <sstream>
#include <utility>

#include "support/call_fakes.h"
#include "tern/handshake.h"
#include "tern/tls_version.h"

namespace tern::testing {
namespace {

// The exception's most specific tern type, by name.
std::string typeName(const IOException& e) {
  if (dynamic_cast<const UnknownHostException*>(&e)) return "UnknownHostException";
  if (dynamic_cast<const ConnectException*>(&e)) return "ConnectException";
  if (dynamic_cast<const SocketTimeoutException*>(&e)) return "SocketTimeoutException";
  if (dynamic_cast<const InterruptedIOException*>(&e)) return "InterruptedIOException";
  if (dynamic_cast<const ProtocolException*>(&e)) return "ProtocolException";
  if (dynamic_cast<const EOFException*>(&e)) return "EOFException";
  if (dynamic_cast<const SSLHandshakeException*>(&e)) return "SSLHandshakeException";
  if (dynamic_cast<const SSLPeerUnverifiedException*>(&e)) return "SSLPeerUnverifiedException";
  if (dynamic_cast<const StreamResetException*>(&e)) return "StreamResetException";
  return "IOException";
}

CallEvent named(std::string name, std::string detail = {}) {
  CallEvent event;
  event.name = std::move(name);
  event.detail = std::move(detail);
  return event;
}

CallEvent failure(std::string name, const IOException& e) {
  CallEvent event = named(std::move(name), typeName(e) + ": " + e.what());
  event.exceptionType = typeName(e);
  return event;
}

std::string protocolText(std::optional<Protocol> protocol) {
  return protocol ? std::string(toString(*protocol)) : std::string("null");
}

}  // namespace

std::string CallEvent::toString() const { return detail.empty() ? name : name + " " + detail; }

std::vector<CallEvent> RecordingEventListener::events() const {
  std::lock_guard lock(mutex_);
  return events_;
}

std::vector<std::string> RecordingEventListener::eventNames() const {
  std::lock_guard lock(mutex_);
  std::vector<std::string> names;
  for (const CallEvent& event : events_) names.push_back(event.name);
  return names;
}

std::optional<CallEvent> RecordingEventListener::find(const std::string& name) const {
  std::lock_guard lock(mutex_);
  for (const CallEvent& event : events_) {
    if (event.name == name) return event;
  }
  return std::nullopt;
}

int RecordingEventListener::count(const std::string& name) const {
  std::lock_guard lock(mutex_);
  int n = 0;
  for (const CallEvent& event : events_) n += event.name == name;
  return n;
}

bool RecordingEventListener::ended() const {
  std::lock_guard lock(mutex_);
  return ended_;
}

bool RecordingEventListener::started() const {
  std::lock_guard lock(mutex_);
  return started_;
}

std::string RecordingEventListener::callUrl() const {
  std::lock_guard lock(mutex_);
  return callUrl_;
}

std::string RecordingEventListener::eventListLocked() const {
  std::ostringstream out;
  out << "events of the call to " << callUrl_ << ":";
  for (const CallEvent& event : events_) out << "\n  " << event.toString();
  return out.str();
}

void RecordingEventListener::record(Call& call, CallEvent event) {
  event.at = std::chrono::steady_clock::now();
  std::string violation;
  std::string list;
  std::thread::id self = std::this_thread::get_id();
  {
    std::lock_guard lock(mutex_);
    if (callUrl_.empty()) callUrl_ = call.request().url().toString();
    if (deliveringDepth_ > 0 && deliveringThread_ != self) {
      violation = "delivered while another thread's event was being delivered";
    } else {
      violation = violationLocked(event);
    }
    events_.push_back(event);
    if (!violation.empty()) list = eventListLocked();
    deliveringThread_ = self;
    ++deliveringDepth_;
  }
  // A moment inside the "callback", so that an overlapping delivery from another thread has a
  // chance to be seen.
  std::this_thread::yield();
  {
    std::lock_guard lock(mutex_);
    --deliveringDepth_;
  }
  if (!violation.empty()) {
    ADD_FAILURE() << "event order: " << event.toString() << ": " << violation << "\n" << list;
  }
}

std::string RecordingEventListener::violationLocked(const CallEvent& event) {
  const std::string& n = event.name;
  if (ended_) return "after the call ended";
  if (n == "callStart") {
    if (started_) return "callStart twice";
    started_ = true;
    return "";
  }
  if (!started_) return "before callStart";
  if (n == "canceled") {
    if (canceled_) return "canceled twice";
    canceled_ = true;
    return "";
  }
  if (queued_ && n != "dispatcherQueueEnd") return "while queued in the Dispatcher";
  if (n == "dispatcherQueueStart") {
    for (const CallEvent& previous : events_) {
      if (previous.name != "callStart" && previous.name != "canceled") {
        return "after " + previous.name;
      }
    }
    queued_ = true;
    return "";
  }
  if (n == "dispatcherQueueEnd") {
    if (!queued_) return "without dispatcherQueueStart";
    queued_ = false;
    return "";
  }
  if (n == "proxySelectStart") {
    if (proxySelectOpen_) return "proxySelectStart twice";
    proxySelectOpen_ = true;
    return "";
  }
  if (n == "proxySelectEnd") {
    if (!proxySelectOpen_) return "without proxySelectStart";
    proxySelectOpen_ = false;
    return "";
  }
  if (proxySelectOpen_) return "during proxy selection";
  if (n == "dnsStart") {
    if (dnsOpen_) return "during another lookup";
    if (!connectsOpen_.empty()) return "while connecting";
    dnsOpen_ = event.detail;
    return "";
  }
  if (n == "dnsEnd") {
    if (!dnsOpen_) return "without dnsStart";
    if (!event.detail.starts_with(*dnsOpen_ + " ")) return "for another domain than " + *dnsOpen_;
    dnsOpen_.reset();
    return "";
  }
  if (n == "retryDecision") {
    dnsOpen_.reset();  // A failed lookup has no dnsEnd: the attempt ends here.
    return "";
  }
  // Fast fallback connects as soon as one address family's answer is in: a connect may start,
  // fail or do its TLS while the other family's lookup is still out, but none ends before it.
  const bool connectStep = n == "connectStart" || n == "connectFailed" ||
                           n == "secureConnectStart" || n == "secureConnectEnd";
  if (dnsOpen_ && n != "callFailed" && !connectStep) return "before dnsEnd";
  auto open = std::find(connectsOpen_.begin(), connectsOpen_.end(), event.socketAddress);
  if (n == "connectStart") {
    if (open != connectsOpen_.end()) return "while connecting to " + *open;
    if (secureConnectOpen_) return "during a secure connect";
    connectsOpen_.push_back(event.socketAddress);
    return "";
  }
  if (n == "secureConnectStart") {
    if (connectsOpen_.size() != 1 || secureConnectOpen_) return "outside a connect";
    secureConnectOpen_ = true;
    return "";
  }
  if (n == "secureConnectEnd") {
    if (!secureConnectOpen_) return "without secureConnectStart";
    secureConnectOpen_ = false;
    return "";
  }
  if (n == "connectEnd" || n == "connectFailed") {
    if (connectsOpen_.empty()) return "without connectStart";
    if (open == connectsOpen_.end()) return "for another address than " + connectsOpen_.front();
    if (n == "connectEnd" && secureConnectOpen_) return "before secureConnectEnd";
    if (n == "connectEnd" && connectsOpen_.size() > 1) return "while another connect races";
    connectsOpen_.erase(open);
    secureConnectOpen_ = false;
    return "";
  }
  if (!connectsOpen_.empty()) return "while connecting";
  bool exchangeOpen =
      requestHeadersOpen_ || requestBodyOpen_ || responseHeadersOpen_ || responseBodyOpen_;
  if (n == "connectionAcquired") {
    if (connectionsHeld_ > 0) return "while holding a connection";
    ++connectionsHeld_;
    return "";
  }
  if (n == "connectionReleased") {
    if (connectionsHeld_ == 0) return "without connectionAcquired";
    if (exchangeOpen) return "with a request or response still open";
    --connectionsHeld_;
    return "";
  }
  if (n == "callEnd" || n == "callFailed") {
    ended_ = true;
    if (connectionsHeld_ > 0) return "before connectionReleased";
    if (exchangeOpen) return "with a request or response still open";
    if (n == "callEnd" && dnsOpen_) return "with a DNS lookup open";
    if (n == "callFailed" && event.detail.ends_with(": Canceled") && !canceled_) {
      return "failed as canceled without canceled";
    }
    return "";
  }
  if (n == "followUpDecision") return "";
  // The cache's events come before the network is used or after its response was read: never
  // inside an exchange.
  if (n == "satisfactionFailure" || n.starts_with("cache")) {
    return exchangeOpen ? "with a request or response still open" : "";
  }
  // The request and response events need a connection.
  if (connectionsHeld_ == 0) return "without a connection";
  auto start = [](bool& open, const char* what) -> std::string {
    if (open) return std::string(what) + " twice";
    open = true;
    return "";
  };
  auto end = [](bool& open, const char* what) -> std::string {
    if (!open) return std::string("without ") + what;
    open = false;
    return "";
  };
  if (n == "requestHeadersStart") return start(requestHeadersOpen_, "requestHeadersStart");
  if (n == "requestHeadersEnd") return end(requestHeadersOpen_, "requestHeadersStart");
  if (n == "requestBodyStart") return start(requestBodyOpen_, "requestBodyStart");
  if (n == "requestBodyEnd") return end(requestBodyOpen_, "requestBodyStart");
  if (n == "responseHeadersStart") return start(responseHeadersOpen_, "responseHeadersStart");
  if (n == "responseHeadersEnd") return end(responseHeadersOpen_, "responseHeadersStart");
  if (n == "responseBodyStart") return start(responseBodyOpen_, "responseBodyStart");
  if (n == "responseBodyEnd") return end(responseBodyOpen_, "responseBodyStart");
  if (n == "requestFailed") {
    requestHeadersOpen_ = requestBodyOpen_ = false;
    return "";
  }
  if (n == "responseFailed") {
    responseHeadersOpen_ = responseBodyOpen_ = false;
    return "";
  }
  return "unknown event";
}

void RecordingEventListener::callStart(Call& call) { record(call, named("callStart")); }
void RecordingEventListener::dispatcherQueueStart(Call& call, Dispatcher&) {
  record(call, named("dispatcherQueueStart"));
}
void RecordingEventListener::dispatcherQueueEnd(Call& call, Dispatcher&) {
  record(call, named("dispatcherQueueEnd"));
}
void RecordingEventListener::proxySelectStart(Call& call, const HttpUrl& url) {
  CallEvent event = named("proxySelectStart", url.toString());
  event.url = url.toString();
  record(call, std::move(event));
}
void RecordingEventListener::proxySelectEnd(Call& call, const HttpUrl& url,
                                            const std::vector<std::string>& proxies) {
  std::string list = "[";
  for (size_t i = 0; i < proxies.size(); ++i) list += (i ? ", " : "") + proxies[i];
  CallEvent event = named("proxySelectEnd", url.toString() + " " + list + "]");
  event.url = url.toString();
  record(call, std::move(event));
}
void RecordingEventListener::dnsStart(Call& call, const std::string& domainName) {
  record(call, named("dnsStart", domainName));
}
void RecordingEventListener::dnsEnd(Call& call, const std::string& domainName,
                                    const std::vector<InetAddress>& inetAddressList) {
  std::string list = "[";
  for (size_t i = 0; i < inetAddressList.size(); ++i) {
    list += (i ? ", " : "") + inetAddressList[i].toString();
  }
  record(call, named("dnsEnd", domainName + " " + list + "]"));
}
void RecordingEventListener::connectStart(Call& call, const InetSocketAddress& address) {
  CallEvent event = named("connectStart", address.toString());
  event.socketAddress = address.toString();
  record(call, std::move(event));
}
void RecordingEventListener::secureConnectStart(Call& call) {
  record(call, named("secureConnectStart"));
}
void RecordingEventListener::secureConnectEnd(Call& call, const Handshake* handshake) {
  if (handshake == nullptr) {
    record(call, named("secureConnectEnd", "null"));
    return;
  }
  record(call, named("secureConnectEnd", std::string(javaName(handshake->tlsVersion())) + " " +
                                             std::string(handshake->cipherSuite().javaName())));
}
void RecordingEventListener::connectEnd(Call& call, const InetSocketAddress& address,
                                        std::optional<Protocol> protocol) {
  CallEvent event = named("connectEnd", address.toString() + " " + protocolText(protocol));
  event.socketAddress = address.toString();
  record(call, std::move(event));
}
void RecordingEventListener::connectFailed(Call& call, const InetSocketAddress& address,
                                           std::optional<Protocol> protocol,
                                           const IOException& ioe) {
  CallEvent event = failure("connectFailed", ioe);
  event.detail = address.toString() + " " + protocolText(protocol) + " " + event.detail;
  event.socketAddress = address.toString();
  record(call, std::move(event));
}
void RecordingEventListener::connectionAcquired(Call& call, Connection& connection) {
  CallEvent event = named("connectionAcquired", connection.route().toString());
  event.connection = &connection;
  record(call, std::move(event));
}
void RecordingEventListener::connectionReleased(Call& call, Connection& connection) {
  CallEvent event = named("connectionReleased");
  event.connection = &connection;
  record(call, std::move(event));
}
void RecordingEventListener::requestHeadersStart(Call& call) {
  record(call, named("requestHeadersStart"));
}
void RecordingEventListener::requestHeadersEnd(Call& call, const Request& request) {
  record(call, named("requestHeadersEnd", request.method() + " " + request.url().toString()));
}
void RecordingEventListener::requestBodyStart(Call& call) {
  record(call, named("requestBodyStart"));
}
void RecordingEventListener::requestBodyEnd(Call& call, int64_t byteCount) {
  CallEvent event = named("requestBodyEnd", std::to_string(byteCount));
  event.byteCount = byteCount;
  record(call, std::move(event));
}
void RecordingEventListener::requestFailed(Call& call, const IOException& ioe) {
  record(call, failure("requestFailed", ioe));
}
void RecordingEventListener::responseHeadersStart(Call& call) {
  record(call, named("responseHeadersStart"));
}
void RecordingEventListener::responseHeadersEnd(Call& call, const Response& response) {
  record(call, named("responseHeadersEnd", std::to_string(response.code())));
}
void RecordingEventListener::responseBodyStart(Call& call) {
  record(call, named("responseBodyStart"));
}
void RecordingEventListener::responseBodyEnd(Call& call, int64_t byteCount) {
  CallEvent event = named("responseBodyEnd", std::to_string(byteCount));
  event.byteCount = byteCount;
  record(call, std::move(event));
}
void RecordingEventListener::responseFailed(Call& call, const IOException& ioe) {
  record(call, failure("responseFailed", ioe));
}
void RecordingEventListener::callEnd(Call& call) { record(call, named("callEnd")); }
void RecordingEventListener::callFailed(Call& call, const IOException& ioe) {
  record(call, failure("callFailed", ioe));
}
void RecordingEventListener::canceled(Call& call) { record(call, named("canceled")); }
void RecordingEventListener::satisfactionFailure(Call& call, const Response& response) {
  record(call, named("satisfactionFailure", std::to_string(response.code())));
}
void RecordingEventListener::cacheHit(Call& call, const Response& response) {
  record(call, named("cacheHit", std::to_string(response.code())));
}
void RecordingEventListener::cacheMiss(Call& call) { record(call, named("cacheMiss")); }
void RecordingEventListener::cacheConditionalHit(Call& call, const Response& cachedResponse) {
  record(call, named("cacheConditionalHit", std::to_string(cachedResponse.code())));
}
void RecordingEventListener::retryDecision(Call& call, const IOException& exception, bool retry) {
  CallEvent event = failure("retryDecision", exception);
  event.detail = (retry ? "retry " : "no retry ") + event.detail;
  event.retry = retry;
  record(call, std::move(event));
}
void RecordingEventListener::followUpDecision(Call& call, const Response& networkResponse,
                                              const Request* nextRequest) {
  CallEvent event =
      named("followUpDecision", std::to_string(networkResponse.code()) + " -> " +
                                    (nextRequest ? nextRequest->url().toString() : "null"));
  if (nextRequest) event.url = nextRequest->url().toString();
  record(call, std::move(event));
}

std::shared_ptr<EventListener> RecordingEventListener::Factory::create(Call&) {
  auto listener = std::make_shared<RecordingEventListener>();
  std::lock_guard lock(mutex_);
  listeners_.push_back(listener);
  return listener;
}

std::vector<std::shared_ptr<RecordingEventListener>> RecordingEventListener::Factory::listeners()
    const {
  std::lock_guard lock(mutex_);
  return listeners_;
}

std::shared_ptr<RecordingEventListener> RecordingEventListener::Factory::listener(
    size_t index) const {
  std::lock_guard lock(mutex_);
  if (index >= listeners_.size()) {
    ADD_FAILURE() << "no call #" << index << ": " << listeners_.size() << " calls were made";
    return std::make_shared<RecordingEventListener>();
  }
  return listeners_[index];
}

void RecordingEventListener::Factory::checkAllCallsEnded(std::chrono::milliseconds timeout) const {
  auto unfinished = [this] {
    std::vector<std::shared_ptr<RecordingEventListener>> result;
    for (const auto& listener : listeners()) {
      if (listener->started() && !listener->ended()) result.push_back(listener);
    }
    return result;
  };
  if (eventually([&] { return unfinished().empty(); }, timeout)) return;
  for (const auto& listener : unfinished()) {
    std::lock_guard lock(listener->mutex_);
    ADD_FAILURE() << "the call never reported callEnd or callFailed\n"
                  << listener->eventListLocked();
  }
}

}  // namespace tern::testing
