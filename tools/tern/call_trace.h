// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#pragma once

#include <chrono>
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "tern/protocol.h"

namespace tern::tool {

using Clock = std::chrono::steady_clock;

// One event a call reported, as the tool keeps it: the EventListener callback's name, a short
// description of what it carried, and when it came.
struct TraceEvent {
  std::string_view name;  // A string literal (no allocation per event).
  std::string detail;
  Clock::time_point at;
};

// Everything one call of the run reported, in order: what --trace-events prints, what the -w
// times and the --waterfall chart are computed from. Filled by TransferEventListener while the
// call runs (its events never overlap), read once the transfer is over.
struct CallTrace {
  size_t index = 0;           // The call's number in the run, from 0.
  std::string url;            // Its original request's URL.
  Clock::time_point start{};  // When the transfer began (a bit before callStart).
  std::vector<TraceEvent> events;

  // Connections this call opened (connectEnd events): %{num_connects}.
  int newConnections = 0;
  // The peer of the last connection the call used (%{remote_ip}, %{remote_port}).
  std::string remoteIp;
  int remotePort = 0;
  // This side of it (%{local_ip}, %{local_port}).
  std::string localIp;
  int localPort = 0;
  // Bytes of every request sent: heads as HTTP/1.1 writes them, and bodies (%{size_request}).
  int64_t requestBytes = 0;
  // The protocol of the last connection the call used, once it had one: how a failure is read.
  std::optional<Protocol> protocol;

  // When the first event named `name` came, or nullopt.
  std::optional<Clock::time_point> first(std::string_view name) const;
  // When the last event named `name` came, or nullopt.
  std::optional<Clock::time_point> last(std::string_view name) const;
  // True if the call made a connection (a connectEnd came).
  bool connected() const { return first("connectEnd").has_value(); }
  // True if the call took a pooled connection it did not open itself.
  bool reusedConnection() const;
  // True if the call ended in callFailed.
  bool failed() const { return first("callFailed").has_value(); }
  // The time from `start` to `at`.
  std::chrono::nanoseconds since(Clock::time_point at) const { return at - start; }
};

}  // namespace tern::tool
