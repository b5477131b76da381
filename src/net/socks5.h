// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#pragma once

#include <chrono>
#include <string>

#include "tern/proxy.h"
#include "tern/sink.h"
#include "tern/source.h"

namespace tern::internal {

// Asks a SOCKS5 proxy (RFC 1928) to connect to `host`:`port` over a connection to it that is
// open and unused, and returns once it has: the connection then carries the origin's bytes.
// `host` is an IP literal (the client resolved it) or a host name (the proxy resolves it,
// socks5h). Offers "no authentication", and with `proxy`'s credentials also RFC 1929's
// username/password. Reads exactly the proxy's replies, never beyond, so nothing of the origin's
// is lost. Blocking, bounded by `source` and `sink`'s timeouts. Throws ProxyException when the
// proxy refuses (its reply named), ProtocolException when it answers something that is not
// SOCKS5, IOException from the transport, std::invalid_argument for a host name or credentials
// longer than 255 bytes.
void socks5Connect(Source& source, Sink& sink, const Proxy& proxy, const std::string& host,
                   int port);

// RFC 1928 §6's text for a reply code: "connection refused" for 5.
std::string socks5ReplyText(int code);

}  // namespace tern::internal
