// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#pragma once

#include <condition_variable>
#include <deque>
#include <mutex>
#include <optional>

#include "tern/export.h"
#include "tern/mockwebserver/dispatcher.h"

namespace tern::mockwebserver {

// The default Dispatcher: serves enqueued responses in order, one per request, as OkHttp's
// mockwebserver3 QueueDispatcher. MockWebServer::enqueue() adds to it.
//
// When the queue is empty dispatch() waits for the next enqueued response (the client then
// waits too, until its read timeout), unless fail-fast is on, in which case it answers at once
// with the fail-fast response (404 by default). After shutdown() every dispatch() returns
// "HTTP/1.1 503 shutting down" (never sent: the connections are closed by then). A request for
// "GET /favicon.ico HTTP/1.1" is answered 404 without consuming the queue, so a browser can be
// pointed at the server.
//
// Thread-safe.
class TERN_API QueueDispatcher : public Dispatcher {
 public:
  QueueDispatcher() = default;

  // The next enqueued response; waits for one while the queue is empty (see above).
  MockResponse dispatch(const RecordedRequest& request) override;

  // The next enqueued response without removing it; else the fail-fast response if set; else
  // MockResponse(). Never waits.
  MockResponse peek() override;

  // Appends `response` to the script.
  void enqueueResponse(MockResponse response);

  // Wakes every dispatch() waiting on an empty queue; from now on dispatch() returns the 503
  // above.
  void shutdown() override;

  // With `failFast` true, an empty queue answers "404 Client Error" at once instead of waiting;
  // false restores waiting.
  void setFailFast(bool failFast);

  // An empty queue answers `failFastResponse` at once; std::nullopt restores waiting.
  void setFailFast(std::optional<MockResponse> failFastResponse);

 private:
  std::mutex mutex_;
  std::condition_variable changed_;  // Notified on enqueue and shutdown.
  std::deque<MockResponse> responseQueue_;
  std::optional<MockResponse> failFastResponse_;
  bool shutdown_ = false;
};

}  // namespace tern::mockwebserver
