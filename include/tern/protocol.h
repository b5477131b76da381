// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#pragma once

#include <iosfwd>
#include <string_view>

#include "tern/export.h"

namespace tern {

// The protocols a connection can speak, by their ALPN identifiers (RFC 7301) as OkHttp names them.
enum class Protocol {
  HTTP_1_0,            // "http/1.0": a response from an HTTP/1.0 server.
  HTTP_1_1,            // "http/1.1"
  HTTP_2,              // "h2": HTTP/2 negotiated by ALPN over TLS.
  H2_PRIOR_KNOWLEDGE,  // "h2_prior_knowledge": cleartext HTTP/2 with no upgrade (RFC 9113 §3.3).
  // "h3": HTTP/3 over QUIC (RFC 9114), found through an origin's Alt-Svc (RFC 7838), never by
  // TCP's ALPN. In a client's protocols it means "may use HTTP/3 when an origin advertises it".
  HTTP_3,
};

// The protocol's identifier: "http/1.0", "http/1.1", "h2", "h2_prior_knowledge" or "h3".
TERN_API std::string_view toString(Protocol protocol) noexcept;

// The protocol named by `identifier`, one of toString()'s values. Throws IOException naming the
// identifier otherwise, since it comes from a peer (ALPN or a status line).
TERN_API Protocol parseProtocol(std::string_view identifier);

// Writes toString(protocol), as OkHttp's Protocol.toString(): `std::cout << Protocol::HTTP_2`
// prints "h2".
TERN_API std::ostream& operator<<(std::ostream& out, Protocol protocol);

}  // namespace tern
