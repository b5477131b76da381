// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
// OkHttp's RecordingEventListener: records a call's events and checks, as each one arrives, that
// they come in a valid order. The call tests' fixture installs its factory on every client, so
// every test that runs a call also checks that call's events.
#pragma once

#include <chrono>
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "tern/event_listener.h"

namespace tern::testing {

// One event as it was heard: its name and what it carried, as text.
struct CallEvent {
  std::string name;           // The callback's name: "dnsStart", "connectEnd", ...
  std::string detail;         // Its arguments in short: "127.0.0.1:8080 http/1.1", a message...
  int64_t byteCount = -1;     // requestBodyEnd, responseBodyEnd.
  bool retry = false;         // retryDecision.
  std::string url;            // proxySelect*: the URL; followUpDecision: the next request's.
  std::string socketAddress;  // connect*: where to.
  std::string exceptionType;  // *Failed, retryDecision: "ConnectException", ...
  const Connection* connection = nullptr;    // connectionAcquired/Released; compare only.
  std::chrono::steady_clock::time_point at;  // When it was heard.

  std::string toString() const;  // "connectEnd 127.0.0.1:8080 http/1.1"
};

// Records one call's events (or several calls', if shared) and fails the running test with
// ADD_FAILURE, showing the call's events so far, the moment an event breaks the order rules:
//  - callStart comes first, once; nothing comes after callEnd or callFailed, and exactly one of
//    them ends the call;
//  - canceled comes at most once; a call that fails with "Canceled" reported canceled first;
//  - dispatcherQueueStart only right after callStart, dispatcherQueueEnd only after it;
//  - each end follows its start (dns, connect, secure connect, headers, bodies), with no second
//    start while one is open, except that connects to different addresses may race (fast
//    fallback), each ended by its own connectEnd/connectFailed; a secure connect only while
//    exactly one connect is open (the winner's, after the others ended); dnsEnd names the domain
//    of dnsStart; DNS is over before a connect ends (fast fallback may start connecting, and
//    fail or shake hands, while the host's other address family is still being looked up);
//  - connectionAcquired when no connection is held and no connect is in progress;
//    connectionReleased only while one is held; request and response events only while a
//    connection is held;
//  - callEnd with nothing left open and the connection released; callFailed with at most a DNS
//    lookup left open;
//  - the cache's events (cacheHit, cacheMiss, cacheConditionalHit, satisfactionFailure) never
//    come while a request or response is open;
//  - events for a call never overlap from two threads.
// Thread-safe.
class RecordingEventListener : public EventListener {
 public:
  class Factory;

  // The events so far, in order.
  std::vector<CallEvent> events() const;
  // Their names, in order.
  std::vector<std::string> eventNames() const;
  // The first event named `name`, or nullopt.
  std::optional<CallEvent> find(const std::string& name) const;
  // How many events named `name` were heard.
  int count(const std::string& name) const;
  // True once callEnd or callFailed was heard.
  bool ended() const;
  // True once callStart was heard.
  bool started() const;
  // The URL of the call it heard (its original request), for messages.
  std::string callUrl() const;

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
  // Checks `event` against the rules, then appends it.
  void record(Call& call, CallEvent event);
  // The rule `event` breaks, or "" if none. Lock held.
  std::string violationLocked(const CallEvent& event);
  std::string eventListLocked() const;

  mutable std::mutex mutex_;
  std::vector<CallEvent> events_;
  std::string callUrl_;
  // What is open, for the order rules.
  bool started_ = false;
  bool ended_ = false;
  bool canceled_ = false;
  bool queued_ = false;
  bool proxySelectOpen_ = false;
  std::optional<std::string> dnsOpen_;  // The domain being looked up.
  // The addresses being connected to: one, or several racing (fast fallback).
  std::vector<std::string> connectsOpen_;
  bool secureConnectOpen_ = false;
  int connectionsHeld_ = 0;
  bool requestHeadersOpen_ = false;
  bool requestBodyOpen_ = false;
  bool responseHeadersOpen_ = false;
  bool responseBodyOpen_ = false;
  // The thread delivering an event now, and how deep (a listener may cancel from inside one).
  std::thread::id deliveringThread_;
  int deliveringDepth_ = 0;
};

// Makes a RecordingEventListener per call and keeps them all, so a test (or the fixture, when
// the test ends) can look at every call's events.
class RecordingEventListener::Factory final : public EventListener::Factory {
 public:
  std::shared_ptr<EventListener> create(Call& call) override;

  // Every listener made so far, in order.
  std::vector<std::shared_ptr<RecordingEventListener>> listeners() const;
  // The listener of the call made `index`-th (0-based). Fails the test and returns an empty
  // listener if there is none.
  std::shared_ptr<RecordingEventListener> listener(size_t index) const;

  // Waits up to `timeout` for every call that started to end (callEnd or callFailed), and fails
  // the test naming those that did not, with their events.
  void checkAllCallsEnded(std::chrono::milliseconds timeout = std::chrono::seconds(5)) const;

 private:
  mutable std::mutex mutex_;
  std::vector<std::shared_ptr<RecordingEventListener>> listeners_;
};

}  // namespace tern::testing
