// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#pragma once

#include <chrono>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "tern/export.h"

namespace tern {

namespace internal {
struct OpenSslAccess;
}  // namespace internal

// An X.509 certificate (RFC 5280), as Java's X509Certificate: what a TLS peer presents, what a
// trust store holds, what CertificatePinner pins. An immutable value, cheap to copy (copies share
// one parsed certificate) and safe to use from any thread.
//
// Make one from DER bytes or PEM text, or with tern::tls::HeldCertificate::Builder. Every accessor
// reads the parsed certificate; none of them fails on a certificate that parsed.
class TERN_API Certificate {
 public:
  // Parses one DER-encoded certificate. Throws std::invalid_argument ("failed to decode
  // certificate: ...") if `der` is not exactly one well-formed X.509 certificate (trailing bytes
  // are rejected too).
  static Certificate fromDer(std::span<const uint8_t> der);

  // Parses the one "-----BEGIN CERTIFICATE-----" block in `pem` (RFC 7468 §5). Text outside PEM
  // blocks and blocks of other types (like a private key) are ignored. Throws
  // std::invalid_argument naming what was wrong: no certificate block, more than one, an
  // unterminated block, bad base64, or DER that is not a certificate.
  static Certificate decodePem(std::string_view pem);

  // Parses every "CERTIFICATE" block in `pem`, in order (a chain, or a CA bundle like
  // /etc/ssl/certs/ca-certificates.crt). Other text and blocks are ignored. Throws
  // std::invalid_argument if there is no certificate block or any certificate block is bad.
  static std::vector<Certificate> decodePemChain(std::string_view pem);

  // The DER encoding, as parsed or built.
  const std::vector<uint8_t>& der() const noexcept;

  // The certificate as one PEM block, "-----BEGIN CERTIFICATE-----\n", base64 in lines of 64,
  // "-----END CERTIFICATE-----\n" (OkHttp's certificatePem()).
  std::string pem() const;

  // The subject's distinguished name per RFC 2253 ("CN=localhost,OU=engineering"); "" if empty.
  std::string subject() const;

  // The issuer's distinguished name per RFC 2253; equal to subject() for a self-signed one.
  std::string issuer() const;

  // The subject's (last) common name as UTF-8, or "" if the subject has none. For display only:
  // hostname verification never looks at it (RFC 6125 §6.4.4 as OkHttp applies it).
  std::string commonName() const;

  // The serial number in lowercase hex without leading zeros, as Java's BigInteger.toString(16):
  // "1", "2a". A negative serial (invalid, but it occurs) starts with "-".
  std::string serialNumber() const;

  // Start and end of the validity interval (RFC 5280 §4.1.2.5), to the second.
  std::chrono::system_clock::time_point notBefore() const;
  std::chrono::system_clock::time_point notAfter() const;

  // The dNSName entries of the subject alternative name extension, as written ("*.example.com").
  // Empty without the extension.
  std::vector<std::string> dnsNames() const;

  // The iPAddress entries of the subject alternative name extension, as text in canonical form
  // ("127.0.0.1", "::1", as InetAddress::hostAddress()). Entries that are not 4 or 16 bytes
  // long are skipped.
  std::vector<std::string> ipAddresses() const;

  // The SHA-256 of the DER SubjectPublicKeyInfo: the hash a "sha256/" pin names (RFC 7469 §2.4).
  std::vector<uint8_t> publicKeySha256() const;

  // "sha256/" + base64 of publicKeySha256(): this certificate's pin for CertificatePinner.
  std::string pin() const;

  // The public key's algorithm: "EC", "RSA", "ED25519", "ED448", or OpenSSL's short name of
  // another.
  std::string publicKeyAlgorithm() const;

  // True if basicConstraints says cA:TRUE (RFC 5280 §4.2.1.9), so it may sign certificates.
  bool isCertificateAuthority() const;

  // Java's getBasicConstraints(): -1 for a certificate that is not a CA; otherwise its
  // pathLenConstraint (the number of intermediate CAs allowed below it), or INT32_MAX if it has
  // none.
  int32_t basicConstraints() const;

  // True if this certificate's subject issued it and its own key verifies its signature.
  bool isSelfSigned() const;

  // True if `issuer`'s subject is this certificate's issuer and `issuer`'s public key verifies
  // this certificate's signature. Validity dates and extensions are not checked.
  bool isSignedBy(const Certificate& issuer) const;

  // Compares the DER encodings.
  bool operator==(const Certificate& other) const noexcept;

 private:
  friend struct internal::OpenSslAccess;
  struct Impl;
  explicit Certificate(std::shared_ptr<const Impl> impl) : impl_(std::move(impl)) {}

  std::shared_ptr<const Impl> impl_;  // Never null.
};

}  // namespace tern

template <>
struct std::hash<tern::Certificate> {
  size_t operator()(const tern::Certificate& certificate) const noexcept;
};
