// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#include "tern/cipher_suite.h"

#include <mutex>
#include <ostream>
#include <set>
#include <stdexcept>
#include <string>

namespace tern {
namespace {

// The name without its "TLS_" or "SSL_" prefix: what makes two spellings the same suite.
std::string_view withoutPrefix(std::string_view name) {
  if (name.starts_with("TLS_") || name.starts_with("SSL_")) return name.substr(4);
  return name;
}

const CipherSuite kKnown[] = {
    CipherSuite::TLS_AES_128_GCM_SHA256,
    CipherSuite::TLS_AES_256_GCM_SHA384,
    CipherSuite::TLS_CHACHA20_POLY1305_SHA256,
    CipherSuite::TLS_AES_128_CCM_SHA256,
    CipherSuite::TLS_AES_128_CCM_8_SHA256,
    CipherSuite::TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256,
    CipherSuite::TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256,
    CipherSuite::TLS_ECDHE_ECDSA_WITH_AES_256_GCM_SHA384,
    CipherSuite::TLS_ECDHE_RSA_WITH_AES_256_GCM_SHA384,
    CipherSuite::TLS_ECDHE_ECDSA_WITH_CHACHA20_POLY1305_SHA256,
    CipherSuite::TLS_ECDHE_RSA_WITH_CHACHA20_POLY1305_SHA256,
    CipherSuite::TLS_ECDHE_ECDSA_WITH_AES_128_CBC_SHA,
    CipherSuite::TLS_ECDHE_ECDSA_WITH_AES_256_CBC_SHA,
    CipherSuite::TLS_ECDHE_ECDSA_WITH_AES_128_CBC_SHA256,
    CipherSuite::TLS_ECDHE_ECDSA_WITH_AES_256_CBC_SHA384,
    CipherSuite::TLS_ECDHE_RSA_WITH_AES_128_CBC_SHA,
    CipherSuite::TLS_ECDHE_RSA_WITH_AES_256_CBC_SHA,
    CipherSuite::TLS_ECDHE_RSA_WITH_AES_128_CBC_SHA256,
    CipherSuite::TLS_ECDHE_RSA_WITH_AES_256_CBC_SHA384,
    CipherSuite::TLS_DHE_RSA_WITH_AES_128_GCM_SHA256,
    CipherSuite::TLS_DHE_RSA_WITH_AES_256_GCM_SHA384,
    CipherSuite::TLS_DHE_RSA_WITH_CHACHA20_POLY1305_SHA256,
    CipherSuite::TLS_DHE_RSA_WITH_AES_128_CBC_SHA,
    CipherSuite::TLS_DHE_RSA_WITH_AES_256_CBC_SHA,
    CipherSuite::TLS_DHE_RSA_WITH_AES_128_CBC_SHA256,
    CipherSuite::TLS_DHE_RSA_WITH_AES_256_CBC_SHA256,
    CipherSuite::TLS_RSA_WITH_AES_128_GCM_SHA256,
    CipherSuite::TLS_RSA_WITH_AES_256_GCM_SHA384,
    CipherSuite::TLS_RSA_WITH_AES_128_CBC_SHA,
    CipherSuite::TLS_RSA_WITH_AES_256_CBC_SHA,
    CipherSuite::TLS_RSA_WITH_AES_128_CBC_SHA256,
    CipherSuite::TLS_RSA_WITH_AES_256_CBC_SHA256,
    CipherSuite::TLS_RSA_WITH_3DES_EDE_CBC_SHA,
    CipherSuite::TLS_EMPTY_RENEGOTIATION_INFO_SCSV,
    CipherSuite::TLS_FALLBACK_SCSV,
};

}  // namespace

CipherSuite CipherSuite::forJavaName(std::string_view javaName) {
  if (javaName.empty()) throw std::invalid_argument("CipherSuite::forJavaName: empty name");
  for (const CipherSuite& known : kKnown) {
    if (withoutPrefix(known.javaName_) == withoutPrefix(javaName)) return known;
  }
  // Other names are interned, so every CipherSuite can hold a plain view. The set only grows,
  // by the names this process meets (from its own configuration and its peers' handshakes).
  static std::mutex mutex;
  static std::set<std::string, std::less<>> names;
  std::lock_guard lock(mutex);
  auto it = names.find(javaName);
  if (it == names.end()) it = names.emplace(javaName).first;
  return CipherSuite(*it);
}

bool CipherSuite::operator==(const CipherSuite& other) const noexcept {
  return withoutPrefix(javaName_) == withoutPrefix(other.javaName_);
}

std::ostream& operator<<(std::ostream& out, const CipherSuite& suite) {
  return out << suite.javaName();
}

}  // namespace tern
