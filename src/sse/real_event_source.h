// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#pragma once

#include <chrono>
#include <exception>
#include <memory>
#include <string>

#include "concurrent/mutex.h"
#include "concurrent/task_queue.h"
#include "concurrent/thread_annotations.h"
#include "tern/call.h"
#include "tern/client.h"
#include "tern/event_source.h"
#include "tern/request.h"
#include "tern/response.h"
#include "tern/response_body.h"

namespace tern::internal {

// The EventSource behind EventSources::createFactory(), as OkHttp's RealEventSource plus the
// standard's reconnection (WHATWG HTML §9.2.3): each connection is an enqueued Call whose
// response is read on the dispatcher thread that delivers it; a reconnection waits on a TaskQueue
// of the process-wide TaskRunner (no thread sleeps through the wait) and enqueues the next call.
//
// One attempt at a time: a connection attempt, its stream, and the wait before the next attempt
// follow each other, each handing over to the next (through the dispatcher or the queue) when it
// is done. So the listener is called by one thread at a time, and the members marked "attempt"
// below are only touched by the thread running the current attempt.
//
// Lifetime: shared. While a call runs, its Callback holds the source; while a reconnection
// waits, keepAlive_ does. So a source lives until its terminal callback even when its user drops
// it.
//
// Lock order: mutex_, then the TaskRunner's lock (cancel() schedules under mutex_). The listener
// is never called with mutex_ held.
class RealEventSource final : public EventSource,
                              public std::enable_shared_from_this<RealEventSource> {
 public:
  // A source that will connect `request` (its Accept header already set) on `client` when
  // start() is called. `listener` is not null.
  RealEventSource(Client client, Request request, std::shared_ptr<EventSourceListener> listener,
                  EventSources::Options options);
  ~RealEventSource() override;
  RealEventSource(const RealEventSource&) = delete;
  RealEventSource& operator=(const RealEventSource&) = delete;

  const Request& request() const override { return request_; }
  void cancel() noexcept override;

  // Schedules the first connection at once, on the queue (never on the caller's thread, so no
  // listener call happens inside newEventSource()). Call once.
  void start();

 private:
  class CallCallback;
  class StreamReader;
  struct ListenerThrew {};  // A listener method threw; listenerError_ holds what.

  // Schedules connect() after `delay`, keeping the source alive meanwhile.
  void scheduleConnectLocked(std::chrono::milliseconds delay) TERN_REQUIRES(mutex_);
  // An attempt: enqueues a call for the request (with Last-Event-ID).
  void connect();
  // The call's outcomes, on a dispatcher thread (onFailure possibly inside connect()).
  void onResponse(Response response);
  void onCallFailure(std::exception_ptr error, bool callCanceled);
  // Reads the open stream until it ends, fails or the source is canceled.
  void readStream(ResponseBody& body, Response& stripped);
  // After an attempt: waits and reconnects if `mayReconnect` and the options allow it, else
  // finishes with onFailure(error, response), or onClosed() when error is null.
  void endAttempt(std::exception_ptr error, const Response* response, bool mayReconnect);
  // Delivers the terminal callback, once: onFailure(Canceled) if the source was canceled, else
  // onFailure(error, response) when `failed`, else onClosed().
  void finish(bool failed, std::exception_ptr error, const Response* response);
  bool isCanceled();
  // Runs a listener method; an exception from it becomes ListenerThrew.
  template <typename F>
  void callListener(F&& f);

  const Client client_;
  const Request request_;
  const std::shared_ptr<EventSourceListener> listener_;
  const EventSources::Options options_;
  const std::unique_ptr<TaskQueue> queue_;  // Where connects wait and run.

  Mutex mutex_;
  bool canceled_ TERN_GUARDED_BY(mutex_) = false;
  bool finished_ TERN_GUARDED_BY(mutex_) = false;  // The terminal callback was claimed.
  bool waiting_ TERN_GUARDED_BY(mutex_) = false;   // connect() is scheduled on queue_.
  std::shared_ptr<RealEventSource> keepAlive_ TERN_GUARDED_BY(mutex_);  // While waiting_.
  std::shared_ptr<Call> call_ TERN_GUARDED_BY(mutex_);                  // The attempt's call.
  int reconnects_ TERN_GUARDED_BY(mutex_) = 0;  // In a row, since the last onOpen().
  // The wait before the next reconnection: the options', then the server's "retry".
  std::chrono::milliseconds retryDelay_ TERN_GUARDED_BY(mutex_);

  // Attempt: touched only by the thread running the current attempt.
  std::string lastEventId_;
  std::exception_ptr listenerError_;
};

}  // namespace tern::internal
