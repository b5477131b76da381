// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#pragma once

#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "tern/certificate.h"
#include "tern/export.h"
#include "tern/tls/key_pair.h"

namespace tern::tls {

// A certificate and its private key (okhttp-tls's HeldCertificate): a server's identity, a
// client's identity for mutual TLS, or a certificate authority that signs others. Tests make
// their certificates with the Builder instead of shipping certificate files:
//
//   HeldCertificate root = HeldCertificate::Builder().certificateAuthority(0).build();
//   HeldCertificate localhost = HeldCertificate::Builder()
//                                   .addSubjectAlternativeName("localhost")
//                                   .signedBy(root)
//                                   .build();
//
// An immutable value, cheap to copy, safe to use from any thread.
class TERN_API HeldCertificate {
 public:
  class Builder;

  // A held certificate from its parts. Throws std::invalid_argument if `keyPair` is not the key of
  // `certificate`.
  HeldCertificate(KeyPair keyPair, Certificate certificate);

  // Decodes a string with exactly one "CERTIFICATE" and one "PRIVATE KEY" (PKCS #8) PEM block, as
  // certificatePem() + privateKeyPkcs8Pem() writes them; other text between blocks is ignored.
  // Throws std::invalid_argument with OkHttp's messages: "string includes multiple
  // certificates", "string includes multiple private keys", "unexpected type: LABEL", "string
  // does not include a certificate", "string does not include a private key", or a message
  // naming the bad block or a key that does not match the certificate.
  static HeldCertificate decode(std::string_view certificateAndPrivateKeyPem);

  const Certificate& certificate() const noexcept { return certificate_; }
  const KeyPair& keyPair() const noexcept { return keyPair_; }

  // The certificate in PEM (Certificate::pem()).
  std::string certificatePem() const { return certificate_.pem(); }

  // The private key in PKCS #8 PEM (KeyPair::privateKeyPkcs8Pem()).
  std::string privateKeyPkcs8Pem() const { return keyPair_.privateKeyPkcs8Pem(); }

  // The RSA private key in PKCS #1 PEM; std::logic_error for a key that is not RSA.
  std::string privateKeyPkcs1Pem() const { return keyPair_.privateKeyPkcs1Pem(); }

  bool operator==(const HeldCertificate& other) const noexcept {
    return certificate_ == other.certificate_ && keyPair_ == other.keyPair_;
  }

 private:
  KeyPair keyPair_;
  Certificate certificate_;
};

// Builds a held certificate with reasonable defaults: a new EC P-256 key, serial number 1, a
// random UUID as the common name, valid for 24 hours from build() (from a second before it, since
// OpenSSL checks validity against the coarse system clock, which may lag behind the precise one
// build() reads), self-signed, not a CA.
//
// Every certificate gets the extensions real TLS stacks (OpenSSL, nginx, curl) expect: subject
// and authority key identifiers; for a CA, critical basicConstraints cA:TRUE with the path length
// and keyUsage keyCertSign + cRLSign; for a leaf, critical basicConstraints cA:FALSE,
// extendedKeyUsage serverAuth + clientAuth, and (when signed by another) keyUsage
// digitalSignature (+ keyEncipherment for RSA). Signatures are SHA-256 (ECDSA or RSA PKCS #1
// v1.5). Not thread-safe; build() may be called more than once.
class TERN_API HeldCertificate::Builder {
 public:
  Builder() = default;

  // Valid from `notBefore` through `notAfter` (to the second). Throws std::invalid_argument if
  // notBefore is after notAfter.
  Builder& validityInterval(std::chrono::system_clock::time_point notBefore,
                            std::chrono::system_clock::time_point notAfter);

  // Valid from build() until `duration` later. Throws std::invalid_argument for a negative one.
  Builder& duration(std::chrono::seconds duration);

  // Adds a subject alternative name: an IP literal ("127.0.0.1", "::1") becomes an iPAddress entry,
  // anything else a dNSName ("localhost", "*.example.com"), as OkHttp decides. Without any, the
  // extension is omitted. Throws std::invalid_argument for an empty name or one with characters
  // that cannot be in a dNSName (non-ASCII, spaces, controls).
  Builder& addSubjectAlternativeName(std::string_view altName);

  // The subject's common name (CN). Default: a random UUID.
  Builder& commonName(std::string_view cn);

  // The subject's organizational unit (OU). Default: none.
  Builder& organizationalUnit(std::string_view ou);

  // The serial number. Default: 1. Throws std::invalid_argument for a negative one (RFC 5280
  // §4.1.2.2 wants positive serials; 0 is allowed as OpenSSL allows it).
  Builder& serialNumber(int64_t serialNumber);

  // Uses `keyPair` instead of generating a key.
  Builder& keyPair(KeyPair keyPair);

  // Signs with `issuer`'s key and names it as the issuer. Default: self-signed.
  Builder& signedBy(const HeldCertificate& issuer);

  // Makes a certificate authority that may sign certificates, with at most `maxIntermediateCas`
  // intermediate CAs below it (0: it signs only leaves). Throws std::invalid_argument
  // ("maxIntermediateCas < 0: -1") for a negative count.
  Builder& certificateAuthority(int maxIntermediateCas);

  // Generate an EC P-256 key (the default).
  Builder& ecdsa256();

  // Generate an RSA 2048-bit key.
  Builder& rsa2048();

  // Makes the key (unless one was given), the certificate, and signs it. Throws
  // std::runtime_error if OpenSSL fails (out of memory).
  HeldCertificate build() const;

 private:
  enum class KeyAlgorithm { kEcdsa256, kRsa2048 };

  std::optional<std::chrono::system_clock::time_point> notBefore_;
  std::optional<std::chrono::system_clock::time_point> notAfter_;
  std::optional<std::chrono::seconds> duration_;
  std::vector<std::string> altNames_;
  std::optional<std::string> commonName_;
  std::optional<std::string> organizationalUnit_;
  int64_t serialNumber_ = 1;
  std::optional<KeyPair> keyPair_;
  std::optional<HeldCertificate> signedBy_;
  int maxIntermediateCas_ = -1;  // -1: not a CA.
  KeyAlgorithm keyAlgorithm_ = KeyAlgorithm::kEcdsa256;
};

}  // namespace tern::tls
