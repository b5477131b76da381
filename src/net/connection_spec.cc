// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#include "tern/connection_spec.h"

#include <algorithm>
#include <stdexcept>

namespace tern {
namespace {

template <typename T>
std::string join(const std::vector<T>& items, std::string_view (*name)(const T&)) {
  std::string result = "[";
  for (size_t i = 0; i < items.size(); ++i) {
    if (i > 0) result += ", ";
    result += name(items[i]);
  }
  return result + "]";
}

}  // namespace

std::optional<std::vector<CipherSuite>> ConnectionSpec::cipherSuites() const {
  if (!cipherSuites_) return std::nullopt;
  std::vector<CipherSuite> result;
  for (const std::string& name : *cipherSuites_) result.push_back(CipherSuite::forJavaName(name));
  return result;
}

std::optional<std::vector<TlsVersion>> ConnectionSpec::tlsVersions() const { return tlsVersions_; }

bool ConnectionSpec::isCompatible(const std::vector<TlsVersion>& enabledTlsVersions,
                                  const std::vector<CipherSuite>& enabledCipherSuites) const {
  if (!tls_) return false;
  if (tlsVersions_) {
    bool any = std::any_of(tlsVersions_->begin(), tlsVersions_->end(), [&](TlsVersion v) {
      return std::find(enabledTlsVersions.begin(), enabledTlsVersions.end(), v) !=
             enabledTlsVersions.end();
    });
    if (!any) return false;
  } else if (enabledTlsVersions.empty()) {
    return false;
  }
  if (cipherSuites_) {
    bool any = std::any_of(cipherSuites_->begin(), cipherSuites_->end(), [&](const std::string& s) {
      CipherSuite suite = CipherSuite::forJavaName(s);
      return std::find(enabledCipherSuites.begin(), enabledCipherSuites.end(), suite) !=
             enabledCipherSuites.end();
    });
    if (!any) return false;
  } else if (enabledCipherSuites.empty()) {
    return false;
  }
  return true;
}

bool ConnectionSpec::operator==(const ConnectionSpec& other) const {
  if (tls_ != other.tls_) return false;
  if (!tls_) return true;
  return cipherSuites_ == other.cipherSuites_ && tlsVersions_ == other.tlsVersions_ &&
         supportsTlsExtensions_ == other.supportsTlsExtensions_;
}

std::string ConnectionSpec::toString() const {
  if (!tls_) return "ConnectionSpec()";
  std::string suites = "[all enabled]";
  if (cipherSuites_) {
    suites = join<std::string>(*cipherSuites_,
                               [](const std::string& s) -> std::string_view { return s; });
  }
  std::string versions = "[all enabled]";
  if (tlsVersions_) {
    versions =
        join<TlsVersion>(*tlsVersions_, [](const TlsVersion& v) { return tern::toString(v); });
  }
  return "ConnectionSpec(cipherSuites=" + suites + ", tlsVersions=" + versions +
         ", supportsTlsExtensions=" + (supportsTlsExtensions_ ? "true" : "false") + ")";
}

ConnectionSpec::Builder::Builder(bool tls) { spec_.tls_ = tls; }

ConnectionSpec::Builder::Builder(const ConnectionSpec& spec) : spec_(spec) {}

namespace {

void requireTls(bool tls, const char* what) {
  if (!tls) throw std::invalid_argument(std::string("no ") + what + " for cleartext connections");
}

}  // namespace

ConnectionSpec::Builder& ConnectionSpec::Builder::allEnabledCipherSuites() {
  requireTls(spec_.tls_, "cipher suites");
  spec_.cipherSuites_.reset();
  return *this;
}

ConnectionSpec::Builder& ConnectionSpec::Builder::cipherSuites(
    const std::vector<CipherSuite>& cipherSuites) {
  std::vector<std::string> names;
  for (const CipherSuite& suite : cipherSuites) names.emplace_back(suite.javaName());
  return this->cipherSuites(names);
}

ConnectionSpec::Builder& ConnectionSpec::Builder::cipherSuites(
    const std::vector<std::string>& javaNames) {
  requireTls(spec_.tls_, "cipher suites");
  if (javaNames.empty()) throw std::invalid_argument("At least one cipher suite is required");
  for (const std::string& name : javaNames) {
    if (name.empty()) throw std::invalid_argument("ConnectionSpec: empty cipher suite name");
  }
  spec_.cipherSuites_ = javaNames;
  return *this;
}

ConnectionSpec::Builder& ConnectionSpec::Builder::allEnabledTlsVersions() {
  requireTls(spec_.tls_, "TLS versions");
  spec_.tlsVersions_.reset();
  return *this;
}

ConnectionSpec::Builder& ConnectionSpec::Builder::tlsVersions(
    const std::vector<TlsVersion>& tlsVersions) {
  requireTls(spec_.tls_, "TLS versions");
  if (tlsVersions.empty()) throw std::invalid_argument("At least one TLS version is required");
  spec_.tlsVersions_ = tlsVersions;
  return *this;
}

ConnectionSpec::Builder& ConnectionSpec::Builder::tlsVersions(
    const std::vector<std::string>& javaNames) {
  std::vector<TlsVersion> versions;
  for (const std::string& name : javaNames) versions.push_back(tlsVersionForJavaName(name));
  return tlsVersions(versions);
}

ConnectionSpec::Builder& ConnectionSpec::Builder::supportsTlsExtensions(
    bool supportsTlsExtensions) {
  requireTls(spec_.tls_, "TLS extensions");
  spec_.supportsTlsExtensions_ = supportsTlsExtensions;
  return *this;
}

ConnectionSpec ConnectionSpec::Builder::build() const { return spec_; }

}  // namespace tern
