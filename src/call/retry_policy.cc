// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#include "tern/retry_policy.h"

#include <algorithm>
#include <cmath>
#include <random>
#include <stdexcept>
#include <string>
#include <utility>

#include "tern/http_date.h"

namespace tern {
namespace {

using std::chrono::milliseconds;

// Longer than any wait anyone means; keeps the arithmetic below from overflowing.
constexpr int64_t kMaxDelaySeconds = int64_t{1} << 31;

void requireNonNegative(milliseconds delay, const char* name) {
  if (delay < milliseconds(0)) {
    throw std::invalid_argument(std::string("RetryPolicy::Builder::") + name + ": negative delay " +
                                std::to_string(delay.count()) + " ms");
  }
}

double defaultRandom() {
  thread_local std::mt19937_64 generator{std::random_device{}()};
  return std::uniform_real_distribution<double>(0.0, 1.0)(generator);
}

}  // namespace

std::optional<milliseconds> RetryPolicy::parseRetryAfter(
    std::string_view value, std::chrono::system_clock::time_point date) {
  while (!value.empty() && (value.front() == ' ' || value.front() == '\t')) value.remove_prefix(1);
  while (!value.empty() && (value.back() == ' ' || value.back() == '\t')) value.remove_suffix(1);
  if (value.empty()) return std::nullopt;
  if (std::all_of(value.begin(), value.end(), [](char c) { return c >= '0' && c <= '9'; })) {
    int64_t seconds = 0;
    for (char c : value) {
      seconds = seconds * 10 + (c - '0');
      if (seconds > kMaxDelaySeconds) return std::chrono::seconds(kMaxDelaySeconds);
    }
    return std::chrono::seconds(seconds);
  }
  std::optional<std::chrono::system_clock::time_point> at = parseHttpDate(value);
  if (!at) return std::nullopt;
  if (*at <= date) return milliseconds(0);
  auto until = std::chrono::duration_cast<milliseconds>(*at - date);
  return std::min<milliseconds>(until, std::chrono::seconds(kMaxDelaySeconds));
}

std::optional<milliseconds> RetryPolicy::delay(const Response& response, int retry,
                                               std::chrono::system_clock::time_point now) const {
  if (retry < 1 || retry > maxRetries_) return std::nullopt;
  if (!statusCodes_.contains(response.code())) return std::nullopt;
  const Request& request = response.request();
  if (request.body() && request.body()->isOneShot()) return std::nullopt;

  if (std::optional<std::string> header = response.header("Retry-After")) {
    std::chrono::system_clock::time_point date = now;
    if (std::optional<std::string> dateHeader = response.header("Date")) {
      if (auto parsed = parseHttpDate(*dateHeader)) date = *parsed;
    }
    if (std::optional<milliseconds> asked = parseRetryAfter(*header, date)) {
      if (*asked > maxRetryAfter_) return std::nullopt;
      return *asked;
    }
    // A Retry-After we cannot read: as if there were none.
  }

  // initialDelay × 2^(retry - 1), at most maxDelay.
  milliseconds backoff = initialDelay_;
  for (int i = 1; i < retry && backoff < maxDelay_; ++i) backoff *= 2;
  backoff = std::min(backoff, maxDelay_);
  double random = random_ ? random_() : defaultRandom();
  random = std::clamp(random, 0.0, 1.0);
  auto cut =
      static_cast<int64_t>(std::floor(static_cast<double>(backoff.count()) * jitter_ * random));
  return backoff - milliseconds(cut);
}

RetryPolicy::Builder& RetryPolicy::Builder::maxRetries(int maxRetries) {
  if (maxRetries < 0) {
    throw std::invalid_argument("RetryPolicy::Builder::maxRetries: negative count " +
                                std::to_string(maxRetries));
  }
  policy_.maxRetries_ = maxRetries;
  return *this;
}

RetryPolicy::Builder& RetryPolicy::Builder::initialDelay(milliseconds delay) {
  requireNonNegative(delay, "initialDelay");
  policy_.initialDelay_ = delay;
  return *this;
}

RetryPolicy::Builder& RetryPolicy::Builder::maxDelay(milliseconds delay) {
  requireNonNegative(delay, "maxDelay");
  policy_.maxDelay_ = delay;
  return *this;
}

RetryPolicy::Builder& RetryPolicy::Builder::maxRetryAfter(milliseconds delay) {
  requireNonNegative(delay, "maxRetryAfter");
  policy_.maxRetryAfter_ = delay;
  return *this;
}

RetryPolicy::Builder& RetryPolicy::Builder::jitter(double fraction) {
  if (!(fraction >= 0.0 && fraction <= 1.0)) {
    throw std::invalid_argument("RetryPolicy::Builder::jitter: " + std::to_string(fraction) +
                                " is not in [0, 1]");
  }
  policy_.jitter_ = fraction;
  return *this;
}

RetryPolicy::Builder& RetryPolicy::Builder::statusCodes(std::set<int> codes) {
  for (int code : codes) {
    if (code < 400 || code > 599) {
      throw std::invalid_argument("RetryPolicy::Builder::statusCodes: " + std::to_string(code) +
                                  " is not an error code (400..599)");
    }
    if (code == 401 || code == 407) {
      throw std::invalid_argument("RetryPolicy::Builder::statusCodes: " + std::to_string(code) +
                                  " is answered by the client's Authenticator, not retried");
    }
  }
  policy_.statusCodes_ = std::move(codes);
  return *this;
}

RetryPolicy::Builder& RetryPolicy::Builder::random(std::function<double()> random) {
  policy_.random_ = std::move(random);
  return *this;
}

RetryPolicy RetryPolicy::Builder::build() const { return policy_; }

}  // namespace tern
