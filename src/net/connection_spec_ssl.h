// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#pragma once

#include <openssl/ssl.h>

#include <string>
#include <vector>

#include "tern/cipher_suite.h"
#include "tern/connection_spec.h"
#include "tern/tls_version.h"

namespace tern::internal {

// ConnectionSpec meets OpenSSL: what an SSL has enabled, in ConnectionSpec's terms, and how a
// spec narrows it (OkHttp's ConnectionSpec.apply(SSLSocket) and isCompatible(SSLSocket)).

// The TLS versions `ssl` may negotiate (its min/max range less the SSL_OP_NO_* options), newest
// first.
std::vector<TlsVersion> enabledTlsVersions(const SSL* ssl);

// The cipher suites `ssl` offers, TLS 1.3 ones included, by IANA name, in OpenSSL's order.
std::vector<CipherSuite> enabledCipherSuites(const SSL* ssl);

// OpenSSL's name for `suite` ("ECDHE-RSA-AES128-GCM-SHA256"; TLS 1.3 suites keep their IANA
// name), or "" if this OpenSSL does not know it.
std::string openSslCipherName(const CipherSuite& suite);

// True if `spec` is TLS and `ssl` has one of its versions and one of its suites enabled.
bool isCompatible(const ConnectionSpec& spec, const SSL* ssl);

// Narrows `ssl` to `spec`: the versions it names (within what is enabled), its suites in the
// spec's order (within what is enabled; TLS 1.3 suites through SSL_set_ciphersuites), and with
// `isFallback` the TLS_FALLBACK_SCSV signal (RFC 7507), since this offer is a retry with a
// weaker spec. A spec offering all versions or all suites leaves those as they are. Throws
// std::logic_error if the spec is not compatible (check isCompatible() first).
void applyConnectionSpec(const ConnectionSpec& spec, SSL* ssl, bool isFallback);

}  // namespace tern::internal
