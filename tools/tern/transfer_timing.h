// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#pragma once

#include <chrono>

#include "call_trace.h"

namespace tern::tool {

// curl's -w times for one transfer, from the start of the transfer, computed from its call's
// events (the one place that maps events to curl's times):
//  - namelookup: the first dnsEnd (0 if the call looked nothing up: an IP literal or a pooled
//    connection);
//  - connect: the first TCP connection established: secureConnectStart for https, else
//    connectEnd (0 without a new connection);
//  - appconnect: the first secureConnectEnd (0 on cleartext, and without a new connection);
//  - pretransfer: the first requestHeadersStart;
//  - starttransfer: the first responseHeadersStart (the first byte of the first response).
// A time whose event never came is 0, as curl reports steps that did not happen. Each is at
// least the one before it unless it is 0.
struct TransferTimes {
  std::chrono::nanoseconds namelookup{0};
  std::chrono::nanoseconds connect{0};
  std::chrono::nanoseconds appconnect{0};
  std::chrono::nanoseconds pretransfer{0};
  std::chrono::nanoseconds starttransfer{0};
};

TransferTimes transferTimes(const CallTrace& trace);

}  // namespace tern::tool
