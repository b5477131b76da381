// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#include "tls/openssl_access.h"

#include <openssl/err.h>

#include <stdexcept>

#include "tls/openssl_util.h"

namespace tern::internal {
namespace {

void freeNames(STACK_OF(X509_NAME) * names) { sk_X509_NAME_pop_free(names, X509_NAME_free); }
using UniqueNames = std::unique_ptr<STACK_OF(X509_NAME), OpenSslDeleter<&freeNames>>;

// Presents the held certificate, its key and its intermediates from `context`.
void useHeldCertificate(const tls::HandshakeCertificates& certificates, SSL_CTX* context) {
  const tls::HeldCertificate& held = *certificates.heldCertificate();
  checkOpenSsl(SSL_CTX_use_certificate(context, toX509(held.certificate())) == 1,
               "SSL_CTX_use_certificate failed");
  checkOpenSsl(SSL_CTX_use_PrivateKey(context, toEvpPkey(held.keyPair())) == 1,
               "SSL_CTX_use_PrivateKey failed");
  if (SSL_CTX_check_private_key(context) != 1) {
    ERR_clear_error();
    throw std::invalid_argument("the held private key does not match its certificate " +
                                held.certificate().subject());
  }
  checkOpenSsl(SSL_CTX_clear_chain_certs(context) == 1, "SSL_CTX_clear_chain_certs failed");
  for (const Certificate& intermediate : certificates.intermediates()) {
    checkOpenSsl(SSL_CTX_add1_chain_cert(context, toX509(intermediate)) == 1,
                 "SSL_CTX_add1_chain_cert failed");
  }
}

}  // namespace

X509_STORE* newTrustStore(const tls::HandshakeCertificates& certificates) {
  UniqueX509Store store(X509_STORE_new());
  checkOpenSsl(store != nullptr, "X509_STORE_new failed");
  for (const Certificate& root : certificates.trustedCertificates()) {
    checkOpenSsl(X509_STORE_add_cert(store.get(), toX509(root)) == 1, "X509_STORE_add_cert failed");
  }
  if (certificates.platformTrustedCertificates()) {
    // A missing system directory leaves the store with only the added roots; not an error.
    X509_STORE_set_default_paths(store.get());
    ERR_clear_error();
  }
  // Every trusted certificate is a trust anchor, self-signed or not, as in Java's PKIX and as
  // curl configures OpenSSL: a chain may end at a trusted intermediate.
  X509_STORE_set_flags(store.get(), X509_V_FLAG_PARTIAL_CHAIN);
  return store.release();
}

void configureClient(const tls::HandshakeCertificates& certificates, SSL_CTX* context) {
  SSL_CTX_set_cert_store(context, newTrustStore(certificates));  // Takes ownership.
  SSL_CTX_set_verify(context, SSL_VERIFY_PEER, nullptr);
  if (certificates.heldCertificate()) useHeldCertificate(certificates, context);
}

void configureServer(const tls::HandshakeCertificates& certificates, SSL_CTX* context) {
  if (!certificates.heldCertificate()) {
    throw std::invalid_argument("a server's HandshakeCertificates needs a held certificate");
  }
  useHeldCertificate(certificates, context);
  SSL_CTX_set_cert_store(context, newTrustStore(certificates));
  UniqueNames names(sk_X509_NAME_new_null());
  checkOpenSsl(names != nullptr, "sk_X509_NAME_new_null failed");
  for (const Certificate& root : certificates.trustedCertificates()) {
    X509_NAME* name = X509_NAME_dup(X509_get_subject_name(toX509(root)));
    checkOpenSsl(name != nullptr && sk_X509_NAME_push(names.get(), name) > 0,
                 "building the client CA list failed");
  }
  SSL_CTX_set_client_CA_list(context, names.release());  // Takes ownership.
}

std::vector<Certificate> peerCertificates(const SSL* ssl) {
  std::vector<Certificate> result;
  X509* leaf = SSL_get0_peer_certificate(ssl);
  if (leaf == nullptr) return result;
  result.push_back(fromX509(leaf));
  // A client's SSL_get_peer_cert_chain() starts with the leaf; a server's leaves it out.
  STACK_OF(X509)* chain = SSL_get_peer_cert_chain(ssl);
  for (int i = 0; chain != nullptr && i < sk_X509_num(chain); ++i) {
    X509* certificate = sk_X509_value(chain, i);
    if (i == 0 && X509_cmp(certificate, leaf) == 0) continue;
    result.push_back(fromX509(certificate));
  }
  return result;
}

std::vector<Certificate> localCertificates(const SSL* ssl) {
  std::vector<Certificate> result;
  X509* leaf = SSL_get_certificate(ssl);
  if (leaf == nullptr) return result;
  result.push_back(fromX509(leaf));
  STACK_OF(X509)* chain = nullptr;
  // SSL_get0_chain_certs is a macro over SSL_ctrl, which takes a non-const SSL; it only reads.
  if (SSL_get0_chain_certs(const_cast<SSL*>(ssl), &chain) == 1) {
    for (int i = 0; chain != nullptr && i < sk_X509_num(chain); ++i) {
      result.push_back(fromX509(sk_X509_value(chain, i)));
    }
  }
  return result;
}

}  // namespace tern::internal
