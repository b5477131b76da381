// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#include "tern/certificate_pinner.h"

#include <algorithm>
#include <optional>
#include <stdexcept>

#include "io/base64.h"
#include "tern/exceptions.h"
#include "url/host_parser.h"

namespace tern {
namespace {

constexpr std::string_view kSha256Prefix = "sha256/";
constexpr size_t kSha256Length = 32;

bool startsWith(std::string_view s, std::string_view prefix) {
  return s.substr(0, prefix.size()) == prefix;
}

// The canonical form of a host as HttpUrl::host() has it, or std::nullopt if it is not a host.
std::optional<std::string> canonicalHost(std::string_view host) {
  if (host.empty()) return std::nullopt;
  std::optional<std::string> parsed = internal::parseHost(host);
  if (parsed && parsed->size() >= 2 && parsed->front() == '[') {
    return parsed->substr(1, parsed->size() - 2);  // HttpUrl writes IPv6 hosts without brackets.
  }
  return parsed;
}

}  // namespace

CertificatePinner::Pin::Pin(std::string_view pattern, std::string_view pin) {
  std::string_view prefix;
  if (startsWith(pattern, "**.")) {
    prefix = "**.";
  } else if (startsWith(pattern, "*.")) {
    prefix = "*.";
  }
  std::string_view host = pattern.substr(prefix.size());
  if (host.find('*') != std::string_view::npos) {
    throw std::invalid_argument("Unexpected pattern: " + std::string(pattern));
  }
  std::optional<std::string> canonical = canonicalHost(host);
  if (!canonical) throw std::invalid_argument("Invalid pattern: " + std::string(pattern));
  pattern_ = std::string(prefix) + *canonical;

  if (!startsWith(pin, kSha256Prefix)) {
    throw std::invalid_argument("pins must start with 'sha256/': " + std::string(pin));
  }
  std::optional<std::vector<uint8_t>> hash =
      internal::decodeBase64(pin.substr(kSha256Prefix.size()));
  if (!hash || hash->size() != kSha256Length) {
    throw std::invalid_argument("Invalid pin hash: " + std::string(pin));
  }
  hashAlgorithm_ = "sha256";
  hash_ = std::move(*hash);
}

bool CertificatePinner::Pin::matchesHostname(std::string_view hostname) const {
  std::string_view pattern = pattern_;
  if (startsWith(pattern, "**.")) {
    // "**.example.com": example.com itself or any name ending in ".example.com".
    std::string_view suffix = pattern.substr(3);
    if (hostname == suffix) return true;
    return hostname.size() > suffix.size() + 1 &&
           hostname.substr(hostname.size() - suffix.size()) == suffix &&
           hostname[hostname.size() - suffix.size() - 1] == '.';
  }
  if (startsWith(pattern, "*.")) {
    // "*.example.com": exactly one non-empty label before ".example.com".
    std::string_view suffix = pattern.substr(1);  // ".example.com"
    if (hostname.size() <= suffix.size() ||
        hostname.substr(hostname.size() - suffix.size()) != suffix) {
      return false;
    }
    return hostname.substr(0, hostname.size() - suffix.size()).find('.') == std::string_view::npos;
  }
  return hostname == pattern;
}

bool CertificatePinner::Pin::matchesCertificate(const Certificate& certificate) const {
  return certificate.publicKeySha256() == hash_;
}

std::string CertificatePinner::Pin::toString() const {
  return hashAlgorithm_ + "/" + internal::encodeBase64(hash_);
}

const CertificatePinner& CertificatePinner::defaultPinner() {
  static const CertificatePinner kDefault;
  return kDefault;
}

void CertificatePinner::check(std::string_view hostname,
                              const std::vector<Certificate>& cleanedPeerCertificates) const {
  std::vector<Pin> pins = findMatchingPins(hostname);
  if (pins.empty()) return;

  for (const Certificate& certificate : cleanedPeerCertificates) {
    std::vector<uint8_t> sha256 = certificate.publicKeySha256();  // Once per certificate.
    for (const Pin& pin : pins) {
      if (pin.hash() == sha256) return;
    }
  }

  std::string message = "Certificate pinning failure!\n  Peer certificate chain:";
  for (const Certificate& certificate : cleanedPeerCertificates) {
    message += "\n    " + pin(certificate) + ": " + certificate.subject();
  }
  message += "\n  Pinned certificates for " + std::string(hostname) + ":";
  for (const Pin& pin : pins) message += "\n    " + pin.toString();
  throw SSLPeerUnverifiedException(message);
}

std::vector<CertificatePinner::Pin> CertificatePinner::findMatchingPins(
    std::string_view hostname) const {
  std::vector<Pin> result;
  for (const Pin& pin : pins_) {
    if (pin.matchesHostname(hostname)) result.push_back(pin);
  }
  return result;
}

std::string CertificatePinner::pin(const Certificate& certificate) { return certificate.pin(); }

CertificatePinner::Builder& CertificatePinner::Builder::add(
    std::string_view pattern, std::initializer_list<std::string_view> pins) {
  for (std::string_view pin : pins) {
    Pin parsed(pattern, pin);
    if (std::find(pins_.begin(), pins_.end(), parsed) == pins_.end()) {
      pins_.push_back(std::move(parsed));
    }
  }
  return *this;
}

CertificatePinner::Builder& CertificatePinner::Builder::add(std::string_view pattern,
                                                            const std::vector<std::string>& pins) {
  for (const std::string& pin : pins) add(pattern, {pin});
  return *this;
}

CertificatePinner CertificatePinner::Builder::build() const { return CertificatePinner(pins_); }

}  // namespace tern
