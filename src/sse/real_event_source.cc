// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#include "sse/real_event_source.h"

#include <algorithm>
#include <iostream>
#include <optional>
#include <stdexcept>
#include <utility>

#include "concurrent/task_runner.h"
#include "io/ascii.h"
#include "sse/server_sent_event_reader.h"
#include "tern/callback.h"
#include "tern/exceptions.h"
#include "tern/response_body.h"

namespace tern::internal {
namespace {

// The failure `e` an enqueued call reported, with its dynamic type. The dispatcher calls
// Callback::onFailure() from inside the handler that caught the failure, so the exception in
// flight is `e` itself; a call it refused (client shut down, executor rejected) is reported
// outside any handler, always as an InterruptedIOException.
std::exception_ptr failureOf(const IOException& e) {
  if (std::exception_ptr current = std::current_exception()) {
    try {
      std::rethrow_exception(current);
    } catch (const IOException& inFlight) {
      if (&inFlight == &e) return current;
    } catch (...) {
      // Another exception is in flight: not ours, fall through to a copy.
    }
  }
  if (const auto* timeout = dynamic_cast<const SocketTimeoutException*>(&e)) {
    return std::make_exception_ptr(*timeout);
  }
  if (const auto* interrupted = dynamic_cast<const InterruptedIOException*>(&e)) {
    return std::make_exception_ptr(*interrupted);
  }
  return std::make_exception_ptr(e);
}

bool isEventStream(const ResponseBody& body) {
  const std::optional<MediaType>& type = body.contentType();
  return type && equalsIgnoreCase(type->type(), "text") &&
         equalsIgnoreCase(type->subtype(), "event-stream");
}

}  // namespace

// The call's answer, handed to the source. Holds the source while the call runs.
class RealEventSource::CallCallback final : public Callback {
 public:
  explicit CallCallback(std::shared_ptr<RealEventSource> source) : source_(std::move(source)) {}
  void onResponse(Call&, Response response) override { source_->onResponse(std::move(response)); }
  void onFailure(Call& call, const IOException& e) override {
    source_->onCallFailure(failureOf(e), call.isCanceled());
  }

 private:
  const std::shared_ptr<RealEventSource> source_;
};

// What the stream's reader finds, passed on to the listener.
class RealEventSource::StreamReader final : public ServerSentEventReader::Callback {
 public:
  explicit StreamReader(RealEventSource& source) : source_(source) {}
  void onEvent(const std::optional<std::string>& id, const std::optional<std::string>& type,
               const std::string& data) override {
    if (source_.isCanceled()) return;  // cancel() promised no more events.
    source_.callListener([&] { source_.listener_->onEvent(source_, id, type, data); });
  }
  void onRetryChange(std::chrono::milliseconds retry) override {
    {
      MutexLock lock(source_.mutex_);
      if (source_.canceled_) return;
      source_.retryDelay_ = retry;
    }
    source_.callListener([&] { source_.listener_->onRetryChange(source_, retry); });
  }

 private:
  RealEventSource& source_;
};

RealEventSource::RealEventSource(Client client, Request request,
                                 std::shared_ptr<EventSourceListener> listener,
                                 EventSources::Options options)
    : client_(std::move(client)),
      request_(std::move(request)),
      listener_(std::move(listener)),
      options_(options),
      queue_(TaskRunner::instance()->newQueue("tern EventSource " + request_.url().toString())),
      retryDelay_(options.retryDelay) {}

RealEventSource::~RealEventSource() = default;

void RealEventSource::start() {
  MutexLock lock(mutex_);
  scheduleConnectLocked(std::chrono::milliseconds(0));
}

void RealEventSource::scheduleConnectLocked(std::chrono::milliseconds delay) {
  waiting_ = true;
  keepAlive_ = shared_from_this();
  // The task holds the source weakly: a task dropped unrun (cancel(), the runner shutting down
  // at exit) must not destroy the source, and with it this queue, under the runner's lock.
  // keepAlive_ holds it instead until a connect task takes it (a source whose task the runner
  // dropped at exit is leaked, not destroyed).
  std::weak_ptr<RealEventSource> weak = keepAlive_;
  delay = std::min(delay, ServerSentEventReader::kMaxRetry);  // Fits in nanoseconds.
  queue_->execute("tern EventSource connect", delay, true, [weak] {
    if (std::shared_ptr<RealEventSource> source = weak.lock()) source->connect();
  });
}

void RealEventSource::connect() {
  // Released last, maybe destroying the source here, inside the queue's task (which ~TaskQueue
  // allows), never under the runner's lock.
  std::shared_ptr<RealEventSource> self;
  std::shared_ptr<Call> call;
  {
    MutexLock lock(mutex_);
    self = std::move(keepAlive_);
    waiting_ = false;
    if (canceled_) {
      lock.unlock();
      finish(true, nullptr, nullptr);  // Once: a second connect task finds it finished.
      return;
    }
    Request request = request_;
    if (!lastEventId_.empty()) {
      try {
        request = request_.newBuilder().header("Last-Event-ID", lastEventId_).build();
      } catch (const std::invalid_argument&) {
        // An ID that is no valid header value (a control character) cannot be sent; the
        // request goes without it, as a stream that never gave an ID.
      }
    }
    call = client_.newCall(std::move(request));
    // A stream has no end, so no call timeout (OkHttp ends it once the stream opens).
    call->timeout().clearTimeout().clearDeadline();
    call_ = call;
  }
  call->enqueue(std::make_shared<CallCallback>(self));
}

void RealEventSource::cancel() noexcept {
  std::shared_ptr<Call> call;
  {
    MutexLock lock(mutex_);
    if (canceled_) return;
    canceled_ = true;
    call = call_;
    if (waiting_) {
      // No attempt runs: run the waiting connect now instead of after its delay; it sees the
      // cancel and finishes. (From the queue, never on the caller's thread, which may hold locks
      // of its own.) A connect task already running sees it too; finish() runs once.
      try {
        queue_->cancelAll();
        scheduleConnectLocked(std::chrono::milliseconds(0));
      } catch (const std::exception& e) {
        // Only when the TaskRunner is shutting down at exit; then no callback runs anyway.
        std::cerr << "tern: EventSource cancel: " << e.what() << "\n";
      }
    }
  }
  if (call) call->cancel();
}

bool RealEventSource::isCanceled() {
  MutexLock lock(mutex_);
  return canceled_;
}

template <typename F>
void RealEventSource::callListener(F&& f) {
  try {
    f();
  } catch (...) {
    listenerError_ = std::current_exception();
    throw ListenerThrew{};
  }
}

void RealEventSource::onCallFailure(std::exception_ptr error, bool callCanceled) {
  // A call canceled by someone else (Dispatcher::cancelAll(), Client::shutdown()) or refused
  // ("client is shut down", "executor rejected") is not a broken connection: reconnecting would
  // defy whoever stopped it, or loop. Those are InterruptedIOExceptions; a timeout is not one
  // of them.
  bool stopped = callCanceled;
  try {
    std::rethrow_exception(error);
  } catch (const SocketTimeoutException&) {
    // A connect or read timeout: reconnect.
  } catch (const InterruptedIOException&) {
    stopped = true;
  } catch (...) {
    // Any other failure to reach the server: reconnect.
  }
  endAttempt(std::move(error), nullptr, !stopped);
}

void RealEventSource::onResponse(Response response) {
  if (response.code() == 204) {  // "No Content": the server asks the client to stop reconnecting.
    finish(false, nullptr, nullptr);
    return;
  }
  if (!response.isSuccessful()) {
    finish(true, nullptr, &response);
    return;
  }
  if (!response.body() || !isEventStream(*response.body())) {
    std::string type = "none";
    if (response.body() && response.body()->contentType()) {
      type = response.body()->contentType()->toString();
    }
    finish(true, std::make_exception_ptr(ProtocolException("Invalid content-type: " + type)),
           &response);
    return;
  }
  ResponseBody body = std::move(*response.body());
  Response stripped = std::move(response).newBuilder().body(std::nullopt).build();
  readStream(body, stripped);
}

void RealEventSource::readStream(ResponseBody& body, Response& stripped) {
  StreamReader callback(*this);
  ServerSentEventReader reader(body.source(), callback, lastEventId_, options_.maxEventSize);
  std::exception_ptr error;
  bool mayReconnect = true;
  try {
    if (!isCanceled()) {
      {
        MutexLock lock(mutex_);
        reconnects_ = 0;
        opened_ = true;
      }
      callListener([&] { listener_->onOpen(*this, stripped); });
      while (!isCanceled() && reader.processNextEvent()) {
      }
    }
  } catch (const ListenerThrew&) {
    error = listenerError_;
    mayReconnect = false;
  } catch (const EventSizeLimitException&) {
    error = std::current_exception();
    mayReconnect = false;  // Reconnecting to a hostile stream would only repeat it.
  } catch (const IOException&) {
    error = std::current_exception();
  } catch (...) {
    error = std::current_exception();
    mayReconnect = false;
  }
  lastEventId_ = reader.lastEventId();
  body.close();
  endAttempt(std::move(error), &stripped, mayReconnect);
}

void RealEventSource::endAttempt(std::exception_ptr error, const Response* response,
                                 bool mayReconnect) {
  {
    MutexLock lock(mutex_);
    call_.reset();
    if (!canceled_ && mayReconnect && options_.reconnect &&
        (opened_ || options_.reconnectBeforeOpen) &&
        (!options_.maxReconnects || reconnects_ < *options_.maxReconnects)) {
      ++reconnects_;
      scheduleConnectLocked(retryDelay_);
      return;
    }
  }
  bool failed = error != nullptr;
  finish(failed, std::move(error), response);
}

void RealEventSource::finish(bool failed, std::exception_ptr error, const Response* response) {
  {
    MutexLock lock(mutex_);
    if (finished_) return;
    finished_ = true;
    if (canceled_) {
      failed = true;
      error = std::make_exception_ptr(InterruptedIOException("Canceled"));
    }
  }
  try {
    if (failed) {
      listener_->onFailure(*this, error, response);
    } else {
      listener_->onClosed(*this);
    }
  } catch (const std::exception& e) {
    // The source has ended; there is no one else to tell.
    std::cerr << "tern: EventSourceListener failure for " << request_.url().toString() << ": "
              << e.what() << "\n";
  } catch (...) {
    std::cerr << "tern: EventSourceListener failure for " << request_.url().toString() << "\n";
  }
}

}  // namespace tern::internal
