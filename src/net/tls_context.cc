// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#include "net/tls_context.h"

#include <algorithm>

#include <arpa/inet.h>
#include <openssl/err.h>
#include <openssl/x509_vfy.h>

#include "io/ascii.h"
#include "net/tls_failure.h"
#include "tern/exceptions.h"
#include "tls/openssl_access.h"

namespace tern::internal {

bool isIpLiteral(std::string_view host) {
  const std::string text(host);
  unsigned char address[16];
  return inet_pton(AF_INET, text.c_str(), address) == 1 ||
         inet_pton(AF_INET6, text.c_str(), address) == 1;
}

std::string TlsContext::sessionKey(std::string_view host, int port) {
  const bool ipv6 = host.find(':') != std::string_view::npos;
  return (ipv6 ? "[" + std::string(host) + "]" : std::string(host)) + ":" + std::to_string(port);
}

TlsContext::TlsContext()
    : TlsContext([](SSL_CTX* context) {
        // The directory is read lazily, one hashed file per issuer looked up.
        SSL_CTX_load_verify_dir(context, kSystemCertificateDirectory);
      }) {
  systemTrust_ = true;
}

void TlsContext::loadSystemTrust() const {
  if (!systemTrust_) return;
  std::call_once(systemTrustLoaded_, [this] {
    // Before any SSL of this context exists, so no handshake sees the store change.
    SSL_CTX_set_default_verify_paths(context_.get());
    ERR_clear_error();  // A missing default path is not an error worth keeping.
    chainCleaner_.emplace(TrustRootIndex::of(SSL_CTX_get_cert_store(context_.get())));
  });
}

TlsContext::TlsContext(const tls::HandshakeCertificates& certificates)
    : TlsContext([&](SSL_CTX* context) { configureClient(certificates, context); }) {
  chainCleaner_.emplace(CertificateChainCleaner::get(certificates));
  insecureHosts_ = certificates.insecureHosts();
}

TlsContext::TlsContext(const std::function<void(SSL_CTX*)>& configure)
    : context_(SSL_CTX_new(TLS_client_method())) {
  if (!context_) {
    throw IOException("Cannot make a TLS context: " + takeOpenSslErrors());
  }
  SSL_CTX* context = context_.get();
  // Every TLS version OpenSSL enables; each connection's ConnectionSpec narrows that.
  SSL_CTX_set_verify(context, SSL_VERIFY_PEER, nullptr);
  configure(context);
  ERR_clear_error();  // A missing default path is not an error worth keeping.
  sessionCache_.install(context);
}

UniqueSsl TlsContext::newSsl(std::string_view host, int port,
                             const std::vector<std::string>& alpnProtocols) const {
  loadSystemTrust();
  UniqueSsl ssl(SSL_new(context_.get()));
  if (!ssl) throw IOException("Cannot make a TLS connection: " + takeOpenSslErrors());
  SSL_set_connect_state(ssl.get());
  const std::string hostName(host);
  if (!isIpLiteral(host)) SSL_set_tlsext_host_name(ssl.get(), hostName.c_str());
  if (!alpnProtocols.empty()) {
    // ALPN's wire format (RFC 7301 §3.1): each protocol name prefixed by its length.
    std::string wire;
    for (const std::string& protocol : alpnProtocols) {
      wire += static_cast<char>(protocol.size());
      wire += protocol;
    }
    SSL_set_alpn_protos(ssl.get(), reinterpret_cast<const unsigned char*>(wire.data()),
                        static_cast<unsigned int>(wire.size()));
  }
  recordVerifyFailures(ssl.get());
  if (isInsecure(host)) {
    // HandshakeCertificates::Builder::addInsecureHost: the chain is still checked (and its
    // verdict recorded), but the handshake goes on whatever the verdict.
    SSL_set_verify(ssl.get(), SSL_VERIFY_NONE, SSL_get_verify_callback(ssl.get()));
  }
  sessionCache_.prepare(ssl.get(), sessionKey(host, port));
  return ssl;
}

void TlsContext::verifyServerChain(const std::vector<Certificate>& chain, std::string_view host,
                                   const std::string& peer) const {
  if (isInsecure(host)) return;
  if (chain.empty()) {
    throw SSLHandshakeException("TLS handshake with " + peer +
                                " failed: the server sent no certificate");
  }
  loadSystemTrust();
  // The stack only borrows the certificates: `chain` outlives the check.
  auto freeStack = [](STACK_OF(X509) * stack) { sk_X509_free(stack); };
  std::unique_ptr<STACK_OF(X509), decltype(freeStack)> untrusted(sk_X509_new_null(), freeStack);
  UniqueX509StoreCtx context(X509_STORE_CTX_new());
  if (!untrusted || !context) throw IOException("Cannot verify a certificate chain: out of memory");
  for (std::size_t i = 1; i < chain.size(); ++i) {
    sk_X509_push(untrusted.get(), toX509(chain[i]));
  }
  if (X509_STORE_CTX_init(context.get(), SSL_CTX_get_cert_store(context_.get()), toX509(chain[0]),
                          untrusted.get()) != 1 ||
      X509_STORE_CTX_set_default(context.get(), "ssl_server") != 1) {
    throw IOException("Cannot verify a certificate chain: " + takeOpenSslErrors());
  }
  const int verified = X509_verify_cert(context.get());
  ERR_clear_error();
  if (verified != 1) throwChainFailure(context.get(), peer);
}

bool TlsContext::isInsecure(std::string_view host) const {
  if (insecureHosts_.empty()) return false;
  const std::string lower = toLowerAscii(host);
  return std::any_of(
      insecureHosts_.begin(), insecureHosts_.end(),
      [&](const std::string& insecure) { return insecure == "*" || insecure == lower; });
}

}  // namespace tern::internal
