// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#pragma once

#include <openssl/x509.h>

#include <memory>
#include <optional>
#include <string_view>
#include <vector>

#include "tern/certificate.h"
#include "tern/tls/handshake_certificates.h"

namespace tern::internal {

// Finds the trusted certificate that signed a certificate (OkHttp's TrustRootIndex). Thread-safe.
class TrustRootIndex {
 public:
  virtual ~TrustRootIndex() = default;

  // A trusted certificate whose subject is `certificate`'s issuer and whose key verifies its
  // signature, or std::nullopt.
  virtual std::optional<Certificate> findByIssuerAndSignature(
      const Certificate& certificate) const = 0;

  // An index over `trustedCertificates`.
  static std::shared_ptr<const TrustRootIndex> of(std::vector<Certificate> trustedCertificates);

  // An index over an OpenSSL trust store (up-ref'd), including lookups in hashed certificate
  // directories such as /etc/ssl/certs: the store an SSL_CTX verifies with.
  static std::shared_ptr<const TrustRootIndex> of(X509_STORE* store);
};

// Builds the chain a pin is checked against (OkHttp's BasicCertificateChainCleaner): from the
// chain a peer presented (which may be out of order, hold extra certificates, or stop short of the
// root), the path from the leaf through the certificates that signed each other to a trusted
// certificate, ending with a trusted root. Follows at most 9 signers. Thread-safe.
class CertificateChainCleaner {
 public:
  explicit CertificateChainCleaner(std::shared_ptr<const TrustRootIndex> trustRootIndex);

  // The cleaner for a client configured with `certificates` (its trusted certificates, and the
  // system store when it uses platform roots).
  static CertificateChainCleaner get(const tls::HandshakeCertificates& certificates);

  // The cleaned chain, leaf first, ending with a trusted certificate (the self-signed root when
  // it is known). Throws SSLPeerUnverifiedException "Failed to find a trusted cert that signed
  // CN=..." if no trusted certificate is reached, or "Certificate chain too long: ..." past 9
  // signers; std::invalid_argument for an empty chain. `hostname` is for messages only.
  std::vector<Certificate> clean(const std::vector<Certificate>& chain,
                                 std::string_view hostname) const;

 private:
  std::shared_ptr<const TrustRootIndex> trustRootIndex_;
};

}  // namespace tern::internal
