// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
// Helpers for the EventListener tests (OkHttp's EventListenerTest): the call fixture already
// records every call's events (CallFixture::events) and checks their order; these read them.
#pragma once

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "call/call_fixture.h"

namespace tern::testing {

using Names = std::vector<std::string>;

class EventListenerFixture : public CallFixture {
 protected:
  // The listener of the `index`-th call the test made.
  std::shared_ptr<RecordingEventListener> listener(size_t index = 0) {
    return events->listener(index);
  }
  // The names of that call's events, in order.
  Names names(size_t index = 0) { return listener(index)->eventNames(); }

  // The names without the ones in `skip`, to compare only what a test is about.
  static Names without(Names names, const Names& skip) {
    std::erase_if(names, [&](const std::string& name) {
      return std::find(skip.begin(), skip.end(), name) != skip.end();
    });
    return names;
  }
  // The names from the first `from` on.
  static Names startingAt(const Names& names, const std::string& from) {
    auto it = std::find(names.begin(), names.end(), from);
    return Names(it, names.end());
  }

  // A client whose Dns resolves `host` to `addresses` (loopback by default).
  Client withDns(const std::string& host,
                 std::vector<InetAddress> addresses = {InetAddress::loopbackIpv4()}) {
    dns->set(host, std::move(addresses));
    return client.newBuilder().dns(dns).build();
  }
  // The server's URL for `path` with `host` instead of its IP address.
  HttpUrl hostUrl(const std::string& host, std::string_view path = "/") {
    return server.url(path).newBuilder().host(host).build();
  }

  // What a successful GET over a new connection reports, on an IP-literal URL (no DNS).
  static Names freshConnectionGet() {
    return {"callStart",           "proxySelectStart",   "proxySelectEnd",
            "connectStart",        "connectEnd",         "connectionAcquired",
            "requestHeadersStart", "requestHeadersEnd",  "responseHeadersStart",
            "responseHeadersEnd",  "followUpDecision",   "responseBodyStart",
            "responseBodyEnd",     "connectionReleased", "callEnd"};
  }

  std::shared_ptr<FakeDns> dns = std::make_shared<FakeDns>();
};

// A listener that runs `action` when it hears `eventName` (once). Install it after the fixture's
// recorder with withExtraListener(), so the recorder sees the event first.
class ActionListener final : public EventListener {
 public:
  ActionListener(std::string eventName, std::function<void(Call&)> action)
      : eventName_(std::move(eventName)), action_(std::move(action)) {}

  void callStart(Call& call) override { on("callStart", call); }
  void connectStart(Call& call, const InetSocketAddress&) override { on("connectStart", call); }
  void connectEnd(Call& call, const InetSocketAddress&, std::optional<Protocol>) override {
    on("connectEnd", call);
  }
  void connectionAcquired(Call& call, Connection&) override { on("connectionAcquired", call); }
  void requestHeadersStart(Call& call) override { on("requestHeadersStart", call); }
  void requestHeadersEnd(Call& call, const Request&) override { on("requestHeadersEnd", call); }
  void requestBodyStart(Call& call) override { on("requestBodyStart", call); }
  void responseHeadersStart(Call& call) override { on("responseHeadersStart", call); }
  void responseHeadersEnd(Call& call, const Response&) override { on("responseHeadersEnd", call); }
  void responseBodyStart(Call& call) override { on("responseBodyStart", call); }
  void dnsStart(Call& call, const std::string&) override { on("dnsStart", call); }
  void dnsEnd(Call& call, const std::string&, const std::vector<InetAddress>&) override {
    on("dnsEnd", call);
  }

 private:
  void on(const char* name, Call& call) {
    if (done_ || eventName_ != name) return;
    done_ = true;
    action_(call);
  }
  const std::string eventName_;
  const std::function<void(Call&)> action_;
  bool done_ = false;
};

// `base` with a second factory after the fixture's recorder: each call also gets what `make`
// returns.
inline Client withExtraListener(const Client& base,
                                std::shared_ptr<RecordingEventListener::Factory> recorder,
                                std::function<std::shared_ptr<EventListener>()> make) {
  return base.newBuilder()
      .eventListenerFactory(EventListener::Factory::compose(
          {std::move(recorder), EventListener::Factory::of([make](Call&) { return make(); })}))
      .build();
}

}  // namespace tern::testing
