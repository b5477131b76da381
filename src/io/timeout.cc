// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#include "tern/timeout.h"

#include <climits>
#include <stdexcept>
#include <string>

namespace tern {

namespace {

// Timeout::none(): never fires, and ignores setters so sharing one instance is safe.
class NoTimeout final : public Timeout {
 public:
  using Timeout::deadline;
  Timeout& timeout(std::chrono::nanoseconds) override { return *this; }
  Timeout& deadline(Clock::time_point) override { return *this; }
  Timeout& clearTimeout() override { return *this; }
  Timeout& clearDeadline() override { return *this; }
  void throwIfReached() override {}
};

// `now` + `duration`, or std::nullopt if that would overflow the clock (in effect, never).
std::optional<Timeout::Clock::time_point> addSaturating(Timeout::Clock::time_point now,
                                                        std::chrono::nanoseconds duration) {
  // `duration` is positive, so only a positive `now` can overflow (and max() - now cannot).
  if (now.time_since_epoch().count() > 0 && duration > Timeout::Clock::time_point::max() - now) {
    return std::nullopt;
  }
  return now + duration;
}

}  // namespace

Timeout& Timeout::none() {
  static NoTimeout instance;
  return instance;
}

Timeout& Timeout::timeout(std::chrono::nanoseconds timeout) {
  if (timeout.count() < 0) {
    throw std::invalid_argument(
        "Timeout::timeout: timeout < 0: " + std::to_string(timeout.count()) + "ns");
  }
  timeout_ = timeout;
  return *this;
}

std::chrono::nanoseconds Timeout::timeoutNanos() const { return timeout_; }

bool Timeout::hasDeadline() const { return deadline_.has_value(); }

Timeout::Clock::time_point Timeout::deadlineNanoTime() const {
  if (!deadline_) {
    throw std::logic_error("Timeout::deadlineNanoTime: no deadline");
  }
  return *deadline_;
}

Timeout& Timeout::deadline(Clock::time_point deadline) {
  deadline_ = deadline;
  return *this;
}

Timeout& Timeout::deadline(std::chrono::nanoseconds duration) {
  if (duration.count() <= 0) {
    throw std::invalid_argument(
        "Timeout::deadline: duration <= 0: " + std::to_string(duration.count()) + "ns");
  }
  Clock::time_point now = Clock::now();
  return deadline(addSaturating(now, duration).value_or(Clock::time_point::max()));
}

Timeout& Timeout::clearTimeout() {
  timeout_ = std::chrono::nanoseconds{0};
  return *this;
}

Timeout& Timeout::clearDeadline() {
  deadline_.reset();
  return *this;
}

void Timeout::throwIfReached() {
  if (hasDeadline() && deadlineNanoTime() <= Clock::now()) {
    throw InterruptedIOException("deadline reached");
  }
}

std::optional<Timeout::Clock::time_point> Timeout::waitDeadline(Clock::time_point now) const {
  std::optional<Clock::time_point> result;
  if (std::chrono::nanoseconds t = timeoutNanos(); t.count() > 0) {
    result = addSaturating(now, t);
  }
  if (hasDeadline()) {
    Clock::time_point deadline = deadlineNanoTime();
    if (!result || deadline < *result) {
      result = deadline;
    }
  }
  return result;
}

int Timeout::pollTimeoutMillis(std::optional<Clock::time_point> waitDeadline,
                               Clock::time_point now) {
  if (!waitDeadline) {
    return -1;
  }
  if (*waitDeadline <= now) {
    return 0;
  }
  auto millis = std::chrono::ceil<std::chrono::milliseconds>(*waitDeadline - now).count();
  return millis > INT_MAX ? INT_MAX : static_cast<int>(millis);
}

void Timeout::waitUntilNotified(std::condition_variable& condition,
                                std::unique_lock<std::mutex>& lock) {
  std::optional<Clock::time_point> until = waitDeadline(Clock::now());
  if (!until) {
    condition.wait(lock);
  } else if (condition.wait_until(lock, *until) == std::cv_status::timeout) {
    throw SocketTimeoutException("timeout");
  }
}

}  // namespace tern
