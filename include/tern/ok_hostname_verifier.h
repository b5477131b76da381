// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "tern/certificate.h"
#include "tern/export.h"
#include "tern/hostname_verifier.h"

namespace tern {

// The default HostnameVerifier, OkHttp's OkHostnameVerifier: it matches the host against the
// leaf certificate's subject alternative names (RFC 2818 §3.1, RFC 6125 §6.4), and never against
// the subject's common name.
//
// - A host name matches a dNSName entry case-insensitively; a trailing dot on either is ignored.
// - A wildcard is allowed only as the whole leftmost label: "*.example.com" matches
//   "www.example.com" but not "example.com" or "a.b.example.com"; "f*.example.com",
//   "*a.example.com", "a.*.example.com" and "*." match nothing.
// - An IP address (IPv4 or IPv6, with or without brackets) matches only iPAddress entries, by
//   value ("::1" equals "0:0:0:0:0:0:0:1"; an IPv4-mapped IPv6 address equals its IPv4
//   address). Wildcards never match IP addresses.
// - A host with non-ASCII characters is first converted to its ASCII (Punycode) form as HttpUrl
//   does, so "bücher.example" matches a certificate for "xn--bcher-kva.example". A host that
//   IDNA rejects matches nothing.
// Stateless and thread-safe.
class TERN_API OkHostnameVerifier final : public HostnameVerifier {
 public:
  // The shared instance (OkHttp's `object OkHostnameVerifier`).
  static const std::shared_ptr<OkHostnameVerifier>& instance();

  // Verifies the leaf, peerCertificates.front(); false for an empty chain.
  bool verify(std::string_view host,
              const std::vector<Certificate>& peerCertificates) const override;

  // True if `certificate` is valid for `host` by the rules above.
  bool verify(std::string_view host, const Certificate& certificate) const;

  // The certificate's subject alternative names as a hostname mismatch message lists them: the
  // IP addresses, then the DNS names (OkHttp's allSubjectAltNames).
  static std::vector<std::string> allSubjectAltNames(const Certificate& certificate);
};

}  // namespace tern
