// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#include "tern/ok_hostname_verifier.h"

#include <algorithm>
#include <array>
#include <optional>

#include "tern/inet_address.h"
#include "url/idna.h"
#include "url/utf8.h"

namespace tern {
namespace {

bool isAscii(std::string_view s) {
  return std::all_of(s.begin(), s.end(),
                     [](char c) { return static_cast<unsigned char>(c) < 0x80; });
}

std::string asciiLowercase(std::string_view s) {
  std::string result(s);
  for (char& c : result) {
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  }
  return result;
}

// The address bytes, with an IPv4-mapped IPv6 address (::ffff:a.b.c.d, RFC 4291 §2.5.5.2)
// reduced to its IPv4 bytes, so both spellings of one address compare equal.
std::vector<uint8_t> canonicalAddressBytes(const InetAddress& address) {
  std::span<const uint8_t> bytes = address.address();
  static constexpr std::array<uint8_t, 12> kMappedPrefix = {0, 0, 0, 0, 0,    0,
                                                            0, 0, 0, 0, 0xff, 0xff};
  if (bytes.size() == 16 && std::equal(kMappedPrefix.begin(), kMappedPrefix.end(), bytes.begin())) {
    return {bytes.begin() + 12, bytes.end()};
  }
  return {bytes.begin(), bytes.end()};
}

bool verifyIpAddress(const InetAddress& host, const Certificate& certificate) {
  std::vector<uint8_t> hostBytes = canonicalAddressBytes(host);
  for (const std::string& ip : certificate.ipAddresses()) {
    std::optional<InetAddress> address = InetAddress::parse(ip);
    if (address && canonicalAddressBytes(*address) == hostBytes) return true;
  }
  return false;
}

// RFC 6125 §6.4.3 as OkHttp applies it. `hostname` is lowercase ASCII.
bool matchesPattern(std::string hostname, std::string_view rawPattern) {
  // Basic sanity checks: empty names, a leading dot, or an empty last label are not names.
  auto invalid = [](std::string_view name) {
    return name.empty() || name.front() == '.' ||
           (name.size() >= 2 && name.substr(name.size() - 2) == "..");
  };
  if (invalid(hostname) || invalid(rawPattern)) return false;
  // A pattern with bytes outside ASCII is not a valid dNSName (an IA5String); never match it,
  // and never lowercase it (U+212A KELVIN SIGN lowercases to an ASCII "k" in some libraries).
  if (!isAscii(rawPattern)) return false;

  // Compare absolute names: "example.com" and "example.com." are the same name.
  if (hostname.back() != '.') hostname += '.';
  std::string pattern = asciiLowercase(rawPattern);
  if (pattern.back() != '.') pattern += '.';

  if (pattern.find('*') == std::string::npos) return hostname == pattern;

  // The asterisk must be the whole leftmost label, appear once, and not stand for a single-label
  // name ("*.").
  if (pattern.compare(0, 2, "*.") != 0 || pattern.find('*', 1) != std::string::npos) return false;
  if (pattern == "*.") return false;
  if (hostname.size() < pattern.size()) return false;  // "*" matches at least one character.

  std::string_view suffix = std::string_view(pattern).substr(1);  // ".example.com."
  if (hostname.compare(hostname.size() - suffix.size(), suffix.size(), suffix) != 0) return false;
  // The asterisk may not match across labels: no dot before the suffix.
  size_t prefixLength = hostname.size() - suffix.size();
  return hostname.find('.') >= prefixLength;
}

}  // namespace

const std::shared_ptr<OkHostnameVerifier>& OkHostnameVerifier::instance() {
  static const std::shared_ptr<OkHostnameVerifier> kInstance =
      std::make_shared<OkHostnameVerifier>();
  return kInstance;
}

bool OkHostnameVerifier::verify(std::string_view host,
                                const std::vector<Certificate>& peerCertificates) const {
  return !peerCertificates.empty() && verify(host, peerCertificates.front());
}

bool OkHostnameVerifier::verify(std::string_view host, const Certificate& certificate) const {
  if (host.empty() || host.find('\0') != std::string_view::npos) return false;
  std::string hostname;
  if (isAscii(host)) {
    hostname = asciiLowercase(host);
  } else {
    // The name HttpUrl would connect to (IDNA may even turn it into an IPv4 address).
    if (!internal::isValidUtf8(host)) return false;
    std::optional<std::string> ascii = internal::domainToAscii(host);
    if (!ascii) return false;
    hostname = std::move(*ascii);
  }
  if (std::optional<InetAddress> address = InetAddress::parse(hostname)) {
    return verifyIpAddress(*address, certificate);
  }
  for (const std::string& pattern : certificate.dnsNames()) {
    if (matchesPattern(hostname, pattern)) return true;
  }
  return false;
}

std::vector<std::string> OkHostnameVerifier::allSubjectAltNames(const Certificate& certificate) {
  std::vector<std::string> result = certificate.ipAddresses();
  std::vector<std::string> dnsNames = certificate.dnsNames();
  result.insert(result.end(), dnsNames.begin(), dnsNames.end());
  return result;
}

}  // namespace tern
