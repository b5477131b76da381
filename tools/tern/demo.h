// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#pragma once

#include <ostream>

namespace tern::tool {

// `tern --demo`, the offline showcase: starts a MockWebServer in this process over TLS (a root
// and a localhost certificate made on the spot with HeldCertificate; h2 and http/1.1 offered by
// ALPN), fetches three URLs from it through the tool's own transfer path as
// `tern --trace-events --cacert ROOT.pem -w ... URL URL URL` would (one of them a redirect), and
// explains what happened: connections made and reused, the protocol ALPN chose, the TLS version,
// and each call's timings. Everything is written to `out`, in order. Needs no network (loopback
// only) and no files but a temporary one for the root certificate, removed at the end. The rest
// of the command line is ignored: the demo has its own URLs and options.
// Returns the run's exit code: 0 if every fetch worked. Throws std::exception if the server
// cannot start.
int runDemo(std::ostream& out);

}  // namespace tern::tool
