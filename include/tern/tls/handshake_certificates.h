// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "tern/certificate.h"
#include "tern/export.h"
#include "tern/tls/held_certificate.h"

namespace tern::tls {

// The certificates one side of a TLS handshake uses (okhttp-tls's HandshakeCertificates): the
// roots it trusts to authenticate its peer, and optionally its own held certificate with the
// intermediates that chain it to a root the peer trusts. A server needs a held certificate; a
// client needs one only for mutual TLS.
//
//   HandshakeCertificates serverCertificates = HandshakeCertificates::Builder()
//                                                  .heldCertificate(localhost,
//                                                  {root.certificate()}) .build();
//   HandshakeCertificates clientCertificates = HandshakeCertificates::Builder()
//                                                  .addTrustedCertificate(root.certificate())
//                                                  .build();
//
// An immutable value, cheap to copy, safe to use from any thread.
class TERN_API HandshakeCertificates {
 public:
  class Builder;

  // The roots added with addTrustedCertificate(), in order (platform roots are not listed).
  const std::vector<Certificate>& trustedCertificates() const noexcept {
    return trustedCertificates_;
  }

  // True if the system's trust store (OpenSSL's default paths, /etc/ssl/certs) is trusted too.
  bool platformTrustedCertificates() const noexcept { return platformTrustedCertificates_; }

  // This side's certificate and key, if any.
  const std::optional<HeldCertificate>& heldCertificate() const noexcept {
    return heldCertificate_;
  }

  // The certificates sent after heldCertificate() to chain it to the peer's root, leaf-most
  // first.
  const std::vector<Certificate>& intermediates() const noexcept { return intermediates_; }

  // The hosts whose servers are not authenticated (addInsecureHost()), lower-case; "*" for all.
  const std::vector<std::string>& insecureHosts() const noexcept { return insecureHosts_; }

 private:
  HandshakeCertificates() = default;

  std::vector<Certificate> trustedCertificates_;
  bool platformTrustedCertificates_ = false;
  std::optional<HeldCertificate> heldCertificate_;
  std::vector<Certificate> intermediates_;
  std::vector<std::string> insecureHosts_;
};

// Collects trusted roots and a held certificate. With nothing added, the result trusts nothing and
// presents nothing. Not thread-safe.
class TERN_API HandshakeCertificates::Builder {
 public:
  Builder() = default;

  // Presents `heldCertificate` in handshakes, followed by `intermediates` (leaf-most first; the
  // root may be omitted, as peers have it). Replaces an earlier call.
  Builder& heldCertificate(HeldCertificate heldCertificate,
                           std::vector<Certificate> intermediates = {});

  // Trusts `root` (usually a self-signed CA) to authenticate peers. Adding the same certificate
  // twice keeps one.
  Builder& addTrustedCertificate(Certificate root);

  // Trusts the system's roots too (OpenSSL's default verify paths: /etc/ssl/certs on Debian, or
  // SSL_CERT_FILE / SSL_CERT_DIR). Without this call only added certificates are trusted.
  Builder& addPlatformTrustedCertificates();

  // Does not authenticate the server of `host` (an HttpUrl host: a name, an IPv4 literal, or an
  // IPv6 literal without brackets), as okhttp-tls's addInsecureHost: any well-formed certificate
  // chain is accepted from it, even self-signed. The certificate must still match the host
  // name unless the client's HostnameVerifier says otherwise. This exposes calls to that host to
  // a man in the middle: use it only in development, for test data. "*" (tern's extension,
  // curl's --insecure) means every host. Compared ignoring case. Throws std::invalid_argument
  // if `host` is empty.
  Builder& addInsecureHost(std::string_view host);

  HandshakeCertificates build() const;

 private:
  HandshakeCertificates result_;
};

}  // namespace tern::tls
