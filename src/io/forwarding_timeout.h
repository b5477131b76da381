// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#pragma once

#include "tern/timeout.h"

namespace tern::internal {

// A Timeout that passes every call to another, replaceable one (Okio's ForwardingTimeout). The
// HTTP/1 codec hands one to each body so that, when the body is done, it can detach the body
// from the socket's timeout: setDelegate(Timeout::none()), then clear the old delegate.
// Not thread-safe; the delegate must outlive it (or be replaced first).
class ForwardingTimeout final : public Timeout {
 public:
  explicit ForwardingTimeout(Timeout& delegate) : delegate_(&delegate) {}

  // The timeout calls are forwarded to.
  Timeout& delegate() const noexcept { return *delegate_; }

  // Forwards future calls to `delegate` instead.
  void setDelegate(Timeout& delegate) noexcept { delegate_ = &delegate; }

  using Timeout::deadline;
  Timeout& timeout(std::chrono::nanoseconds timeout) override;
  std::chrono::nanoseconds timeoutNanos() const override;
  bool hasDeadline() const override;
  Clock::time_point deadlineNanoTime() const override;
  Timeout& deadline(Clock::time_point deadline) override;
  Timeout& clearTimeout() override;
  Timeout& clearDeadline() override;
  void throwIfReached() override;

 private:
  Timeout* delegate_;  // Never null.
};

}  // namespace tern::internal
