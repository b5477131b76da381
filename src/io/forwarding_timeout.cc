// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#include "io/forwarding_timeout.h"

namespace tern::internal {

Timeout& ForwardingTimeout::timeout(std::chrono::nanoseconds timeout) {
  delegate_->timeout(timeout);
  return *this;
}

std::chrono::nanoseconds ForwardingTimeout::timeoutNanos() const {
  return delegate_->timeoutNanos();
}

bool ForwardingTimeout::hasDeadline() const { return delegate_->hasDeadline(); }

Timeout::Clock::time_point ForwardingTimeout::deadlineNanoTime() const {
  return delegate_->deadlineNanoTime();
}

Timeout& ForwardingTimeout::deadline(Clock::time_point deadline) {
  delegate_->deadline(deadline);
  return *this;
}

Timeout& ForwardingTimeout::clearTimeout() {
  delegate_->clearTimeout();
  return *this;
}

Timeout& ForwardingTimeout::clearDeadline() {
  delegate_->clearDeadline();
  return *this;
}

void ForwardingTimeout::throwIfReached() { delegate_->throwIfReached(); }

}  // namespace tern::internal
