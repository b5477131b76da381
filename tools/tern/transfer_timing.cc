// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#include "transfer_timing.h"

#include <optional>

namespace tern::tool {
namespace {

std::chrono::nanoseconds sinceStart(const CallTrace& trace,
                                    const std::optional<Clock::time_point>& at) {
  return at ? trace.since(*at) : std::chrono::nanoseconds(0);
}

}  // namespace

TransferTimes transferTimes(const CallTrace& trace) {
  TransferTimes times;
  times.namelookup = sinceStart(trace, trace.first("dnsEnd"));
  // OkHttp's connectEnd comes after the TLS handshake; curl's time_connect is the TCP
  // connection alone, which is where the handshake starts.
  std::optional<Clock::time_point> tcpConnected = trace.first("secureConnectStart");
  if (!tcpConnected) tcpConnected = trace.first("connectEnd");
  times.connect = sinceStart(trace, tcpConnected);
  times.appconnect = sinceStart(trace, trace.first("secureConnectEnd"));
  times.pretransfer = sinceStart(trace, trace.first("requestHeadersStart"));
  times.starttransfer = sinceStart(trace, trace.first("responseHeadersStart"));
  return times;
}

}  // namespace tern::tool
