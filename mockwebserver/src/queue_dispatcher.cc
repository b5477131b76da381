// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#include "tern/mockwebserver/queue_dispatcher.h"

#include <utility>

namespace tern::mockwebserver {
namespace {

// What dispatch() returns once the server is shutting down. Never sent: by then the connection
// it would answer is closed.
MockResponse deadLetter() {
  return MockResponse::Builder().status("HTTP/1.1 503 shutting down").build();
}

}  // namespace

MockResponse QueueDispatcher::dispatch(const RecordedRequest& request) {
  // Browsers ask for a favicon first; answering it without consuming the script lets a person
  // point a browser at the server while a test runs.
  if (request.requestLine() == "GET /favicon.ico HTTP/1.1") {
    return MockResponse::Builder().code(404).build();
  }

  std::unique_lock lock(mutex_);
  if (failFastResponse_ && responseQueue_.empty() && !shutdown_) {
    return *failFastResponse_;
  }
  changed_.wait(lock, [this] { return shutdown_ || !responseQueue_.empty(); });
  if (shutdown_) return deadLetter();
  MockResponse result = std::move(responseQueue_.front());
  responseQueue_.pop_front();
  return result;
}

MockResponse QueueDispatcher::peek() {
  std::lock_guard lock(mutex_);
  if (!responseQueue_.empty()) return responseQueue_.front();
  if (failFastResponse_) return *failFastResponse_;
  return Dispatcher::peek();
}

void QueueDispatcher::enqueueResponse(MockResponse response) {
  {
    std::lock_guard lock(mutex_);
    responseQueue_.push_back(std::move(response));
  }
  changed_.notify_all();
}

void QueueDispatcher::shutdown() {
  {
    std::lock_guard lock(mutex_);
    shutdown_ = true;
  }
  changed_.notify_all();
}

void QueueDispatcher::setFailFast(bool failFast) {
  setFailFast(failFast ? std::optional(MockResponse::Builder().code(404).build()) : std::nullopt);
}

void QueueDispatcher::setFailFast(std::optional<MockResponse> failFastResponse) {
  std::lock_guard lock(mutex_);
  failFastResponse_ = std::move(failFastResponse);
}

}  // namespace tern::mockwebserver
