// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#include "tern/tls_version.h"

#include <ostream>
#include <stdexcept>
#include <string>

namespace tern {

std::string_view javaName(TlsVersion version) noexcept {
  switch (version) {
    case TlsVersion::TLS_1_3:
      return "TLSv1.3";
    case TlsVersion::TLS_1_2:
      return "TLSv1.2";
    case TlsVersion::TLS_1_1:
      return "TLSv1.1";
    case TlsVersion::TLS_1_0:
      return "TLSv1";
    case TlsVersion::SSL_3_0:
      return "SSLv3";
  }
  return "TLSv1.2";
}

std::string_view toString(TlsVersion version) noexcept {
  switch (version) {
    case TlsVersion::TLS_1_3:
      return "TLS_1_3";
    case TlsVersion::TLS_1_2:
      return "TLS_1_2";
    case TlsVersion::TLS_1_1:
      return "TLS_1_1";
    case TlsVersion::TLS_1_0:
      return "TLS_1_0";
    case TlsVersion::SSL_3_0:
      return "SSL_3_0";
  }
  return "TLS_1_2";
}

TlsVersion tlsVersionForJavaName(std::string_view name) {
  for (TlsVersion version : {TlsVersion::TLS_1_3, TlsVersion::TLS_1_2, TlsVersion::TLS_1_1,
                             TlsVersion::TLS_1_0, TlsVersion::SSL_3_0}) {
    if (javaName(version) == name) return version;
  }
  throw std::invalid_argument("Unexpected TLS version: " + std::string(name));
}

std::ostream& operator<<(std::ostream& out, TlsVersion version) { return out << toString(version); }

}  // namespace tern
