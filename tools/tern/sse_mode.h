// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#pragma once

#include <ostream>

#include "options.h"

namespace tern::tool {

// `tern --sse URL`: opens URL as a stream of server-sent events (tern/event_source.h) and
// prints each event on `out` as "TYPE: DATA" (TYPE "message" when the event has none; data of
// several lines printed as it is), flushing after each one. A stream that ends or breaks is
// reopened after the server's retry delay (3 s until it sends one) with Last-Event-ID; a first
// connection that fails is not retried.
//
// Returns the exit code: 0 once the server answers 204 No Content; else curl's codes, with
// "tern: (N) message" on `err` (unless -s without -S): the connection's failures as a transfer's
// (7 could not connect, 6 unknown host, 35/60 TLS, ...); 22 for a status >= 400; 8 (weird server
// reply) for any other status than 2xx, a response that is not text/event-stream, or a line or
// event over 8 MiB; 28 when -m/--max-time passes; 23 when `out` cannot be written.
//
// Honours -H, -A, -u, -d (as for a transfer: buildRequest()), -k, --cacert and the other TLS
// options, --connect-timeout, -m, -L, -s, -S and -v (the request and response heads of each
// connection, and the retry delay, on `err`). Throws ToolException for a URL or a TLS file it
// cannot use.
int runSse(const Options& options, std::ostream& out, std::ostream& err);

}  // namespace tern::tool
