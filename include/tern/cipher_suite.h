// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#pragma once

#include <iosfwd>
#include <string>
#include <string_view>

#include "tern/export.h"

namespace tern {

// A TLS cipher suite (RFC 8446 §B.4, RFC 5246 §A.5), named as IANA's registry and OkHttp's
// CipherSuite name it: CipherSuite::TLS_AES_128_GCM_SHA256. ConnectionSpec lists the suites a
// client offers; Handshake says which one a connection uses. tern maps these names to OpenSSL's
// own ("ECDHE-RSA-AES128-GCM-SHA256") where it configures OpenSSL; suites this OpenSSL does not
// implement are skipped there.
//
// The constants below are the suites OkHttp's connection specs use and their close relatives;
// forJavaName() makes a suite for any other name. A value type, cheap to copy; two suites are
// equal when their names are, with Java's "SSL_" prefix of old suites equal to "TLS_".
class TERN_API CipherSuite {
 public:
  // TLS 1.3.
  static const CipherSuite TLS_AES_128_GCM_SHA256;
  static const CipherSuite TLS_AES_256_GCM_SHA384;
  static const CipherSuite TLS_CHACHA20_POLY1305_SHA256;
  static const CipherSuite TLS_AES_128_CCM_SHA256;
  static const CipherSuite TLS_AES_128_CCM_8_SHA256;
  // TLS 1.2 and earlier, forward secret.
  static const CipherSuite TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256;
  static const CipherSuite TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256;
  static const CipherSuite TLS_ECDHE_ECDSA_WITH_AES_256_GCM_SHA384;
  static const CipherSuite TLS_ECDHE_RSA_WITH_AES_256_GCM_SHA384;
  static const CipherSuite TLS_ECDHE_ECDSA_WITH_CHACHA20_POLY1305_SHA256;
  static const CipherSuite TLS_ECDHE_RSA_WITH_CHACHA20_POLY1305_SHA256;
  static const CipherSuite TLS_ECDHE_ECDSA_WITH_AES_128_CBC_SHA;
  static const CipherSuite TLS_ECDHE_ECDSA_WITH_AES_256_CBC_SHA;
  static const CipherSuite TLS_ECDHE_ECDSA_WITH_AES_128_CBC_SHA256;
  static const CipherSuite TLS_ECDHE_ECDSA_WITH_AES_256_CBC_SHA384;
  static const CipherSuite TLS_ECDHE_RSA_WITH_AES_128_CBC_SHA;
  static const CipherSuite TLS_ECDHE_RSA_WITH_AES_256_CBC_SHA;
  static const CipherSuite TLS_ECDHE_RSA_WITH_AES_128_CBC_SHA256;
  static const CipherSuite TLS_ECDHE_RSA_WITH_AES_256_CBC_SHA384;
  static const CipherSuite TLS_DHE_RSA_WITH_AES_128_GCM_SHA256;
  static const CipherSuite TLS_DHE_RSA_WITH_AES_256_GCM_SHA384;
  static const CipherSuite TLS_DHE_RSA_WITH_CHACHA20_POLY1305_SHA256;
  static const CipherSuite TLS_DHE_RSA_WITH_AES_128_CBC_SHA;
  static const CipherSuite TLS_DHE_RSA_WITH_AES_256_CBC_SHA;
  static const CipherSuite TLS_DHE_RSA_WITH_AES_128_CBC_SHA256;
  static const CipherSuite TLS_DHE_RSA_WITH_AES_256_CBC_SHA256;
  // TLS 1.2 and earlier, RSA key exchange (not forward secret).
  static const CipherSuite TLS_RSA_WITH_AES_128_GCM_SHA256;
  static const CipherSuite TLS_RSA_WITH_AES_256_GCM_SHA384;
  static const CipherSuite TLS_RSA_WITH_AES_128_CBC_SHA;
  static const CipherSuite TLS_RSA_WITH_AES_256_CBC_SHA;
  static const CipherSuite TLS_RSA_WITH_AES_128_CBC_SHA256;
  static const CipherSuite TLS_RSA_WITH_AES_256_CBC_SHA256;
  static const CipherSuite TLS_RSA_WITH_3DES_EDE_CBC_SHA;
  // Signalling values (RFC 5746, RFC 7507), not ciphers.
  static const CipherSuite TLS_EMPTY_RENEGOTIATION_INFO_SCSV;
  static const CipherSuite TLS_FALLBACK_SCSV;

  // The suite named `javaName`: the constant above if it is one (in either spelling, "TLS_..." or
  // Java's "SSL_..." for suites from the SSL days), else a new suite with that name. Thread-safe.
  // Throws std::invalid_argument if the name is empty.
  static CipherSuite forJavaName(std::string_view javaName);

  // The name Java uses: IANA's, except "SSL_" for the oldest suites
  // ("SSL_RSA_WITH_3DES_EDE_CBC_SHA").
  std::string_view javaName() const noexcept { return javaName_; }

  // javaName().
  std::string toString() const { return std::string(javaName_); }

  bool operator==(const CipherSuite& other) const noexcept;

 private:
  constexpr explicit CipherSuite(std::string_view javaName) : javaName_(javaName) {}

  std::string_view javaName_;  // A literal, or interned by forJavaName(): never dangles.
};

// Writes javaName(): "TLS_AES_128_GCM_SHA256".
TERN_API std::ostream& operator<<(std::ostream& out, const CipherSuite& suite);

inline constexpr CipherSuite CipherSuite::TLS_AES_128_GCM_SHA256{"TLS_AES_128_GCM_SHA256"};
inline constexpr CipherSuite CipherSuite::TLS_AES_256_GCM_SHA384{"TLS_AES_256_GCM_SHA384"};
inline constexpr CipherSuite CipherSuite::TLS_CHACHA20_POLY1305_SHA256{
    "TLS_CHACHA20_POLY1305_SHA256"};
inline constexpr CipherSuite CipherSuite::TLS_AES_128_CCM_SHA256{"TLS_AES_128_CCM_SHA256"};
inline constexpr CipherSuite CipherSuite::TLS_AES_128_CCM_8_SHA256{"TLS_AES_128_CCM_8_SHA256"};
inline constexpr CipherSuite CipherSuite::TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256{
    "TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256"};
inline constexpr CipherSuite CipherSuite::TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256{
    "TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256"};
inline constexpr CipherSuite CipherSuite::TLS_ECDHE_ECDSA_WITH_AES_256_GCM_SHA384{
    "TLS_ECDHE_ECDSA_WITH_AES_256_GCM_SHA384"};
inline constexpr CipherSuite CipherSuite::TLS_ECDHE_RSA_WITH_AES_256_GCM_SHA384{
    "TLS_ECDHE_RSA_WITH_AES_256_GCM_SHA384"};
inline constexpr CipherSuite CipherSuite::TLS_ECDHE_ECDSA_WITH_CHACHA20_POLY1305_SHA256{
    "TLS_ECDHE_ECDSA_WITH_CHACHA20_POLY1305_SHA256"};
inline constexpr CipherSuite CipherSuite::TLS_ECDHE_RSA_WITH_CHACHA20_POLY1305_SHA256{
    "TLS_ECDHE_RSA_WITH_CHACHA20_POLY1305_SHA256"};
inline constexpr CipherSuite CipherSuite::TLS_ECDHE_ECDSA_WITH_AES_128_CBC_SHA{
    "TLS_ECDHE_ECDSA_WITH_AES_128_CBC_SHA"};
inline constexpr CipherSuite CipherSuite::TLS_ECDHE_ECDSA_WITH_AES_256_CBC_SHA{
    "TLS_ECDHE_ECDSA_WITH_AES_256_CBC_SHA"};
inline constexpr CipherSuite CipherSuite::TLS_ECDHE_ECDSA_WITH_AES_128_CBC_SHA256{
    "TLS_ECDHE_ECDSA_WITH_AES_128_CBC_SHA256"};
inline constexpr CipherSuite CipherSuite::TLS_ECDHE_ECDSA_WITH_AES_256_CBC_SHA384{
    "TLS_ECDHE_ECDSA_WITH_AES_256_CBC_SHA384"};
inline constexpr CipherSuite CipherSuite::TLS_ECDHE_RSA_WITH_AES_128_CBC_SHA{
    "TLS_ECDHE_RSA_WITH_AES_128_CBC_SHA"};
inline constexpr CipherSuite CipherSuite::TLS_ECDHE_RSA_WITH_AES_256_CBC_SHA{
    "TLS_ECDHE_RSA_WITH_AES_256_CBC_SHA"};
inline constexpr CipherSuite CipherSuite::TLS_ECDHE_RSA_WITH_AES_128_CBC_SHA256{
    "TLS_ECDHE_RSA_WITH_AES_128_CBC_SHA256"};
inline constexpr CipherSuite CipherSuite::TLS_ECDHE_RSA_WITH_AES_256_CBC_SHA384{
    "TLS_ECDHE_RSA_WITH_AES_256_CBC_SHA384"};
inline constexpr CipherSuite CipherSuite::TLS_DHE_RSA_WITH_AES_128_GCM_SHA256{
    "TLS_DHE_RSA_WITH_AES_128_GCM_SHA256"};
inline constexpr CipherSuite CipherSuite::TLS_DHE_RSA_WITH_AES_256_GCM_SHA384{
    "TLS_DHE_RSA_WITH_AES_256_GCM_SHA384"};
inline constexpr CipherSuite CipherSuite::TLS_DHE_RSA_WITH_CHACHA20_POLY1305_SHA256{
    "TLS_DHE_RSA_WITH_CHACHA20_POLY1305_SHA256"};
inline constexpr CipherSuite CipherSuite::TLS_DHE_RSA_WITH_AES_128_CBC_SHA{
    "TLS_DHE_RSA_WITH_AES_128_CBC_SHA"};
inline constexpr CipherSuite CipherSuite::TLS_DHE_RSA_WITH_AES_256_CBC_SHA{
    "TLS_DHE_RSA_WITH_AES_256_CBC_SHA"};
inline constexpr CipherSuite CipherSuite::TLS_DHE_RSA_WITH_AES_128_CBC_SHA256{
    "TLS_DHE_RSA_WITH_AES_128_CBC_SHA256"};
inline constexpr CipherSuite CipherSuite::TLS_DHE_RSA_WITH_AES_256_CBC_SHA256{
    "TLS_DHE_RSA_WITH_AES_256_CBC_SHA256"};
inline constexpr CipherSuite CipherSuite::TLS_RSA_WITH_AES_128_GCM_SHA256{
    "TLS_RSA_WITH_AES_128_GCM_SHA256"};
inline constexpr CipherSuite CipherSuite::TLS_RSA_WITH_AES_256_GCM_SHA384{
    "TLS_RSA_WITH_AES_256_GCM_SHA384"};
inline constexpr CipherSuite CipherSuite::TLS_RSA_WITH_AES_128_CBC_SHA{
    "TLS_RSA_WITH_AES_128_CBC_SHA"};
inline constexpr CipherSuite CipherSuite::TLS_RSA_WITH_AES_256_CBC_SHA{
    "TLS_RSA_WITH_AES_256_CBC_SHA"};
inline constexpr CipherSuite CipherSuite::TLS_RSA_WITH_AES_128_CBC_SHA256{
    "TLS_RSA_WITH_AES_128_CBC_SHA256"};
inline constexpr CipherSuite CipherSuite::TLS_RSA_WITH_AES_256_CBC_SHA256{
    "TLS_RSA_WITH_AES_256_CBC_SHA256"};
inline constexpr CipherSuite CipherSuite::TLS_RSA_WITH_3DES_EDE_CBC_SHA{
    "SSL_RSA_WITH_3DES_EDE_CBC_SHA"};
inline constexpr CipherSuite CipherSuite::TLS_EMPTY_RENEGOTIATION_INFO_SCSV{
    "TLS_EMPTY_RENEGOTIATION_INFO_SCSV"};
inline constexpr CipherSuite CipherSuite::TLS_FALLBACK_SCSV{"TLS_FALLBACK_SCSV"};

}  // namespace tern
