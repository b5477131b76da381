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
//   response over verified https. The QUIC transport is being built, so nothing uses them yet;
// - the last --alt-svc file is the client's: read when the client is made, written when an
//   alternative is learned or lost and at the end, atomically; "" keeps the cache in memory only.
//   A file that cannot be read is an empty cache kept in memory, as curl reads it (-v says so).
//   Unlike curl, the earlier --alt-svc files are not read: a client keeps one file.

// `protocols` with HTTP_3 first when --alt-svc is given (not with h2 prior knowledge, which
// stands alone).
std::vector<Protocol> withAltSvcDiscovery(const Options& options, std::vector<Protocol> protocols);

// Gives `builder` the last --alt-svc file, if any. `debug` (may be null) hears of a file that
// cannot be read.
void useAltSvcFile(const Options& options, Client::Builder& builder, DebugOutput* debug);

}  // namespace tern::tool
