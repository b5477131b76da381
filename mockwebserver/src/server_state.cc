// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#include "server_state.h"

#include <algorithm>
#include <utility>

#include "tern/mockwebserver/queue_dispatcher.h"

namespace tern::mockwebserver::internal {

ServerState::ServerState() : dispatcher_(std::make_shared<QueueDispatcher>()) {}

void ServerState::setAddress(std::string hostName, std::string hostAddress, int port) {
  hostName_ = std::move(hostName);
  hostAddress_ = std::move(hostAddress);
  port_ = port;
}

HttpUrl ServerState::rootUrl() const {
  const bool ipv6 = hostName_.find(':') != std::string::npos;
  const std::string host = ipv6 ? "[" + hostName_ + "]" : hostName_;
  return HttpUrl::get(scheme() + "://" + host + ":" + std::to_string(port_) + "/");
}

std::shared_ptr<Dispatcher> ServerState::dispatcher() const {
  std::lock_guard lock(mutex_);
  return dispatcher_;
}

void ServerState::setDispatcher(std::shared_ptr<Dispatcher> dispatcher) {
  std::lock_guard lock(mutex_);
  dispatcher_ = std::move(dispatcher);
}

int64_t ServerState::bodyLimit() const {
  std::lock_guard lock(mutex_);
  return bodyLimit_;
}

void ServerState::setBodyLimit(int64_t bodyLimit) {
  std::lock_guard lock(mutex_);
  bodyLimit_ = bodyLimit;
}

void ServerState::record(RecordedRequest request) {
  {
    std::lock_guard lock(mutex_);
    requests_.push_back(std::move(request));
    ++requestCount_;
  }
  requestRecorded_.notify_all();
}

std::optional<RecordedRequest> ServerState::take(std::chrono::nanoseconds timeout) {
  // Bounded so that now() + timeout cannot overflow for "forever"-like arguments.
  timeout = std::min<std::chrono::nanoseconds>(timeout, std::chrono::hours(24 * 365));
  std::unique_lock lock(mutex_);
  if (!requestRecorded_.wait_for(lock, timeout, [this] { return !requests_.empty(); })) {
    return std::nullopt;
  }
  RecordedRequest result = std::move(requests_.front());
  requests_.pop_front();
  return result;
}

int ServerState::requestCount() const {
  std::lock_guard lock(mutex_);
  return requestCount_;
}

void ServerState::dispatchBookkeepingRequest(int sequenceNumber, int connectionIndex) {
  RecordedRequest request("", Headers(), {}, 0, "", sequenceNumber, connectionIndex, rootUrl());
  // Dispatched before it is recorded, so once takeRequest() returns it the script has moved on
  // and the next connection peeks the next response.
  dispatcher()->dispatch(request);
  record(std::move(request));
}

MockResponse ServerState::dispatch(const RecordedRequest& request) {
  MockResponse response = dispatcher()->dispatch(request);
  const std::string& line = request.requestLine();
  const bool overQuic = line.size() >= 7 && line.compare(line.size() - 7, 7, " HTTP/3") == 0;
  if (!servesHttp3_ || overQuic || response.headers().get("Alt-Svc")) return response;
  return response.newBuilder()
      .addHeader("Alt-Svc", "h3=\":" + std::to_string(port_) + "\"; ma=86400")
      .build();
}

void ServerState::beginShutdown() {
  closing_.fire();
  dispatcher()->shutdown();
}

std::vector<Protocol> ServerState::protocols() const {
  std::lock_guard lock(mutex_);
  return protocols_;
}

void ServerState::setProtocols(std::vector<Protocol> protocols) {
  std::lock_guard lock(mutex_);
  protocols_ = std::move(protocols);
}

int ServerState::goAwayAfterStreams() const {
  std::lock_guard lock(mutex_);
  return goAwayAfterStreams_;
}

void ServerState::setGoAwayAfterStreams(int streamCount) {
  std::lock_guard lock(mutex_);
  goAwayAfterStreams_ = streamCount;
}

bool ServerState::extendedConnect() const {
  std::lock_guard lock(mutex_);
  return extendedConnect_;
}

void ServerState::setExtendedConnect(bool enabled) {
  std::lock_guard lock(mutex_);
  extendedConnect_ = enabled;
}

}  // namespace tern::mockwebserver::internal
