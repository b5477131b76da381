// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#include "tern/certificate.h"

#include <openssl/err.h>

#include <algorithm>
#include <cctype>
#include <limits>
#include <stdexcept>
#include <string_view>

#include "io/base64.h"
#include "tern/inet_address.h"
#include "tls/openssl_access.h"
#include "tls/openssl_util.h"
#include "tls/pem.h"

namespace tern {

struct Certificate::Impl {
  internal::UniqueX509 x509;
  std::vector<uint8_t> der;
};

namespace {

using internal::UniqueGeneralNames;

constexpr std::string_view kCertificateLabel = "CERTIFICATE";

// RFC 2253 without escaping non-ASCII: UTF-8 stays readable, as Java's X500Principal prints it.
constexpr unsigned long kRfc2253Utf8 = XN_FLAG_RFC2253 & ~ASN1_STRFLGS_ESC_MSB;

std::string nameToString(const X509_NAME* name) {
  internal::UniqueBio bio(BIO_new(BIO_s_mem()));
  internal::checkOpenSsl(bio != nullptr, "BIO_new failed");
  if (X509_NAME_print_ex(bio.get(), name, 0, kRfc2253Utf8) < 0) {
    ERR_clear_error();
    return {};
  }
  return internal::bioContents(bio.get());
}

std::string asn1StringToUtf8(const ASN1_STRING* string) {
  unsigned char* utf8 = nullptr;
  int length = ASN1_STRING_to_UTF8(&utf8, string);
  if (length < 0) {
    ERR_clear_error();
    return {};
  }
  std::string result(reinterpret_cast<const char*>(utf8), static_cast<size_t>(length));
  OPENSSL_free(utf8);
  return result;
}

std::chrono::system_clock::time_point toTimePoint(const ASN1_TIME* time) {
  std::tm tm{};
  if (time == nullptr || ASN1_TIME_to_tm(time, &tm) != 1) {
    ERR_clear_error();
    return {};  // Unreachable for a certificate OpenSSL parsed; the epoch is a safe answer.
  }
  using namespace std::chrono;
  sys_days day =
      year_month_day{year{tm.tm_year + 1900}, month{static_cast<unsigned>(tm.tm_mon + 1)},
                     std::chrono::day{static_cast<unsigned>(tm.tm_mday)}};
  return time_point_cast<system_clock::duration>(day + hours{tm.tm_hour} + minutes{tm.tm_min} +
                                                 seconds{tm.tm_sec});
}

UniqueGeneralNames subjectAltNames(X509* x509) {
  return UniqueGeneralNames(
      static_cast<GENERAL_NAMES*>(X509_get_ext_d2i(x509, NID_subject_alt_name, nullptr, nullptr)));
}

Certificate parseDer(std::span<const uint8_t> der) {
  if (der.empty()) throw std::invalid_argument("failed to decode certificate: no bytes");
  if (der.size() > static_cast<size_t>(std::numeric_limits<long>::max())) {
    throw std::invalid_argument("failed to decode certificate: too long");
  }
  const unsigned char* in = der.data();
  internal::UniqueX509 x509(d2i_X509(nullptr, &in, static_cast<long>(der.size())));
  if (x509 == nullptr) {
    throw std::invalid_argument(internal::withOpenSslErrors("failed to decode certificate"));
  }
  if (in != der.data() + der.size()) {
    throw std::invalid_argument(
        "failed to decode certificate: " + std::to_string(der.data() + der.size() - in) +
        " trailing bytes after the certificate");
  }
  return internal::fromX509(x509.get());
}

std::vector<Certificate> decodeCertificateBlocks(std::string_view pem) {
  std::vector<internal::PemBlock> blocks;
  try {
    blocks = internal::decodePemBlocks(pem);
  } catch (const std::invalid_argument& e) {
    throw std::invalid_argument(std::string("failed to decode certificate: ") + e.what());
  }
  std::vector<Certificate> result;
  std::string otherLabels;
  for (const internal::PemBlock& block : blocks) {
    if (block.label != kCertificateLabel) {
      if (!otherLabels.empty()) otherLabels += ", ";
      otherLabels += block.label;
      continue;
    }
    result.push_back(parseDer(block.der));
  }
  if (result.empty()) {
    throw std::invalid_argument(
        otherLabels.empty()
            ? "failed to decode certificate: no CERTIFICATE PEM block"
            : "failed to decode certificate: no CERTIFICATE PEM block (found " + otherLabels + ")");
  }
  return result;
}

}  // namespace

Certificate Certificate::fromDer(std::span<const uint8_t> der) { return parseDer(der); }

Certificate Certificate::decodePem(std::string_view pem) {
  std::vector<Certificate> certificates = decodeCertificateBlocks(pem);
  if (certificates.size() != 1) {
    throw std::invalid_argument(
        "failed to decode certificate: expected 1 CERTIFICATE PEM block, "
        "found " +
        std::to_string(certificates.size()) + " (use decodePemChain)");
  }
  return certificates.front();
}

std::vector<Certificate> Certificate::decodePemChain(std::string_view pem) {
  return decodeCertificateBlocks(pem);
}

const std::vector<uint8_t>& Certificate::der() const noexcept { return impl_->der; }

std::string Certificate::pem() const { return internal::encodePem(kCertificateLabel, impl_->der); }

std::string Certificate::subject() const {
  return nameToString(X509_get_subject_name(impl_->x509.get()));
}

std::string Certificate::issuer() const {
  return nameToString(X509_get_issuer_name(impl_->x509.get()));
}

std::string Certificate::commonName() const {
  const X509_NAME* name = X509_get_subject_name(impl_->x509.get());
  int index = -1;
  for (int next = -1; (next = X509_NAME_get_index_by_NID(name, NID_commonName, next)) >= 0;) {
    index = next;
  }
  if (index < 0) return {};
  return asn1StringToUtf8(X509_NAME_ENTRY_get_data(X509_NAME_get_entry(name, index)));
}

std::string Certificate::serialNumber() const {
  internal::UniqueBignum bignum(
      ASN1_INTEGER_to_BN(X509_get0_serialNumber(impl_->x509.get()), nullptr));
  internal::checkOpenSsl(bignum != nullptr, "ASN1_INTEGER_to_BN failed");
  char* hex = BN_bn2hex(bignum.get());
  internal::checkOpenSsl(hex != nullptr, "BN_bn2hex failed");
  std::string digits(hex);
  OPENSSL_free(hex);
  bool negative = !digits.empty() && digits[0] == '-';
  if (negative) digits.erase(0, 1);
  size_t firstNonZero = digits.find_first_not_of('0');
  digits = firstNonZero == std::string::npos ? "0" : digits.substr(firstNonZero);
  std::transform(digits.begin(), digits.end(), digits.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return negative ? "-" + digits : digits;
}

std::chrono::system_clock::time_point Certificate::notBefore() const {
  return toTimePoint(X509_get0_notBefore(impl_->x509.get()));
}

std::chrono::system_clock::time_point Certificate::notAfter() const {
  return toTimePoint(X509_get0_notAfter(impl_->x509.get()));
}

std::vector<std::string> Certificate::dnsNames() const {
  std::vector<std::string> result;
  UniqueGeneralNames names = subjectAltNames(impl_->x509.get());
  for (int i = 0; names != nullptr && i < sk_GENERAL_NAME_num(names.get()); ++i) {
    const GENERAL_NAME* name = sk_GENERAL_NAME_value(names.get(), i);
    if (name->type != GEN_DNS) continue;
    const ASN1_STRING* dns = name->d.dNSName;
    result.emplace_back(reinterpret_cast<const char*>(ASN1_STRING_get0_data(dns)),
                        static_cast<size_t>(ASN1_STRING_length(dns)));
  }
  return result;
}

std::vector<std::string> Certificate::ipAddresses() const {
  std::vector<std::string> result;
  UniqueGeneralNames names = subjectAltNames(impl_->x509.get());
  for (int i = 0; names != nullptr && i < sk_GENERAL_NAME_num(names.get()); ++i) {
    const GENERAL_NAME* name = sk_GENERAL_NAME_value(names.get(), i);
    if (name->type != GEN_IPADD) continue;
    const ASN1_STRING* ip = name->d.iPAddress;
    int length = ASN1_STRING_length(ip);
    if (length != 4 && length != 16) continue;
    result.push_back(InetAddress::fromBytes(std::span<const uint8_t>(ASN1_STRING_get0_data(ip),
                                                                     static_cast<size_t>(length)))
                         .hostAddress());
  }
  return result;
}

std::vector<uint8_t> Certificate::publicKeySha256() const {
  std::vector<uint8_t> spki =
      internal::toDer(X509_get_X509_PUBKEY(impl_->x509.get()), i2d_X509_PUBKEY);
  return internal::sha256(spki);
}

std::string Certificate::pin() const {
  return "sha256/" + internal::encodeBase64(publicKeySha256());
}

std::string Certificate::publicKeyAlgorithm() const {
  EVP_PKEY* key = X509_get0_pubkey(impl_->x509.get());
  if (key == nullptr) ERR_clear_error();
  return internal::keyAlgorithmName(key);
}

bool Certificate::isCertificateAuthority() const {
  return (X509_get_extension_flags(impl_->x509.get()) & EXFLAG_CA) != 0;
}

int32_t Certificate::basicConstraints() const {
  if (!isCertificateAuthority()) return -1;
  long pathLength = X509_get_pathlen(impl_->x509.get());
  if (pathLength < 0 || pathLength > std::numeric_limits<int32_t>::max()) {
    return std::numeric_limits<int32_t>::max();
  }
  return static_cast<int32_t>(pathLength);
}

bool Certificate::isSelfSigned() const { return isSignedBy(*this); }

bool Certificate::isSignedBy(const Certificate& issuer) const {
  X509* x509 = impl_->x509.get();
  X509* issuerX509 = issuer.impl_->x509.get();
  if (X509_NAME_cmp(X509_get_issuer_name(x509), X509_get_subject_name(issuerX509)) != 0) {
    return false;
  }
  EVP_PKEY* issuerKey = X509_get0_pubkey(issuerX509);
  bool verified = issuerKey != nullptr && X509_verify(x509, issuerKey) == 1;
  ERR_clear_error();  // A failed verification is an answer, not an error to report later.
  return verified;
}

bool Certificate::operator==(const Certificate& other) const noexcept {
  return impl_ == other.impl_ || impl_->der == other.impl_->der;
}

namespace internal {

X509* OpenSslAccess::x509(const Certificate& certificate) noexcept {
  return certificate.impl_->x509.get();
}

Certificate OpenSslAccess::certificate(X509* x509) {
  if (x509 == nullptr) throw std::invalid_argument("fromX509: null X509");
  auto impl = std::make_shared<Certificate::Impl>();
  int length = i2d_X509(x509, nullptr);
  if (length <= 0) {
    throw std::invalid_argument(withOpenSslErrors("fromX509: the certificate cannot be encoded"));
  }
  impl->der = toDer(x509, i2d_X509);
  X509_up_ref(x509);
  impl->x509.reset(x509);
  return Certificate(std::move(impl));
}

}  // namespace internal
}  // namespace tern

size_t std::hash<tern::Certificate>::operator()(
    const tern::Certificate& certificate) const noexcept {
  const std::vector<uint8_t>& der = certificate.der();
  return std::hash<std::string_view>()(
      std::string_view(reinterpret_cast<const char*>(der.data()), der.size()));
}
