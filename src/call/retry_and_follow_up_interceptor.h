// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#pragma once

#include <chrono>
#include <optional>

#include "tern/client.h"
#include "tern/exceptions.h"
#include "tern/interceptor.h"

namespace tern::internal {

class Exchange;
class RealCall;

// Recovers from failures and follows redirects and auth challenges, as OkHttp's
// RetryAndFollowUpInterceptor: the first built-in interceptor.
//
// Retries (only with retryOnConnectionFailure): a connection failure before the request was sent
// (another route may work), a pooled connection that turned out stale, a connect timeout; never a
// ProtocolException, a cancellation, a read/write timeout after the request went out, or a
// request whose one-shot body was already sent. Follow-ups: redirects (RFC 9110 §15.4: 301, 302
// and 303 become GET without a body except for PROPFIND, 307 and 308 keep method and body; the
// Authorization header is dropped when the host changes), 401/407 answered by the
// authenticators, 408 retried once (unless Retry-After asks for a delay), 503 with
// "Retry-After: 0" retried once. At most kMaxFollowUps follow-ups: the next one throws
// ProtocolException("Too many follow-up requests: 21"). With the client's RetryPolicy on, the
// codes it covers are its alone: it decides, reports retryDecision, and waits before the retry;
// its retries are not counted as follow-ups.
class RetryAndFollowUpInterceptor final : public Interceptor {
 public:
  // How many redirects and auth challenges to follow: Chrome follows 21, Firefox, curl and wget
  // 20, Safari 16, HTTP/1.0 recommended 5. OkHttp's 20.
  static constexpr int kMaxFollowUps = 20;

  // Stateless: each call's settings come from its client (chain.call()), so one instance serves
  // every call of a client.
  RetryAndFollowUpInterceptor() = default;

  Response intercept(Chain& chain) override;

 private:
  // True if the call may be retried after `e`.
  bool recover(const Client& client, const IOException& e, RealCall& call,
               const Request& userRequest, bool requestSendStarted) const;

  // The RetryPolicy's wait before sending `response`'s request again as its `retry`-th retry, or
  // nullopt; reports the decision (retryDecision) either way.
  std::optional<std::chrono::milliseconds> policyRetry(const Client& client, RealCall& call,
                                                       const Response& response, int retry) const;

  // The request that answers `userResponse` (a redirect, credentials, a retry after 408, 503 or
  // a 421 on a coalesced connection), or nullopt.
  std::optional<Request> followUpRequest(const Client& client, const Response& userResponse,
                                         Exchange* exchange) const;
  std::optional<Request> buildRedirectRequest(const Client& client,
                                              const Response& userResponse) const;
};

}  // namespace tern::internal
