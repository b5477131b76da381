// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#include "tern/handshake.h"

#include <utility>

namespace tern {
namespace {

std::string subjects(const std::vector<Certificate>& certificates) {
  std::string result = "[";
  for (size_t i = 0; i < certificates.size(); ++i) {
    if (i > 0) result += ", ";
    result += certificates[i].subject();
  }
  return result + "]";
}

}  // namespace

Handshake::Handshake(TlsVersion tlsVersion, CipherSuite cipherSuite,
                     std::vector<Certificate> peerCertificates,
                     std::vector<Certificate> localCertificates)
    : tlsVersion_(tlsVersion),
      cipherSuite_(cipherSuite),
      peerCertificates_(std::move(peerCertificates)),
      localCertificates_(std::move(localCertificates)) {}

Handshake Handshake::get(TlsVersion tlsVersion, CipherSuite cipherSuite,
                         std::vector<Certificate> peerCertificates,
                         std::vector<Certificate> localCertificates) {
  return Handshake(tlsVersion, cipherSuite, std::move(peerCertificates),
                   std::move(localCertificates));
}

std::optional<std::string> Handshake::peerPrincipal() const {
  if (peerCertificates_.empty()) return std::nullopt;
  return peerCertificates_.front().subject();
}

std::optional<std::string> Handshake::localPrincipal() const {
  if (localCertificates_.empty()) return std::nullopt;
  return localCertificates_.front().subject();
}

bool Handshake::operator==(const Handshake& other) const {
  return tlsVersion_ == other.tlsVersion_ && cipherSuite_ == other.cipherSuite_ &&
         peerCertificates_ == other.peerCertificates_ &&
         localCertificates_ == other.localCertificates_;
}

std::string Handshake::toString() const {
  return "Handshake{tlsVersion=" + std::string(tern::toString(tlsVersion_)) +
         " cipherSuite=" + cipherSuite_.toString() +
         " peerCertificates=" + subjects(peerCertificates_) +
         " localCertificates=" + subjects(localCertificates_) + "}";
}

}  // namespace tern
