// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#include "tern/tls/held_certificate.h"

#include <openssl/err.h>
#include <openssl/rand.h>

#include <stdexcept>

#include "tern/inet_address.h"
#include "tls/openssl_access.h"
#include "tls/openssl_util.h"
#include "tls/pem.h"

namespace tern::tls {
namespace {

using internal::checkOpenSsl;
using std::chrono::system_clock;

constexpr std::chrono::hours kDefaultDuration{24};

// RFC 5280 §4.2.1.3 bit positions.
constexpr int kDigitalSignature = 0;
constexpr int kKeyEncipherment = 2;
constexpr int kKeyCertSign = 5;
constexpr int kCrlSign = 6;

using UniqueAsn1OctetString =
    std::unique_ptr<ASN1_OCTET_STRING, internal::OpenSslDeleter<&ASN1_OCTET_STRING_free>>;
using UniqueBitString =
    std::unique_ptr<ASN1_BIT_STRING, internal::OpenSslDeleter<&ASN1_BIT_STRING_free>>;
using UniqueBasicConstraints =
    std::unique_ptr<BASIC_CONSTRAINTS, internal::OpenSslDeleter<&BASIC_CONSTRAINTS_free>>;
using UniqueAuthorityKeyId =
    std::unique_ptr<AUTHORITY_KEYID, internal::OpenSslDeleter<&AUTHORITY_KEYID_free>>;
using UniqueGeneralName =
    std::unique_ptr<GENERAL_NAME, internal::OpenSslDeleter<&GENERAL_NAME_free>>;

void freeObjects(STACK_OF(ASN1_OBJECT) * objects) {
  sk_ASN1_OBJECT_pop_free(objects, ASN1_OBJECT_free);
}
using UniqueObjects =
    std::unique_ptr<STACK_OF(ASN1_OBJECT), internal::OpenSslDeleter<&freeObjects>>;

// A version 4 UUID (RFC 4122 §4.4), OkHttp's default common name.
std::string randomUuid() {
  unsigned char bytes[16];
  checkOpenSsl(RAND_bytes(bytes, sizeof(bytes)) == 1, "RAND_bytes failed");
  bytes[6] = static_cast<unsigned char>((bytes[6] & 0x0f) | 0x40);
  bytes[8] = static_cast<unsigned char>((bytes[8] & 0x3f) | 0x80);
  static constexpr char kHex[] = "0123456789abcdef";
  std::string result;
  for (int i = 0; i < 16; ++i) {
    if (i == 4 || i == 6 || i == 8 || i == 10) result += '-';
    result += kHex[bytes[i] >> 4];
    result += kHex[bytes[i] & 0x0f];
  }
  return result;
}

void addExtension(X509* x509, int nid, void* value, bool critical) {
  checkOpenSsl(X509_add1_ext_i2d(x509, nid, value, critical ? 1 : 0, X509V3_ADD_DEFAULT) == 1,
               "adding a certificate extension failed");
}

void addNameEntry(X509_NAME* name, int nid, const std::string& value, const char* what) {
  if (X509_NAME_add_entry_by_NID(name, nid, MBSTRING_UTF8,
                                 reinterpret_cast<const unsigned char*>(value.data()),
                                 static_cast<int>(value.size()), -1, 0) != 1) {
    throw std::invalid_argument(
        internal::withOpenSslErrors(std::string("invalid ") + what + " \"" + value + "\""));
  }
}

void setTime(ASN1_TIME* field, system_clock::time_point time, const char* what) {
  auto seconds = std::chrono::duration_cast<std::chrono::seconds>(time.time_since_epoch()).count();
  // ASN1_TIME_set picks UTCTime through 2049 and GeneralizedTime after (RFC 5280 §4.1.2.5).
  if (ASN1_TIME_set(field, static_cast<time_t>(seconds)) == nullptr) {
    throw std::invalid_argument(internal::withOpenSslErrors(std::string("invalid ") + what));
  }
}

// The key identifier of RFC 5280 §4.2.1.2 method (1): SHA-1 of the subjectPublicKey BIT STRING.
UniqueAsn1OctetString keyIdentifier(X509* x509) {
  unsigned char digest[EVP_MAX_MD_SIZE];
  unsigned int length = 0;
  checkOpenSsl(X509_pubkey_digest(x509, EVP_sha1(), digest, &length) == 1,
               "computing the key identifier failed");
  UniqueAsn1OctetString result(ASN1_OCTET_STRING_new());
  checkOpenSsl(result != nullptr &&
                   ASN1_OCTET_STRING_set(result.get(), digest, static_cast<int>(length)) == 1,
               "ASN1_OCTET_STRING_set failed");
  return result;
}

// The issuer's own subject key identifier when it has one, so the AKID matches it exactly.
UniqueAsn1OctetString authorityKeyIdentifier(X509* issuer) {
  if (const ASN1_OCTET_STRING* existing = X509_get0_subject_key_id(issuer)) {
    UniqueAsn1OctetString copy(ASN1_OCTET_STRING_dup(existing));
    checkOpenSsl(copy != nullptr, "ASN1_OCTET_STRING_dup failed");
    return copy;
  }
  ERR_clear_error();
  return keyIdentifier(issuer);
}

void addKeyUsage(X509* x509, std::initializer_list<int> bits) {
  UniqueBitString usage(ASN1_BIT_STRING_new());
  checkOpenSsl(usage != nullptr, "ASN1_BIT_STRING_new failed");
  for (int bit : bits) {
    checkOpenSsl(ASN1_BIT_STRING_set_bit(usage.get(), bit, 1) == 1, "ASN1_BIT_STRING_set_bit");
  }
  addExtension(x509, NID_key_usage, usage.get(), true);
}

void addBasicConstraints(X509* x509, int maxIntermediateCas) {
  UniqueBasicConstraints constraints(BASIC_CONSTRAINTS_new());
  checkOpenSsl(constraints != nullptr, "BASIC_CONSTRAINTS_new failed");
  if (maxIntermediateCas >= 0) {
    constraints->ca = 0xff;  // DER TRUE.
    constraints->pathlen = ASN1_INTEGER_new();
    checkOpenSsl(constraints->pathlen != nullptr &&
                     ASN1_INTEGER_set_int64(constraints->pathlen, maxIntermediateCas) == 1,
                 "ASN1_INTEGER_set_int64 failed");
  }
  addExtension(x509, NID_basic_constraints, constraints.get(), true);
}

void addExtendedKeyUsage(X509* x509) {
  UniqueObjects usages(sk_ASN1_OBJECT_new_null());
  checkOpenSsl(usages != nullptr, "sk_ASN1_OBJECT_new_null failed");
  for (int nid : {NID_server_auth, NID_client_auth}) {
    checkOpenSsl(sk_ASN1_OBJECT_push(usages.get(), OBJ_nid2obj(nid)) > 0, "sk_ASN1_OBJECT_push");
  }
  addExtension(x509, NID_ext_key_usage, usages.get(), false);
}

void addSubjectAlternativeNames(X509* x509, const std::vector<std::string>& altNames) {
  internal::UniqueGeneralNames names(sk_GENERAL_NAME_new_null());
  checkOpenSsl(names != nullptr, "sk_GENERAL_NAME_new_null failed");
  for (const std::string& altName : altNames) {
    UniqueGeneralName name(GENERAL_NAME_new());
    checkOpenSsl(name != nullptr, "GENERAL_NAME_new failed");
    if (auto address = InetAddress::parse(altName)) {
      ASN1_OCTET_STRING* ip = ASN1_OCTET_STRING_new();
      std::span<const uint8_t> bytes = address->address();
      checkOpenSsl(ip != nullptr &&
                       ASN1_OCTET_STRING_set(ip, bytes.data(), static_cast<int>(bytes.size())) == 1,
                   "ASN1_OCTET_STRING_set failed");
      GENERAL_NAME_set0_value(name.get(), GEN_IPADD, ip);
    } else {
      ASN1_IA5STRING* dns = ASN1_IA5STRING_new();
      checkOpenSsl(dns != nullptr &&
                       ASN1_STRING_set(dns, altName.data(), static_cast<int>(altName.size())) == 1,
                   "ASN1_STRING_set failed");
      GENERAL_NAME_set0_value(name.get(), GEN_DNS, dns);
    }
    checkOpenSsl(sk_GENERAL_NAME_push(names.get(), name.get()) > 0, "sk_GENERAL_NAME_push");
    name.release();  // Now owned by `names`.
  }
  // Non-critical: the subject always has a CN (RFC 5280 §4.2.1.6 wants it critical only for an
  // empty subject).
  addExtension(x509, NID_subject_alt_name, names.get(), false);
}

}  // namespace

HeldCertificate::HeldCertificate(KeyPair keyPair, Certificate certificate)
    : keyPair_(std::move(keyPair)), certificate_(std::move(certificate)) {
  if (X509_check_private_key(internal::toX509(certificate_), internal::toEvpPkey(keyPair_)) != 1) {
    ERR_clear_error();
    throw std::invalid_argument("the private key does not match the certificate " +
                                certificate_.subject());
  }
}

HeldCertificate HeldCertificate::decode(std::string_view certificateAndPrivateKeyPem) {
  std::vector<internal::PemBlock> blocks;
  try {
    blocks = internal::decodePemBlocks(certificateAndPrivateKeyPem);
  } catch (const std::invalid_argument& e) {
    throw std::invalid_argument(std::string("failed to decode held certificate: ") + e.what());
  }
  const internal::PemBlock* certificateBlock = nullptr;
  const internal::PemBlock* keyBlock = nullptr;
  for (const internal::PemBlock& block : blocks) {
    if (block.label == "CERTIFICATE") {
      if (certificateBlock != nullptr) {
        throw std::invalid_argument("string includes multiple certificates");
      }
      certificateBlock = &block;
    } else if (block.label == "PRIVATE KEY") {
      if (keyBlock != nullptr) throw std::invalid_argument("string includes multiple private keys");
      keyBlock = &block;
    } else {
      throw std::invalid_argument("unexpected type: " + block.label);
    }
  }
  if (certificateBlock == nullptr) {
    throw std::invalid_argument("string does not include a certificate");
  }
  if (keyBlock == nullptr) throw std::invalid_argument("string does not include a private key");
  Certificate certificate = Certificate::fromDer(certificateBlock->der);
  KeyPair keyPair = KeyPair::decodePem(internal::encodePem(keyBlock->label, keyBlock->der));
  return HeldCertificate(std::move(keyPair), std::move(certificate));
}

HeldCertificate::Builder& HeldCertificate::Builder::validityInterval(
    system_clock::time_point notBefore, system_clock::time_point notAfter) {
  if (notBefore > notAfter) {
    auto seconds = [](system_clock::time_point t) {
      return std::to_string(
          std::chrono::duration_cast<std::chrono::seconds>(t.time_since_epoch()).count());
    };
    throw std::invalid_argument("invalid interval: " + seconds(notBefore) + ".." +
                                seconds(notAfter) + " (seconds since the epoch)");
  }
  notBefore_ = notBefore;
  notAfter_ = notAfter;
  duration_.reset();
  return *this;
}

HeldCertificate::Builder& HeldCertificate::Builder::duration(std::chrono::seconds duration) {
  if (duration.count() < 0) {
    throw std::invalid_argument("duration < 0: " + std::to_string(duration.count()) + "s");
  }
  duration_ = duration;
  notBefore_.reset();
  notAfter_.reset();
  return *this;
}

HeldCertificate::Builder& HeldCertificate::Builder::addSubjectAlternativeName(
    std::string_view altName) {
  if (altName.empty()) throw std::invalid_argument("subject alternative name is empty");
  if (!InetAddress::parse(altName)) {
    for (char c : altName) {
      if (c <= 0x20 || c >= 0x7f) {
        throw std::invalid_argument("invalid subject alternative name \"" + std::string(altName) +
                                    "\": a DNS name is printable ASCII (use the punycode form)");
      }
    }
  }
  altNames_.emplace_back(altName);
  return *this;
}

HeldCertificate::Builder& HeldCertificate::Builder::commonName(std::string_view cn) {
  commonName_ = std::string(cn);
  return *this;
}

HeldCertificate::Builder& HeldCertificate::Builder::organizationalUnit(std::string_view ou) {
  organizationalUnit_ = std::string(ou);
  return *this;
}

HeldCertificate::Builder& HeldCertificate::Builder::serialNumber(int64_t serialNumber) {
  if (serialNumber < 0) {
    throw std::invalid_argument("serialNumber < 0: " + std::to_string(serialNumber));
  }
  serialNumber_ = serialNumber;
  return *this;
}

HeldCertificate::Builder& HeldCertificate::Builder::keyPair(KeyPair keyPair) {
  keyPair_ = std::move(keyPair);
  return *this;
}

HeldCertificate::Builder& HeldCertificate::Builder::signedBy(const HeldCertificate& issuer) {
  signedBy_ = issuer;
  return *this;
}

HeldCertificate::Builder& HeldCertificate::Builder::certificateAuthority(int maxIntermediateCas) {
  if (maxIntermediateCas < 0) {
    throw std::invalid_argument("maxIntermediateCas < 0: " + std::to_string(maxIntermediateCas));
  }
  maxIntermediateCas_ = maxIntermediateCas;
  return *this;
}

HeldCertificate::Builder& HeldCertificate::Builder::ecdsa256() {
  keyAlgorithm_ = KeyAlgorithm::kEcdsa256;
  return *this;
}

HeldCertificate::Builder& HeldCertificate::Builder::rsa2048() {
  keyAlgorithm_ = KeyAlgorithm::kRsa2048;
  return *this;
}

HeldCertificate HeldCertificate::Builder::build() const {
  KeyPair subjectKey = keyPair_                                  ? *keyPair_
                       : keyAlgorithm_ == KeyAlgorithm::kRsa2048 ? KeyPair::generateRsa2048()
                                                                 : KeyPair::generateEcdsa256();
  EVP_PKEY* subjectEvpKey = internal::toEvpPkey(subjectKey);

  internal::UniqueX509 x509(X509_new());
  checkOpenSsl(x509 != nullptr, "X509_new failed");
  X509* x = x509.get();
  checkOpenSsl(X509_set_version(x, X509_VERSION_3) == 1, "X509_set_version failed");
  checkOpenSsl(ASN1_INTEGER_set_int64(X509_get_serialNumber(x), serialNumber_) == 1,
               "setting the serial number failed");

  system_clock::time_point now = system_clock::now();
  // A second early: OpenSSL verifies with time(), the coarse clock, which can still read the
  // second before `now` right after build(), making a fresh certificate "not yet valid".
  system_clock::time_point notBefore = notBefore_.value_or(now - std::chrono::seconds(1));
  system_clock::time_point notAfter =
      notAfter_ ? *notAfter_ : notBefore + (duration_ ? *duration_ : kDefaultDuration);
  setTime(X509_getm_notBefore(x), notBefore, "notBefore");
  setTime(X509_getm_notAfter(x), notAfter, "notAfter");

  // OkHttp's order: OU, then CN (so RFC 2253 prints "CN=...,OU=...").
  X509_NAME* subject = X509_get_subject_name(x);
  if (organizationalUnit_) {
    addNameEntry(subject, NID_organizationalUnitName, *organizationalUnit_, "organizational unit");
  }
  addNameEntry(subject, NID_commonName, commonName_ ? *commonName_ : randomUuid(), "common name");

  X509* issuer = signedBy_ ? internal::toX509(signedBy_->certificate()) : x;
  checkOpenSsl(X509_set_issuer_name(x, X509_get_subject_name(issuer)) == 1,
               "X509_set_issuer_name failed");
  checkOpenSsl(X509_set_pubkey(x, subjectEvpKey) == 1, "X509_set_pubkey failed");

  // Extensions (RFC 5280 §4.2), as CA/Browser Forum certificates carry them.
  bool isCa = maxIntermediateCas_ >= 0;
  addBasicConstraints(x, maxIntermediateCas_);
  if (isCa) {
    addKeyUsage(x, {kKeyCertSign, kCrlSign});
  } else {
    // A self-signed leaf may be its own trust anchor; a keyUsage without keyCertSign would make
    // OpenSSL refuse it as its own issuer, so it has none (as OkHttp's certificates).
    if (signedBy_) {
      if (subjectKey.algorithm() == "RSA") {
        addKeyUsage(x, {kDigitalSignature, kKeyEncipherment});
      } else {
        addKeyUsage(x, {kDigitalSignature});
      }
    }
    addExtendedKeyUsage(x);
  }
  UniqueAsn1OctetString subjectKeyId = keyIdentifier(x);
  addExtension(x, NID_subject_key_identifier, subjectKeyId.get(), false);
  UniqueAuthorityKeyId authorityKeyId(AUTHORITY_KEYID_new());
  checkOpenSsl(authorityKeyId != nullptr, "AUTHORITY_KEYID_new failed");
  authorityKeyId->keyid = (signedBy_ ? authorityKeyIdentifier(issuer) : keyIdentifier(x)).release();
  addExtension(x, NID_authority_key_identifier, authorityKeyId.get(), false);
  if (!altNames_.empty()) addSubjectAlternativeNames(x, altNames_);

  // SHA-256 for ECDSA and RSA; EdDSA keys sign with their own hash (no digest).
  EVP_PKEY* issuerKey = signedBy_ ? internal::toEvpPkey(signedBy_->keyPair()) : subjectEvpKey;
  int issuerKeyType = EVP_PKEY_get_base_id(issuerKey);
  const EVP_MD* digest =
      issuerKeyType == EVP_PKEY_ED25519 || issuerKeyType == EVP_PKEY_ED448 ? nullptr : EVP_sha256();
  checkOpenSsl(X509_sign(x, issuerKey, digest) > 0, "signing the certificate failed");

  return HeldCertificate(std::move(subjectKey), internal::fromX509(x));
}

}  // namespace tern::tls
