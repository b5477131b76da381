// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#pragma once

#include <functional>
#include <memory>

#include "tern/exceptions.h"
#include "tern/export.h"
#include "tern/response.h"

namespace tern {

class Call;

// Receives the outcome of an enqueued call, as OkHttp's Callback: exactly one of onResponse()
// and onFailure() is called, once, on a dispatcher thread (never on the thread that called
// Call::enqueue(), except for a call the dispatcher refuses: after Client::shutdown(), or when
// its executor rejects the call, onFailure runs inside enqueue()).
class TERN_API Callback {
 public:
  virtual ~Callback() = default;

  // The call failed: it was canceled, timed out, or could not reach the server. A server that
  // answers with an error status (404, 500) is a response, not a failure.
  virtual void onFailure(Call& call, const IOException& e) = 0;

  // The server answered. The callback owns `response` and must close its body (reading it to the
  // end, calling close(), or letting the response be destroyed) to release the connection; it may
  // read the body here, on the dispatcher thread, or hand the response elsewhere. An exception
  // thrown from here is reported on stderr and does not call onFailure().
  virtual void onResponse(Call& call, Response response) = 0;

  // A callback that calls `onResponse` or `onFailure`.
  static std::shared_ptr<Callback> of(
      std::function<void(Call& call, Response response)> onResponse,
      std::function<void(Call& call, const IOException& e)> onFailure);
};

}  // namespace tern
