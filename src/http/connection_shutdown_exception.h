// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#pragma once

#include <string>

#include "tern/exceptions.h"

namespace tern::internal {

// A multiplexed connection (HTTP/2 or HTTP/3) could not take a new stream: it received or sent
// GOAWAY, failed, or is at the peer's stream limit (HTTP/2's MAX_CONCURRENT_STREAMS, QUIC's
// MAX_STREAMS). Nothing of the request was sent, so the call retries on another connection
// (OkHttp's ConnectionShutdownException).
class ConnectionShutdownException : public IOException {
 public:
  explicit ConnectionShutdownException(const std::string& message, bool atStreamLimit = false)
      : IOException(message), atStreamLimit_(atStreamLimit) {}

  // True if the connection is healthy but full: the peer's stream limit is reached.
  bool atStreamLimit() const noexcept { return atStreamLimit_; }

 private:
  bool atStreamLimit_;
};

}  // namespace tern::internal
