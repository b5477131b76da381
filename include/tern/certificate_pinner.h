// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "tern/certificate.h"
#include "tern/export.h"

namespace tern {

// Constrains which certificates a client trusts for a host (OkHttp's CertificatePinner): after the
// handshake verified the chain, at least one certificate of the cleaned chain (leaf to trusted
// root) must have a pinned public key. This defends against a rogue or compromised certificate
// authority, at the cost of having to update the app when the server changes keys.
//
//   CertificatePinner pinner = CertificatePinner::Builder()
//       .add("publicobject.com", {"sha256/afwiKY3RxoMmLkuRW1l7QsPZTJPwDS2pdDROQjXw8ig="})
//       .build();
//
// A pin is "sha256/" + base64 of the SHA-256 of a certificate's SubjectPublicKeyInfo (RFC 7469
// §2.4; Certificate::pin()). Patterns:
// - "example.com" pins exactly that host;
// - "*.example.com" pins hosts with exactly one more label ("www.example.com", not
//   "example.com" or "a.b.example.com");
// - "**.example.com" pins example.com and every name below it, at any depth.
// If several patterns match a host, a certificate matching any of their pins is enough.
//
// Pinning is dangerous: pin more than one key (a backup), and never pin without the server
// team's blessing. An immutable value, cheap to copy, thread-safe.
class TERN_API CertificatePinner {
 public:
  class Builder;

  // A host pattern and the hash of a pinned public key.
  class Pin {
   public:
    // Throws std::invalid_argument naming the bad value: "Unexpected pattern: a*.com" (an
    // asterisk elsewhere than a leading "*." or "**."), "Invalid pattern: ..." (not a host name),
    // "pins must start with 'sha256/': sha1/..." or "Invalid pin hash: sha256/..." (not base64 of
    // 32 bytes).
    Pin(std::string_view pattern, std::string_view pin);

    // The pattern in canonical form: lowercase, Punycode for international names, IPv6 without
    // brackets ("*.example.com", "**.xn--bcher-kva.example", "::1").
    const std::string& pattern() const noexcept { return pattern_; }

    // "sha256", the only algorithm tern pins with.
    const std::string& hashAlgorithm() const noexcept { return hashAlgorithm_; }

    // The 32-byte SHA-256 of the pinned SubjectPublicKeyInfo.
    const std::vector<uint8_t>& hash() const noexcept { return hash_; }

    // True if `hostname` (canonical, as HttpUrl::host()) matches this pin's pattern.
    bool matchesHostname(std::string_view hostname) const;

    // True if `certificate`'s public key is the pinned one.
    bool matchesCertificate(const Certificate& certificate) const;

    // "sha256/BASE64".
    std::string toString() const;

    bool operator==(const Pin& other) const = default;

   private:
    std::string pattern_;
    std::string hashAlgorithm_;
    std::vector<uint8_t> hash_;
  };

  // A pinner without pins (OkHttp's CertificatePinner.DEFAULT): check() accepts everything.
  CertificatePinner() = default;

  // OkHttp's CertificatePinner.DEFAULT, the client's default: no pins.
  static const CertificatePinner& defaultPinner();

  // Every pin, in the order added, without duplicates.
  const std::vector<Pin>& pins() const noexcept { return pins_; }

  // Confirms that at least one certificate pinned for `hostname` is in `cleanedPeerCertificates`
  // (the chain from the leaf to the trusted root, as the chain cleaner builds it). Does nothing
  // if no pin matches `hostname`. Throws SSLPeerUnverifiedException otherwise, with OkHttp's
  // message:
  //   Certificate pinning failure!
  //     Peer certificate chain:
  //       sha256/afwiKY3RxoMmLkuRW1l7QsPZTJPwDS2pdDROQjXw8ig=: CN=publicobject.com
  //       ...
  //     Pinned certificates for publicobject.com:
  //       sha256/...
  void check(std::string_view hostname,
             const std::vector<Certificate>& cleanedPeerCertificates) const;

  // The pins whose pattern matches `hostname`; empty if the host is not pinned.
  std::vector<Pin> findMatchingPins(std::string_view hostname) const;

  // "sha256/" + base64 of the SHA-256 of `certificate`'s public key (Certificate::pin()).
  static std::string pin(const Certificate& certificate);

  bool operator==(const CertificatePinner& other) const = default;

 private:
  explicit CertificatePinner(std::vector<Pin> pins) : pins_(std::move(pins)) {}

  std::vector<Pin> pins_;
};

// Collects pins. Not thread-safe.
class TERN_API CertificatePinner::Builder {
 public:
  // Pins `pins` for `pattern`. Throws std::invalid_argument (see Pin) for a bad pattern or pin.
  Builder& add(std::string_view pattern, std::initializer_list<std::string_view> pins);
  Builder& add(std::string_view pattern, const std::vector<std::string>& pins);

  CertificatePinner build() const;

 private:
  std::vector<Pin> pins_;
};

}  // namespace tern
