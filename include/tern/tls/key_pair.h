// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "tern/export.h"

namespace tern::internal {
struct OpenSslAccess;
}  // namespace tern::internal

namespace tern::tls {

// A private key and its public key (Java's KeyPair): what HeldCertificate signs with and what a
// TLS peer proves it holds. EC P-256 and RSA keys are made here; any key OpenSSL can read may be
// decoded. An immutable value, cheap to copy (copies share one key) and safe to use from any
// thread. Printing a KeyPair is deliberately impossible; privateKeyPkcs8Pem() is the one way out.
class TERN_API KeyPair {
 public:
  // A new key on the NIST P-256 curve (prime256v1, secp256r1): about 128 bits of security and
  // faster than RSA. HeldCertificate's default.
  static KeyPair generateEcdsa256();

  // A new 2048-bit RSA key (exponent 65537), for peers that do not speak ECDSA. Takes tens to
  // hundreds of milliseconds.
  static KeyPair generateRsa2048();

  // Parses the one private key PEM block in `pem`: "PRIVATE KEY" (PKCS #8, RFC 5208 / RFC 7468
  // §10), "RSA PRIVATE KEY" (PKCS #1) or "EC PRIVATE KEY" (RFC 5915). Other text and blocks (a
  // certificate) are ignored. Throws std::invalid_argument naming what was wrong: no key block,
  // more than one, an encrypted key ("ENCRYPTED PRIVATE KEY" is not supported), bad base64, or
  // bytes that are not a key of the block's type.
  static KeyPair decodePem(std::string_view pem);

  // The private key as PKCS #8 DER (RFC 5208 PrivateKeyInfo).
  std::vector<uint8_t> privateKeyPkcs8Der() const;

  // The private key in PKCS #8 PEM ("-----BEGIN PRIVATE KEY-----"), base64 in lines of 64.
  std::string privateKeyPkcs8Pem() const;

  // The private key in PKCS #1 PEM ("-----BEGIN RSA PRIVATE KEY-----"). Throws std::logic_error
  // for a key that is not RSA ("PKCS1 only supports RSA keys", as OkHttp).
  std::string privateKeyPkcs1Pem() const;

  // The public key as DER SubjectPublicKeyInfo (RFC 5280 §4.1.2.7).
  std::vector<uint8_t> publicKeyDer() const;

  // "EC", "RSA", "ED25519", "ED448", or OpenSSL's short name of another algorithm.
  std::string algorithm() const;

  // True if both hold the same key (compares the public halves, as OpenSSL does).
  bool operator==(const KeyPair& other) const noexcept;

 private:
  friend struct internal::OpenSslAccess;
  struct Impl;
  explicit KeyPair(std::shared_ptr<const Impl> impl) : impl_(std::move(impl)) {}

  std::shared_ptr<const Impl> impl_;  // Never null.
};

}  // namespace tern::tls
