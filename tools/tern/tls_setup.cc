// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#include "tls_setup.h"

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <optional>
#include <stdexcept>

#include "exit_code.h"
#include "tern/certificate.h"
#include "tern/connection.h"
#include "tern/tls/handshake_certificates.h"
#include "tern/tls/held_certificate.h"
#include "tern/tls/key_pair.h"

namespace tern::tool {
namespace {

std::string readFile(const std::string& path, int exitCode, const std::string& what) {
  std::ifstream file(path, std::ios::binary);
  if (!file) throw ToolException(exitCode, what + ": cannot read " + path);
  return std::string(std::istreambuf_iterator<char>(file), std::istreambuf_iterator<char>());
}

// Trusts the PEM certificates in `path` (the value of `option`): curl's 77 if it cannot.
void trustCertificatesIn(const std::string& path, const std::string& option,
                         tls::HandshakeCertificates::Builder& builder) {
  const std::string pem = readFile(path, kExitSslCaCertBadFile, option);
  try {
    for (const Certificate& certificate : Certificate::decodePemChain(pem)) {
      builder.addTrustedCertificate(certificate);
    }
  } catch (const std::invalid_argument& e) {
    throw ToolException(kExitSslCaCertBadFile,
                        "error setting certificate file: " + path + ": " + e.what());
  }
}

std::optional<tls::HandshakeCertificates> handshakeCertificates(const Options& options) {
  if (!options.caCert && !options.clientCert && !options.insecure) return std::nullopt;
  tls::HandshakeCertificates::Builder builder;
  if (options.caCert) {
    trustCertificatesIn(*options.caCert, "--cacert", builder);
  } else if (!options.insecure) {
    builder.addPlatformTrustedCertificates();  // curl keeps the system's roots with --cert.
  }
  if (options.clientCert) {
    const std::string& keyPath = options.clientKey ? *options.clientKey : *options.clientCert;
    const std::string certificatePem = readFile(*options.clientCert, kExitSslCertProblem, "--cert");
    const std::string keyPem = readFile(keyPath, kExitSslCertProblem, "--key");
    try {
      std::vector<Certificate> chain = Certificate::decodePemChain(certificatePem);
      tls::HeldCertificate held(tls::KeyPair::decodePem(keyPem), chain.front());
      builder.heldCertificate(held, std::vector<Certificate>(chain.begin() + 1, chain.end()));
    } catch (const std::invalid_argument& e) {
      throw ToolException(kExitSslCertProblem, "unable to use client certificate " +
                                                   *options.clientCert + ": " + e.what());
    }
  }
  // curl's --insecure: no server is authenticated, on any host (redirect targets too).
  if (options.insecure) builder.addInsecureHost("*");
  return builder.build();
}

// True if a transfer may go through an HTTPS proxy: -x https://..., or without -x a proxy
// variable naming one. (curl reads --proxy-cacert only for such a proxy.)
bool mayUseHttpsProxy(const Options& options) {
  auto isHttps = [](std::string_view spec) {
    return spec.size() >= 8 && std::equal(spec.begin(), spec.begin() + 8, "https://",
                                          [](char a, char b) { return std::tolower(a) == b; });
  };
  if (options.proxy) return isHttps(*options.proxy);
  for (const char* name : {"http_proxy", "https_proxy", "HTTPS_PROXY", "all_proxy", "ALL_PROXY"}) {
    if (const char* value = std::getenv(name); value != nullptr && isHttps(value)) return true;
  }
  return false;
}

// The trust for an HTTPS proxy, as curl's: --proxy-cacert's certificates, else the system's roots
// (not --cacert's, which are the origin's); --proxy-insecure: none. Nullopt when no HTTPS proxy
// may be used, or no TLS option is given (the client's default, the system's roots, serves).
std::optional<tls::HandshakeCertificates> proxyHandshakeCertificates(const Options& options) {
  if (!mayUseHttpsProxy(options)) return std::nullopt;
  if (!options.proxyCaCert && !options.proxyInsecure && !options.caCert && !options.clientCert &&
      !options.insecure) {
    return std::nullopt;
  }
  tls::HandshakeCertificates::Builder builder;
  if (options.proxyCaCert) {
    trustCertificatesIn(*options.proxyCaCert, "--proxy-cacert", builder);
  } else if (!options.proxyInsecure) {
    builder.addPlatformTrustedCertificates();
  }
  if (options.proxyInsecure) builder.addInsecureHost("*");
  return builder.build();
}

}  // namespace

void configureTls(const Options& options, Client::Builder& builder, std::ostream& err) {
  std::optional<tls::HandshakeCertificates> certificates = handshakeCertificates(options);
  if (options.insecure) {
    if (!options.silent) {
      err << "tern: warning: --insecure: the server's certificate is not verified\n";
    }
    builder.handshakeCertificates(*certificates);
    builder.hostnameVerifier(HostnameVerifier::of([](auto, const auto&) { return true; }));
  } else if (certificates) {
    builder.handshakeCertificates(*certificates);
  }
  if (std::optional<tls::HandshakeCertificates> proxy = proxyHandshakeCertificates(options)) {
    builder.proxyHandshakeCertificates(*proxy);
  }
  if (options.tlsMinimum == "1.3") {
    builder.connectionSpecs({ConnectionSpec::Builder(ConnectionSpec::MODERN_TLS)
                                 .tlsVersions({TlsVersion::TLS_1_3})
                                 .build(),
                             ConnectionSpec::CLEARTEXT});
  } else if (options.tlsMinimum == "1.2") {
    builder.connectionSpecs({ConnectionSpec::Builder(ConnectionSpec::MODERN_TLS)
                                 .tlsVersions({TlsVersion::TLS_1_3, TlsVersion::TLS_1_2})
                                 .build(),
                             ConnectionSpec::CLEARTEXT});
  }
  if (!options.pinnedPublicKeys.empty()) {
    builder.addNetworkInterceptor(std::make_shared<PinnedPublicKeyCheck>(options.pinnedPublicKeys));
  }
}

Response PinnedPublicKeyCheck::intercept(Chain& chain) {
  Connection* connection = chain.connection();
  std::optional<Handshake> handshake = connection ? connection->handshake() : std::nullopt;
  if (handshake && !handshake->peerCertificates().empty()) {
    const std::string pin = handshake->peerCertificates().front().pin();
    if (std::find(pins_.begin(), pins_.end(), pin) == pins_.end()) {
      std::string pinned;
      for (const std::string& p : pins_) pinned += (pinned.empty() ? "" : ", ") + p;
      throw PinnedKeyMismatchException(
          "SSL: public key does not match pinned public key: " + chain.request().url().host() +
          " has " + pin + ", pinned: " + pinned);
    }
  }
  return chain.proceed(chain.request());
}

}  // namespace tern::tool
