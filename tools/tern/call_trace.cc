// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#include "call_trace.h"

namespace tern::tool {

std::optional<Clock::time_point> CallTrace::first(std::string_view name) const {
  for (const TraceEvent& event : events) {
    if (event.name == name) return event.at;
  }
  return std::nullopt;
}

std::optional<Clock::time_point> CallTrace::last(std::string_view name) const {
  for (auto it = events.rbegin(); it != events.rend(); ++it) {
    if (it->name == name) return it->at;
  }
  return std::nullopt;
}

bool CallTrace::reusedConnection() const {
  // A connection acquired with no connect just before it came from the pool.
  bool connectedJustNow = false;
  for (const TraceEvent& event : events) {
    if (event.name == "connectEnd") connectedJustNow = true;
    if (event.name == "connectionAcquired") {
      if (!connectedJustNow) return true;
      connectedJustNow = false;
    }
  }
  return false;
}

}  // namespace tern::tool
