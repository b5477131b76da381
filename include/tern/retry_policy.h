// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <optional>
#include <set>

#include "tern/exceptions.h"
#include "tern/export.h"
#include "tern/request.h"
#include "tern/response.h"

namespace tern {

// When a call sends its request again after the server said "not now" (429 Too Many Requests,
// 503 Service Unavailable), and how long it waits first. Off by default: a client retries such a
// response only as OkHttp does (a 503 with "Retry-After: 0", once). Opt in on the client:
//
//   Client client = Client::Builder()
//       .retryPolicy(RetryPolicy::Builder().maxRetries(4).build())
//       .build();
//
// For each response whose code is one of statusCodes() (429 and 503 by default):
//  - a Retry-After header (RFC 9110 §10.2.3: seconds, or an HTTP date, counted from the
//    response's Date when it has one) is the wait. One longer than maxRetryAfter() ends the
//    retries and the call returns the response: waiting less would ignore the server;
//  - without one, the wait is exponential backoff: initialDelay() doubled on each retry up to
//    maxDelay(), less a random part of up to jitter() of it (so clients that failed together do
//    not come back together);
//  - the request goes again only if it can be replayed: an idempotent method (RFC 9110 §9.2.2)
//    or a body that can be sent again, which is every RequestBody but a one-shot one (429 and
//    503 say the server did not act on the request, so a POST is safe to repeat). A one-shot
//    body is never sent twice;
//  - a wait that would end past the call timeout ends the retries instead (the call returns the
//    response rather than failing with a timeout), and cancel() ends a wait at once.
// After maxRetries() retries the last response is returned as it is. Each retry is reported to
// the EventListener as retryDecision(call, RetryableStatusException, true) and then
// followUpDecision(call, response, &request); a response the policy will not retry (out of
// retries, Retry-After too long, a one-shot body) as retryDecision(..., false).
//
// The wait holds the calling thread (a dispatcher thread for an enqueued call). A value:
// cheap to copy, thread-safe.
class TERN_API RetryPolicy {
 public:
  class Builder;

  // No retries (the default).
  RetryPolicy() = default;

  int maxRetries() const noexcept { return maxRetries_; }
  std::chrono::milliseconds initialDelay() const noexcept { return initialDelay_; }
  std::chrono::milliseconds maxDelay() const noexcept { return maxDelay_; }
  std::chrono::milliseconds maxRetryAfter() const noexcept { return maxRetryAfter_; }
  double jitter() const noexcept { return jitter_; }
  const std::set<int>& statusCodes() const noexcept { return statusCodes_; }
  bool enabled() const noexcept { return maxRetries_ > 0; }

  // The wait before retrying `response`, the `retry`-th retry (1 for the first), or nullopt if
  // the policy does not retry it: a code it does not cover, no retries left, a Retry-After
  // beyond maxRetryAfter(), or a request that cannot be sent again. `now` is when the response
  // arrived (for a Retry-After date without a Date header).
  std::optional<std::chrono::milliseconds> delay(
      const Response& response, int retry,
      std::chrono::system_clock::time_point now = std::chrono::system_clock::now()) const;

  // The delay a Retry-After header asks for: delay-seconds, or an HTTP date less `date` (the
  // response's Date, or now; a date in the past is zero). nullopt if `value` is neither.
  static std::optional<std::chrono::milliseconds> parseRetryAfter(
      std::string_view value, std::chrono::system_clock::time_point date);

 private:
  int maxRetries_ = 0;
  std::chrono::milliseconds initialDelay_{1000};
  std::chrono::milliseconds maxDelay_{30'000};
  std::chrono::milliseconds maxRetryAfter_{120'000};
  double jitter_ = 0.5;
  std::set<int> statusCodes_{429, 503};
  std::function<double()> random_;  // In [0, 1); null: a thread-local generator.
};

class TERN_API RetryPolicy::Builder {
 public:
  Builder() = default;

  // How many times a request is sent again, at most. 3 by default; 0 turns the policy off.
  // Throws std::invalid_argument if negative.
  Builder& maxRetries(int maxRetries);
  // The first backoff wait (1 s by default), doubled on each retry.
  // Throws std::invalid_argument if negative.
  Builder& initialDelay(std::chrono::milliseconds delay);
  // The longest backoff wait (30 s by default). Throws std::invalid_argument if negative.
  Builder& maxDelay(std::chrono::milliseconds delay);
  // The longest Retry-After the call waits for (2 minutes by default); a longer one ends the
  // retries. Throws std::invalid_argument if negative.
  Builder& maxRetryAfter(std::chrono::milliseconds delay);
  // The part of each backoff wait that is random, in [0, 1]: 0.5 (the default) waits between
  // half and all of it, 0 exactly it. Throws std::invalid_argument outside [0, 1].
  Builder& jitter(double fraction);
  // The response codes to retry: 429 and 503 by default. Throws std::invalid_argument for a
  // code outside 400..599, and for 401 and 407 (the Authenticator's).
  Builder& statusCodes(std::set<int> codes);
  // Where the jitter's randomness comes from (values in [0, 1)), for tests. Null: the default.
  Builder& random(std::function<double()> random);

  RetryPolicy build() const;

 private:
  RetryPolicy policy_ = [] {
    RetryPolicy policy;
    policy.maxRetries_ = 3;
    return policy;
  }();
};

// What retryDecision reports for a response the RetryPolicy looked at: "HTTP 503 from
// https://example.com/...; retrying in 2000 ms (retry 1 of 3)". Never thrown to the caller.
class TERN_API RetryableStatusException : public IOException {
 public:
  RetryableStatusException(const std::string& message, int code,
                           std::optional<std::chrono::milliseconds> delay)
      : IOException(message), code_(code), delay_(delay) {}
  // The response's code.
  int code() const noexcept { return code_; }
  // The wait before the retry; nullopt when the response is not retried.
  std::optional<std::chrono::milliseconds> delay() const noexcept { return delay_; }

 private:
  int code_;
  std::optional<std::chrono::milliseconds> delay_;
};

}  // namespace tern
