// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#include "io/discard.h"

#include <algorithm>
#include <optional>

#include "tern/buffer.h"
#include "tern/exceptions.h"
#include "tern/timeout.h"

namespace tern::internal {

bool discard(Source& source, std::chrono::nanoseconds duration) {
  Timeout& timeout = source.timeout();
  auto now = Timeout::Clock::now();
  std::optional<Timeout::Clock::time_point> originalDeadline;
  if (timeout.hasDeadline()) {
    originalDeadline = timeout.deadlineNanoTime();
  }
  auto deadline = now + duration;
  if (originalDeadline) {
    deadline = std::min(deadline, *originalDeadline);
  }
  timeout.deadline(deadline);
  bool result = true;
  try {
    Buffer skipped;
    while (source.read(skipped, Buffer::kSegmentSize) != -1) {
      skipped.clear();
      if (Timeout::Clock::now() >= deadline) {
        result = false;
        break;
      }
    }
  } catch (const IOException&) {
    result = false;  // Safe to swallow: the caller gives up the connection instead.
  }
  if (originalDeadline) {
    timeout.deadline(*originalDeadline);
  } else {
    timeout.clearDeadline();
  }
  return result;
}

}  // namespace tern::internal
