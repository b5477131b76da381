// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#include "net/connection_spec_ssl.h"

#include <openssl/err.h>

#include <algorithm>
#include <cstdint>
#include <stdexcept>
#include <utility>

namespace tern::internal {
namespace {

struct VersionInfo {
  TlsVersion version;
  int openSsl;
  uint64_t disableOption;
};

constexpr VersionInfo kVersions[] = {
    {TlsVersion::TLS_1_3, TLS1_3_VERSION, SSL_OP_NO_TLSv1_3},
    {TlsVersion::TLS_1_2, TLS1_2_VERSION, SSL_OP_NO_TLSv1_2},
    {TlsVersion::TLS_1_1, TLS1_1_VERSION, SSL_OP_NO_TLSv1_1},
    {TlsVersion::TLS_1_0, TLS1_VERSION, SSL_OP_NO_TLSv1},
};

// TLS 1.3 suites name no key exchange ("TLS_AES_128_GCM_SHA256"); earlier ones do ("_WITH_").
bool isTls13Suite(std::string_view name) { return name.find("_WITH_") == std::string_view::npos; }

bool contains(const std::vector<CipherSuite>& suites, const CipherSuite& suite) {
  return std::find(suites.begin(), suites.end(), suite) != suites.end();
}

}  // namespace

std::vector<TlsVersion> enabledTlsVersions(const SSL* ssl) {
  SSL* mutableSsl = const_cast<SSL*>(ssl);  // OpenSSL's getters take non-const pointers.
  int low = SSL_get_min_proto_version(mutableSsl);
  int high = SSL_get_max_proto_version(mutableSsl);
  if (low == 0) low = TLS1_VERSION;
  if (high == 0) high = TLS1_3_VERSION;
  const uint64_t options = SSL_get_options(ssl);
  std::vector<TlsVersion> result;
  for (const VersionInfo& info : kVersions) {
    if (info.openSsl >= low && info.openSsl <= high && (options & info.disableOption) == 0) {
      result.push_back(info.version);
    }
  }
  return result;
}

std::vector<CipherSuite> enabledCipherSuites(const SSL* ssl) {
  std::vector<CipherSuite> result;
  STACK_OF(SSL_CIPHER)* ciphers = SSL_get_ciphers(ssl);
  for (int i = 0; ciphers != nullptr && i < sk_SSL_CIPHER_num(ciphers); ++i) {
    if (const char* name = SSL_CIPHER_standard_name(sk_SSL_CIPHER_value(ciphers, i))) {
      result.push_back(CipherSuite::forJavaName(name));
    }
  }
  return result;
}

std::string openSslCipherName(const CipherSuite& suite) {
  std::string name(suite.javaName());
  if (name.starts_with("SSL_")) name = "TLS_" + name.substr(4);  // Java's spelling of old suites.
  if (isTls13Suite(name)) return name;  // OpenSSL configures TLS 1.3 suites by IANA name.
  const char* openSsl = OPENSSL_cipher_name(name.c_str());
  if (openSsl == nullptr || std::string_view(openSsl) == "(NONE)") return "";
  return openSsl;
}

bool isCompatible(const ConnectionSpec& spec, const SSL* ssl) {
  return spec.isCompatible(enabledTlsVersions(ssl), enabledCipherSuites(ssl));
}

void applyConnectionSpec(const ConnectionSpec& spec, SSL* ssl, bool isFallback) {
  if (!isCompatible(spec, ssl)) {
    throw std::logic_error("applyConnectionSpec: not compatible: " + spec.toString());
  }
  std::vector<TlsVersion> versions = enabledTlsVersions(ssl);
  if (std::optional<std::vector<TlsVersion>> wanted = spec.tlsVersions()) {
    std::erase_if(versions, [&](TlsVersion v) {
      return std::find(wanted->begin(), wanted->end(), v) == wanted->end();
    });
  }

  if (std::optional<std::vector<CipherSuite>> wanted = spec.cipherSuites()) {
    const std::vector<CipherSuite> enabled = enabledCipherSuites(ssl);
    std::string tls13;
    std::string tls12;
    for (const CipherSuite& suite : *wanted) {
      if (!contains(enabled, suite)) continue;
      std::string name = openSslCipherName(suite);
      if (name.empty()) continue;
      std::string& list = isTls13Suite(suite.javaName()) ? tls13 : tls12;
      list += (list.empty() ? "" : ":") + name;
    }
    // A version left without suites cannot be negotiated: stop offering it.
    if (tls13.empty()) std::erase(versions, TlsVersion::TLS_1_3);
    if (tls12.empty()) {
      std::erase_if(versions, [](TlsVersion v) { return v != TlsVersion::TLS_1_3; });
    } else {
      SSL_set_cipher_list(ssl, tls12.c_str());
    }
    SSL_set_ciphersuites(ssl, tls13.c_str());
    ERR_clear_error();  // Unknown names were skipped above; nothing here is worth reporting.
  }

  // The versions as a range, with the gaps (if any) switched off. With none left the handshake
  // fails at once with "no protocols available", which names the problem.
  if (versions.empty()) {
    for (const VersionInfo& info : kVersions) SSL_set_options(ssl, info.disableOption);
  } else {
    int low = TLS1_3_VERSION;
    int high = TLS1_VERSION;
    for (const VersionInfo& info : kVersions) {
      if (std::find(versions.begin(), versions.end(), info.version) == versions.end()) continue;
      low = std::min(low, info.openSsl);
      high = std::max(high, info.openSsl);
    }
    SSL_set_min_proto_version(ssl, low);
    SSL_set_max_proto_version(ssl, high);
    for (const VersionInfo& info : kVersions) {
      if (info.openSsl > low && info.openSsl < high &&
          std::find(versions.begin(), versions.end(), info.version) == versions.end()) {
        SSL_set_options(ssl, info.disableOption);
      }
    }
  }
  if (isFallback) SSL_set_mode(ssl, SSL_MODE_SEND_FALLBACK_SCSV);
}

}  // namespace tern::internal
