// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#include "tern/tls/handshake_certificates.h"

#include <algorithm>

namespace tern::tls {

HandshakeCertificates::Builder& HandshakeCertificates::Builder::heldCertificate(
    HeldCertificate heldCertificate, std::vector<Certificate> intermediates) {
  result_.heldCertificate_ = std::move(heldCertificate);
  result_.intermediates_ = std::move(intermediates);
  return *this;
}

HandshakeCertificates::Builder& HandshakeCertificates::Builder::addTrustedCertificate(
    Certificate root) {
  std::vector<Certificate>& trusted = result_.trustedCertificates_;
  if (std::find(trusted.begin(), trusted.end(), root) == trusted.end()) {
    trusted.push_back(std::move(root));
  }
  return *this;
}

HandshakeCertificates::Builder& HandshakeCertificates::Builder::addPlatformTrustedCertificates() {
  result_.platformTrustedCertificates_ = true;
  return *this;
}

HandshakeCertificates HandshakeCertificates::Builder::build() const { return result_; }

}  // namespace tern::tls
