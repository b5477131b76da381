// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#include "tern/tls/handshake_certificates.h"

#include <algorithm>
#include <stdexcept>
#include <string>

#include "io/ascii.h"

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

HandshakeCertificates::Builder& HandshakeCertificates::Builder::addInsecureHost(
    std::string_view host) {
  if (host.empty()) throw std::invalid_argument("addInsecureHost: host is empty");
  std::string lower = internal::toLowerAscii(host);
  if (std::find(result_.insecureHosts_.begin(), result_.insecureHosts_.end(), lower) ==
      result_.insecureHosts_.end()) {
    result_.insecureHosts_.push_back(std::move(lower));
  }
  return *this;
}

HandshakeCertificates HandshakeCertificates::Builder::build() const { return result_; }

}  // namespace tern::tls
