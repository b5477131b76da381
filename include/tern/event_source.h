// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#pragma once

#include <chrono>
#include <cstdint>
#include <exception>
#include <memory>
#include <optional>
#include <string>

#include "tern/client.h"
#include "tern/export.h"
#include "tern/request.h"
#include "tern/response.h"

namespace tern {

class EventSourceListener;

// A stream of server-sent events (WHATWG HTML §9.2, the text/event-stream format), as OkHttp's
// EventSource: made by an EventSource::Factory (EventSources::createFactory()), it connects at
// once and reports to its EventSourceListener until it ends. Unlike OkHttp's it reconnects by
// itself (see EventSources::Options and docs/sse.md).
//
// Shared (std::shared_ptr) so cancel() can be called from any thread. A running event source
// keeps itself alive: dropping every pointer to it neither cancels it nor loses its callbacks.
// Thread-safe.
class TERN_API EventSource {
 public:
  class Factory;

  virtual ~EventSource() = default;

  // The request this source was made for, with the Accept header the factory added. Each
  // reconnection sends it again, with Last-Event-ID when the stream gave an ID.
  virtual const Request& request() const = 0;

  // Stops the source, from any thread (a listener callback included), at any time: closes the
  // stream or the connection being made, or drops the reconnection waiting to happen. After the
  // listener callback running now (if any; from another thread, one just starting may race with
  // cancel() and still come) returns, the listener hears exactly one more call —
  // onFailure(InterruptedIOException("Canceled"), the open response or null) — unless its
  // onClosed() or onFailure() was already called; then nothing more. Idempotent; never throws.
  virtual void cancel() noexcept = 0;
};

// Makes event sources, as OkHttp's EventSource.Factory. Thread-safe.
class TERN_API EventSource::Factory {
 public:
  virtual ~Factory() = default;

  // A new event source for `request`, already connecting (asynchronously: this never blocks and
  // never calls the listener itself). Throws std::invalid_argument if `listener` is null.
  virtual std::shared_ptr<EventSource> newEventSource(
      const Request& request, std::shared_ptr<EventSourceListener> listener) = 0;
};

// Hears what an EventSource does, as OkHttp's EventSourceListener. Every method does nothing by
// default.
//
// Threads: the calls come on the client's dispatcher threads (while a stream is read) and on
// tern's background threads (a failed reconnection), but one at a time and in order for each
// source, each call done before the next starts, so a listener used by one source needs no
// lock. The stream is read on the thread that calls the listener: a slow callback slows the
// stream, and a callback that blocks holds a dispatcher thread.
//
// Order: for each connection, onOpen() and then any number of onEvent() and onRetryChange();
// reconnections repeat this; the last call is exactly one of onClosed() or onFailure(), after
// which nothing more is called.
//
// A listener method should not throw: an exception from onOpen(), onEvent() or onRetryChange()
// ends the source (its connection is closed, no reconnection) with onFailure(that exception);
// one from onClosed() or onFailure() is reported on stderr and dropped.
class TERN_API EventSourceListener {
 public:
  virtual ~EventSourceListener() = default;

  // A connection is open: the server answered 2xx with Content-Type text/event-stream. The
  // response has no body (its stream is what the source reads). Called once per connection.
  virtual void onOpen(EventSource& eventSource, const Response& response);

  // An event. `id` is the last event ID the stream gave (it carries over to later events and
  // reconnections; nullopt when there is none), `type` the "event" field (nullopt when none was
  // given, which the standard calls a "message"), `data` its data lines joined by "\n".
  virtual void onEvent(EventSource& eventSource, const std::optional<std::string>& id,
                       const std::optional<std::string>& type, const std::string& data);

  // The server's "retry" field: the delay before the next reconnection is now `retry`.
  virtual void onRetryChange(EventSource& eventSource, std::chrono::milliseconds retry);

  // The source ended cleanly: the server answered 204 No Content (it asks the client to stop),
  // or the stream ended and reconnection is off or its limit was reached.
  virtual void onClosed(EventSource& eventSource);

  // The source failed and will not reconnect. `error` is null for a response with a status
  // other than 2xx; else it is an IOException (a connection or stream failure that was not
  // reconnected, InterruptedIOException("Canceled") after cancel(), a ProtocolException for a
  // response that is not text/event-stream or for a line or an event past the size limit), or
  // what a listener method threw. `response` is the response the server gave (without its body),
  // or null when there was none or the failure came after a reconnection wait.
  virtual void onFailure(EventSource& eventSource, const std::exception_ptr& error,
                         const Response* response);
};

// Creates event source factories, as OkHttp's EventSources.
class TERN_API EventSources final {
 public:
  EventSources() = delete;

  // How event sources reconnect and what they accept. The defaults follow the standard: a
  // stream that ends or breaks is reopened after the retry delay (3 s until the server sends
  // "retry"), without limit.
  struct TERN_API Options {
    // Whether to reconnect when a stream ends or a connection fails (OkHttp never does: with
    // false, a stream that ends gives onClosed() and a failure gives onFailure()).
    bool reconnect = true;
    // The delay before a reconnection until the server sends "retry" (WHATWG's reconnection
    // time). Must be >= 0.
    std::chrono::milliseconds retryDelay{3000};
    // Whether a source whose first connection fails (before any onOpen()) reconnects too, as
    // the standard has it. With false it fails at once with that error, so a wrong URL or a
    // server that is down is reported instead of retried (what the tern tool does); streams
    // that opened are still reconnected.
    bool reconnectBeforeOpen = true;
    // How many reconnections in a row are allowed; the count starts again at each onOpen().
    // nullopt: no limit. Must be >= 0 (0 is like reconnect = false).
    std::optional<int> maxReconnects;
    // The longest line, and the most data in one event, a server may send, in bytes: past it
    // the source fails with a ProtocolException naming the limit (and does not reconnect), so a
    // hostile server cannot make it hold unbounded memory. Must be >= 1.
    int64_t maxEventSize = 8 * 1024 * 1024;
  };

  // A factory whose event sources run their calls on `client`. Each source:
  //  - adds "Accept: text/event-stream" to its request unless it has an Accept header;
  //  - sends "Last-Event-ID" on a reconnection when the stream gave a non-empty ID (replacing a
  //    Last-Event-ID of the request);
  //  - ignores the client's callTimeout (a stream has no end); connect, read and write timeouts
  //    apply as for any call. A read timeout on an open stream counts as a broken connection
  //    (reconnected): with the default 10 s, a stream quiet for 10 s is reopened, so set
  //    readTimeout() longer than the server's keep-alive comments, or zero for none;
  //  - holds a dispatcher thread while its stream is open (OkHttp's model), and counts against
  //    the Dispatcher's limits (5 calls per host by default);
  //  - does not reconnect after a call the client canceled or refused (Dispatcher::cancelAll(),
  //    Client::shutdown()): it fails with that InterruptedIOException.
  // Throws std::invalid_argument naming a bad option.
  static std::shared_ptr<EventSource::Factory> createFactory(const Client& client, Options options);
  static std::shared_ptr<EventSource::Factory> createFactory(const Client& client);
};

}  // namespace tern
