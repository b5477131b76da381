// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#pragma once

#include "tern/export.h"
#include "tern/mockwebserver/mock_response.h"
#include "tern/mockwebserver/recorded_request.h"

namespace tern::mockwebserver {

// Decides how MockWebServer answers each request, as OkHttp's mockwebserver3 Dispatcher. The
// default is a QueueDispatcher (a script of responses); subclass this to vary responses with
// the request (its path, headers, body) or with timing.
//
// Thread safety: the server calls every method from its connection threads, possibly from
// several at once, and shutdown() from the thread that closes the server. Implementations must
// be thread-safe.
class TERN_API Dispatcher {
 public:
  virtual ~Dispatcher() = default;

  // The response to `request`. May block (for instance until a test releases it); it should
  // return promptly once shutdown() is called. Exceptions it throws end the connection.
  virtual MockResponse dispatch(const RecordedRequest& request) = 0;

  // An early guess of the next response, which the server uses before it has a request: for the
  // socket policy of a new connection and, once request headers are read, for informational
  // responses and how to read the request body. The default is MockResponse(): KeepOpen.
  virtual MockResponse peek();

  // Releases anything blocked in dispatch(). Called when the server closes; responses returned
  // after that are not sent (their connections are already closed).
  virtual void shutdown() {}
};

}  // namespace tern::mockwebserver
