// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#pragma once

#include <iosfwd>
#include <string_view>

#include "tern/export.h"

namespace tern {

// A version of TLS (or its predecessor SSL 3.0) a connection can negotiate, as OkHttp's
// TlsVersion. ConnectionSpec lists the ones a client offers; Handshake says which one a
// connection uses.
enum class TlsVersion {
  TLS_1_3,  // "TLSv1.3", 2018 (RFC 8446).
  TLS_1_2,  // "TLSv1.2", 2008 (RFC 5246).
  TLS_1_1,  // "TLSv1.1", 2006; obsolete (RFC 8996).
  TLS_1_0,  // "TLSv1", 1999; obsolete (RFC 8996).
  SSL_3_0,  // "SSLv3", 1996; insecure, never negotiated by tern.
};

// The name Java (and OpenSSL's SSL_get_version()) uses: "TLSv1.3", "TLSv1.2", "TLSv1.1",
// "TLSv1", "SSLv3".
TERN_API std::string_view javaName(TlsVersion version) noexcept;

// The enum constant's name, as OkHttp prints it: "TLS_1_3".
TERN_API std::string_view toString(TlsVersion version) noexcept;

// The version named `javaName` (one of javaName()'s values). Throws std::invalid_argument
// ("Unexpected TLS version: TLSv9") otherwise.
TERN_API TlsVersion tlsVersionForJavaName(std::string_view javaName);

// Writes toString(version): "TLS_1_3".
TERN_API std::ostream& operator<<(std::ostream& out, TlsVersion version);

}  // namespace tern
