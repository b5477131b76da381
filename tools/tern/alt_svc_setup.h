// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#pragma once

#include <vector>

#include "debug_output.h"
#include "options.h"
#include "tern/client.h"
#include "tern/protocol.h"

namespace tern::tool {

// curl's --alt-svc FILE for the tool's client (RFC 7838, in curl's Alt-Svc cache file format,
// Client::Builder::altSvcFile()):
// - the client may use HTTP/3 (HTTP_3 among its protocols): it records the Alt-Svc of every
//   response over verified https, and calls an origin with a fresh h3 alternative over QUIC
//   (raced against TCP, docs/http3.md);
// - the last --alt-svc file is the client's: read when the client is made, written when an
//   alternative is learned or lost, and at the end of the run whatever happened (as curl 7.88
//   does: a missing file is created, expired lines are dropped); "" keeps the cache in memory
//   only. A file that cannot be read is an empty cache kept in memory, as curl reads it (-v says
//   so), and is not written. As curl 7.88 does (its manual says it reads them all), the earlier
//   --alt-svc files are not read.

// `protocols` with HTTP_3 first when --alt-svc is given (not with h2 prior knowledge, which
// stands alone).
std::vector<Protocol> withAltSvcDiscovery(const Options& options, std::vector<Protocol> protocols);

// Gives `builder` the last --alt-svc file, if any. `debug` (may be null) hears of a file that
// cannot be read.
void useAltSvcFile(const Options& options, Client::Builder& builder, DebugOutput* debug);

// At the end of the run: writes the last --alt-svc file again, as curl writes its cache file on
// exit even when nothing changed (the client wrote every change as it happened). Does nothing
// without a file, or for one useAltSvcFile() found unreadable; a failure is only for `debug`.
void saveAltSvcFile(const Options& options, DebugOutput* debug);

}  // namespace tern::tool
