// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "tern/cipher_suite.h"
#include "tern/export.h"
#include "tern/tls_version.h"

namespace tern {

// How the bytes of a connection travel, as OkHttp's ConnectionSpec: for https, the TLS versions
// and cipher suites a client offers; CLEARTEXT for http. A Client holds a list of them
// (Client::Builder::connectionSpecs, [MODERN_TLS, CLEARTEXT] by default): an https connection
// uses the first TLS spec that this OpenSSL can honour, and falls back to the next one when a
// handshake fails for a reason a different offer could fix (see docs/tls.md); an http URL needs
// CLEARTEXT in the list.
//
// A spec's versions and suites are only used where OpenSSL has them enabled: the spec is
// intersected with what OpenSSL offers, and a spec with nothing left is not compatible. Use
// Builder::allEnabledTlsVersions() and allEnabledCipherSuites() to leave the choice to OpenSSL.
//
//   ConnectionSpec spec = ConnectionSpec::Builder(ConnectionSpec::MODERN_TLS)
//                             .tlsVersions({TlsVersion::TLS_1_3})
//                             .build();
//
// An immutable value, cheap to copy.
class TERN_API ConnectionSpec {
 public:
  class Builder;

  // A secure configuration for recent servers: TLS 1.3 and 1.2, forward-secret AEAD suites only.
  static const ConnectionSpec RESTRICTED_TLS;
  // The default: TLS 1.3 and 1.2 with the suites most servers have (Chrome's set of 2019).
  static const ConnectionSpec MODERN_TLS;
  // For obsolete servers: MODERN_TLS's suites, and TLS 1.1 and 1.0 too (OpenSSL 3 refuses those
  // at its default security level, so they rarely help).
  static const ConnectionSpec COMPATIBLE_TLS;
  // Unencrypted, unauthenticated connections for http URLs.
  static const ConnectionSpec CLEARTEXT;

  bool isTls() const noexcept { return tls_; }

  // The cipher suites to offer, in order; nullopt to offer every suite OpenSSL has enabled.
  std::optional<std::vector<CipherSuite>> cipherSuites() const;
  const std::optional<std::vector<std::string>>& cipherSuitesAsString() const noexcept {
    return cipherSuites_;
  }

  // The TLS versions to offer; nullopt to offer every version OpenSSL has enabled.
  std::optional<std::vector<TlsVersion>> tlsVersions() const;

  // Whether the TLS extensions SNI and ALPN are used. Always true for tern's TLS specs (OkHttp
  // deprecated turning them off).
  bool supportsTlsExtensions() const noexcept { return supportsTlsExtensions_; }

  // True if this is a TLS spec that has at least one of its versions among `enabledTlsVersions`
  // and (unless it offers all suites) one of its suites among `enabledCipherSuites`: what OpenSSL
  // here can do (OkHttp's isCompatible(SSLSocket)).
  bool isCompatible(const std::vector<TlsVersion>& enabledTlsVersions,
                    const std::vector<CipherSuite>& enabledCipherSuites) const;

  bool operator==(const ConnectionSpec& other) const;

  // "ConnectionSpec(cipherSuites=[TLS_AES_128_GCM_SHA256, ...], tlsVersions=[TLS_1_3, TLS_1_2],
  // supportsTlsExtensions=true)", "ConnectionSpec()" for CLEARTEXT; "[all enabled]" for nullopt.
  std::string toString() const;

 private:
  friend class Builder;
  ConnectionSpec() = default;

  bool tls_ = false;
  bool supportsTlsExtensions_ = false;
  std::optional<std::vector<std::string>> cipherSuites_;  // Java names.
  std::optional<std::vector<TlsVersion>> tlsVersions_;
};

// Builds a ConnectionSpec, starting from another (Builder(ConnectionSpec::MODERN_TLS)) or from
// nothing (Builder(true) for TLS, Builder(false) for cleartext). Setters return *this; the
// TLS-only ones throw std::invalid_argument on a cleartext builder ("no cipher suites for
// cleartext connections") and for an empty list ("At least one cipher suite is required").
class TERN_API ConnectionSpec::Builder {
 public:
  explicit Builder(bool tls);
  explicit Builder(const ConnectionSpec& spec);

  Builder& allEnabledCipherSuites();
  Builder& cipherSuites(const std::vector<CipherSuite>& cipherSuites);
  // By Java name, for suites without a constant.
  Builder& cipherSuites(const std::vector<std::string>& javaNames);

  Builder& allEnabledTlsVersions();
  Builder& tlsVersions(const std::vector<TlsVersion>& tlsVersions);
  // By Java name ("TLSv1.3"); throws std::invalid_argument for an unknown name.
  Builder& tlsVersions(const std::vector<std::string>& javaNames);

  // Kept for OkHttp's API; tern always uses the extensions on TLS connections.
  Builder& supportsTlsExtensions(bool supportsTlsExtensions);

  ConnectionSpec build() const;

 private:
  ConnectionSpec spec_;
};

// The specs are defined here, inline, so that they are ready before any static Client that a
// program defines after including this header (no static initialization order problem).

// The most secure suites: forward secrecy and AEAD only.
inline const ConnectionSpec ConnectionSpec::RESTRICTED_TLS =
    ConnectionSpec::Builder(true)
        .cipherSuites({
            CipherSuite::TLS_AES_128_GCM_SHA256,
            CipherSuite::TLS_AES_256_GCM_SHA384,
            CipherSuite::TLS_CHACHA20_POLY1305_SHA256,
            CipherSuite::TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256,
            CipherSuite::TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256,
            CipherSuite::TLS_ECDHE_ECDSA_WITH_AES_256_GCM_SHA384,
            CipherSuite::TLS_ECDHE_RSA_WITH_AES_256_GCM_SHA384,
            CipherSuite::TLS_ECDHE_ECDSA_WITH_CHACHA20_POLY1305_SHA256,
            CipherSuite::TLS_ECDHE_RSA_WITH_CHACHA20_POLY1305_SHA256,
        })
        .tlsVersions({TlsVersion::TLS_1_3, TlsVersion::TLS_1_2})
        .supportsTlsExtensions(true)
        .build();

// OkHttp's approved suites: RESTRICTED_TLS's, then CBC and RSA key exchange ones that are on
// HTTP/2's list of bad suites (RFC 9113 §9.2.2) but still common.
inline const ConnectionSpec ConnectionSpec::MODERN_TLS =
    ConnectionSpec::Builder(ConnectionSpec::RESTRICTED_TLS)
        .cipherSuites({
            CipherSuite::TLS_AES_128_GCM_SHA256,
            CipherSuite::TLS_AES_256_GCM_SHA384,
            CipherSuite::TLS_CHACHA20_POLY1305_SHA256,
            CipherSuite::TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256,
            CipherSuite::TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256,
            CipherSuite::TLS_ECDHE_ECDSA_WITH_AES_256_GCM_SHA384,
            CipherSuite::TLS_ECDHE_RSA_WITH_AES_256_GCM_SHA384,
            CipherSuite::TLS_ECDHE_ECDSA_WITH_CHACHA20_POLY1305_SHA256,
            CipherSuite::TLS_ECDHE_RSA_WITH_CHACHA20_POLY1305_SHA256,
            CipherSuite::TLS_ECDHE_RSA_WITH_AES_128_CBC_SHA,
            CipherSuite::TLS_ECDHE_RSA_WITH_AES_256_CBC_SHA,
            CipherSuite::TLS_RSA_WITH_AES_128_GCM_SHA256,
            CipherSuite::TLS_RSA_WITH_AES_256_GCM_SHA384,
            CipherSuite::TLS_RSA_WITH_AES_128_CBC_SHA,
            CipherSuite::TLS_RSA_WITH_AES_256_CBC_SHA,
            CipherSuite::TLS_RSA_WITH_3DES_EDE_CBC_SHA,
        })
        .build();

inline const ConnectionSpec ConnectionSpec::COMPATIBLE_TLS =
    ConnectionSpec::Builder(ConnectionSpec::MODERN_TLS)
        .tlsVersions(
            {TlsVersion::TLS_1_3, TlsVersion::TLS_1_2, TlsVersion::TLS_1_1, TlsVersion::TLS_1_0})
        .build();

inline const ConnectionSpec ConnectionSpec::CLEARTEXT = ConnectionSpec::Builder(false).build();

}  // namespace tern
