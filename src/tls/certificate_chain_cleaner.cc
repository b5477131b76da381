// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#include "tls/certificate_chain_cleaner.h"

#include <openssl/err.h>

#include <deque>
#include <stdexcept>

#include "tern/exceptions.h"
#include "tls/openssl_access.h"
#include "tls/openssl_util.h"

namespace tern::internal {
namespace {

// Longer chains than this are not real: the deepest public PKIs have a handful of intermediates.
constexpr int kMaxSigners = 9;

class ListTrustRootIndex final : public TrustRootIndex {
 public:
  explicit ListTrustRootIndex(std::vector<Certificate> trusted) : trusted_(std::move(trusted)) {}

  std::optional<Certificate> findByIssuerAndSignature(
      const Certificate& certificate) const override {
    for (const Certificate& candidate : trusted_) {
      if (certificate.isSignedBy(candidate)) return candidate;
    }
    return std::nullopt;
  }

 private:
  std::vector<Certificate> trusted_;
};

void freeCertificates(STACK_OF(X509) * certificates) { sk_X509_pop_free(certificates, X509_free); }
using UniqueCertificates = std::unique_ptr<STACK_OF(X509), OpenSslDeleter<&freeCertificates>>;

class StoreTrustRootIndex final : public TrustRootIndex {
 public:
  explicit StoreTrustRootIndex(X509_STORE* store) : store_(store) { X509_STORE_up_ref(store); }

  std::optional<Certificate> findByIssuerAndSignature(
      const Certificate& certificate) const override {
    UniqueX509StoreCtx context(X509_STORE_CTX_new());
    checkOpenSsl(context != nullptr, "X509_STORE_CTX_new failed");
    X509* x509 = toX509(certificate);
    checkOpenSsl(X509_STORE_CTX_init(context.get(), store_.get(), x509, nullptr) == 1,
                 "X509_STORE_CTX_init failed");
    // Every stored certificate whose subject is the issuer's name (hashed directories included).
    UniqueCertificates candidates(
        X509_STORE_CTX_get1_certs(context.get(), X509_get_issuer_name(x509)));
    ERR_clear_error();  // "Not found" leaves an error behind; it is an answer here.
    for (int i = 0; candidates != nullptr && i < sk_X509_num(candidates.get()); ++i) {
      Certificate candidate = fromX509(sk_X509_value(candidates.get(), i));
      if (certificate.isSignedBy(candidate)) return candidate;
    }
    return std::nullopt;
  }

 private:
  UniqueX509Store store_;
};

std::string subjects(const std::vector<Certificate>& chain) {
  std::string result = "[";
  for (size_t i = 0; i < chain.size(); ++i) {
    if (i > 0) result += ", ";
    result += chain[i].subject();
  }
  return result + "]";
}

}  // namespace

std::shared_ptr<const TrustRootIndex> TrustRootIndex::of(
    std::vector<Certificate> trustedCertificates) {
  return std::make_shared<ListTrustRootIndex>(std::move(trustedCertificates));
}

std::shared_ptr<const TrustRootIndex> TrustRootIndex::of(X509_STORE* store) {
  if (store == nullptr) throw std::invalid_argument("TrustRootIndex::of: null X509_STORE");
  return std::make_shared<StoreTrustRootIndex>(store);
}

CertificateChainCleaner::CertificateChainCleaner(
    std::shared_ptr<const TrustRootIndex> trustRootIndex)
    : trustRootIndex_(std::move(trustRootIndex)) {
  if (trustRootIndex_ == nullptr) {
    throw std::invalid_argument("CertificateChainCleaner: null trust root index");
  }
}

CertificateChainCleaner CertificateChainCleaner::get(
    const tls::HandshakeCertificates& certificates) {
  if (!certificates.platformTrustedCertificates()) {
    return CertificateChainCleaner(TrustRootIndex::of(certificates.trustedCertificates()));
  }
  UniqueX509Store store(newTrustStore(certificates));
  return CertificateChainCleaner(TrustRootIndex::of(store.get()));
}

std::vector<Certificate> CertificateChainCleaner::clean(const std::vector<Certificate>& chain,
                                                        std::string_view hostname) const {
  if (chain.empty()) {
    throw std::invalid_argument("no peer certificates to clean for " + std::string(hostname));
  }
  std::deque<Certificate> queue(chain.begin() + 1, chain.end());
  std::vector<Certificate> result{chain.front()};
  bool foundTrustedCertificate = false;

  for (int signers = 0; signers < kMaxSigners; ++signers) {
    Certificate toVerify = result.back();

    // Signed by a trusted certificate: use it, unless the chain so far is just that certificate
    // (a trusted self-signed leaf).
    if (std::optional<Certificate> trusted = trustRootIndex_->findByIssuerAndSignature(toVerify)) {
      if (result.size() > 1 || !(toVerify == *trusted)) result.push_back(*trusted);
      if (trusted->isSelfSigned()) return result;  // A root: done.
      foundTrustedCertificate = true;
      continue;
    }

    // Otherwise find the presented certificate that signed it; usually the next, not always.
    bool foundSigner = false;
    for (auto it = queue.begin(); it != queue.end(); ++it) {
      if (toVerify.isSignedBy(*it)) {
        result.push_back(*it);
        queue.erase(it);
        foundSigner = true;
        break;
      }
    }
    if (foundSigner) continue;

    // The end of the chain: fine if it passed through a trusted certificate.
    if (foundTrustedCertificate) return result;
    throw SSLPeerUnverifiedException("Failed to find a trusted cert that signed " +
                                     toVerify.subject() + " (for " + std::string(hostname) + ")");
  }
  throw SSLPeerUnverifiedException("Certificate chain too long: " + subjects(result));
}

}  // namespace tern::internal
