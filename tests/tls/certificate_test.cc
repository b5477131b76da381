// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#include "tern/certificate.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <unordered_set>

#include "io/base64.h"
#include "tern/tls/held_certificate.h"
#include "tls/openssl_access.h"
#include "tls/openssl_util.h"

namespace tern {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::StartsWith;
using tls::HeldCertificate;

std::string decodeError(std::string_view pem) {
  try {
    Certificate::decodePem(pem);
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return "no exception";
}

TEST(CertificateTest, PemRoundTrip) {
  HeldCertificate held = HeldCertificate::Builder().commonName("example.com").build();
  std::string pem = held.certificate().pem();
  EXPECT_THAT(pem, StartsWith("-----BEGIN CERTIFICATE-----\n"));
  EXPECT_THAT(pem, ::testing::EndsWith("\n-----END CERTIFICATE-----\n"));
  // Lines of 64 base64 characters (RFC 7468 §3's strict form).
  std::string body = pem.substr(28, pem.size() - 28 - 26);
  for (size_t start = 0; start < body.size();) {
    size_t end = body.find('\n', start);
    EXPECT_LE(end - start, 64u);
    start = end + 1;
  }
  Certificate decoded = Certificate::decodePem(pem);
  EXPECT_EQ(decoded, held.certificate());
  EXPECT_EQ(decoded.commonName(), "example.com");
}

TEST(CertificateTest, DerRoundTrip) {
  HeldCertificate held = HeldCertificate::Builder().build();
  Certificate decoded = Certificate::fromDer(held.certificate().der());
  EXPECT_EQ(decoded, held.certificate());
  EXPECT_EQ(decoded.der(), held.certificate().der());
}

TEST(CertificateTest, DecodePemAcceptsCrlfAndSurroundingText) {
  HeldCertificate held = HeldCertificate::Builder().build();
  std::string pem = held.certificate().pem();
  std::string crlf;
  for (char c : pem) {
    if (c == '\n') crlf += '\r';
    crlf += c;
  }
  EXPECT_EQ(Certificate::decodePem("Subject: example\n" + crlf + "trailing text"),
            held.certificate());
}

TEST(CertificateTest, DecodePemChainKeepsOrderAndSkipsKeys) {
  HeldCertificate a = HeldCertificate::Builder().commonName("a").build();
  HeldCertificate b = HeldCertificate::Builder().commonName("b").build();
  std::vector<Certificate> chain = Certificate::decodePemChain(
      a.certificatePem() + a.privateKeyPkcs8Pem() + "# comment\n" + b.certificatePem());
  EXPECT_THAT(chain, ElementsAre(a.certificate(), b.certificate()));
}

TEST(CertificateTest, DecodePemWantsExactlyOneCertificate) {
  HeldCertificate a = HeldCertificate::Builder().build();
  EXPECT_THAT(decodeError(a.certificatePem() + a.certificatePem()),
              HasSubstr("expected 1 CERTIFICATE PEM block, found 2"));
  EXPECT_EQ(decodeError(""), "failed to decode certificate: no CERTIFICATE PEM block");
  EXPECT_EQ(decodeError(a.privateKeyPkcs8Pem()),
            "failed to decode certificate: no CERTIFICATE PEM block (found PRIVATE KEY)");
  EXPECT_THROW(Certificate::decodePemChain("no pem here"), std::invalid_argument);
}

TEST(CertificateTest, GarbageIsRejectedWithMessages) {
  EXPECT_EQ(decodeError("-----BEGIN CERTIFICATE-----\nMIIB\n"),
            "failed to decode certificate: unterminated PEM block CERTIFICATE");
  EXPECT_EQ(decodeError("-----BEGIN CERTIFICATE-----\nMII!\n-----END CERTIFICATE-----\n"),
            "failed to decode certificate: PEM block CERTIFICATE is not base64");
  EXPECT_EQ(decodeError("-----BEGIN CERTIFICATE-----\nA\n-----END CERTIFICATE-----\n"),
            "failed to decode certificate: PEM block CERTIFICATE is not base64");
  EXPECT_EQ(decodeError("-----BEGIN CERTIFICATE-----\nMII\n-----END PRIVATE KEY-----\n"),
            "failed to decode certificate: unterminated PEM block CERTIFICATE");
  EXPECT_EQ(decodeError("-----BEGIN CERT\nIFICATE-----\n"),
            "failed to decode certificate: malformed PEM BEGIN line");
  EXPECT_THAT(decodeError("-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n"),
              StartsWith("failed to decode certificate: error:"));  // OpenSSL's reason follows.
  EXPECT_EQ(decodeError("-----BEGIN CERTIFICATE-----\n\n-----END CERTIFICATE-----\n"),
            "failed to decode certificate: no bytes");
}

TEST(CertificateTest, FromDerRejectsTruncatedAndTrailingBytes) {
  std::vector<uint8_t> der = HeldCertificate::Builder().build().certificate().der();
  std::vector<uint8_t> truncated(der.begin(), der.end() - 1);
  EXPECT_THROW(Certificate::fromDer(truncated), std::invalid_argument);
  std::vector<uint8_t> trailing = der;
  trailing.push_back(0);
  try {
    Certificate::fromDer(trailing);
    FAIL();
  } catch (const std::invalid_argument& e) {
    EXPECT_STREQ(e.what(), "failed to decode certificate: 1 trailing bytes after the certificate");
  }
  EXPECT_THROW(Certificate::fromDer({}), std::invalid_argument);
  // Nothing is left on OpenSSL's error queue to confuse a later caller.
  EXPECT_EQ(internal::takeOpenSslErrors(), "");
}

TEST(CertificateTest, PinIsSha256OfThePublicKeyInfo) {
  tls::KeyPair key = tls::KeyPair::generateEcdsa256();
  HeldCertificate held = HeldCertificate::Builder().keyPair(key).build();
  std::vector<uint8_t> expected = internal::sha256(key.publicKeyDer());
  EXPECT_EQ(held.certificate().publicKeySha256(), expected);
  EXPECT_EQ(held.certificate().pin(), "sha256/" + internal::encodeBase64(expected));
  EXPECT_EQ(held.certificate().pin().size(), 7u + 44u);
}

TEST(CertificateTest, CopiesAreEqualAndHashAlike) {
  Certificate a = HeldCertificate::Builder().build().certificate();
  Certificate copy = a;
  Certificate b = HeldCertificate::Builder().build().certificate();
  EXPECT_EQ(a, copy);
  EXPECT_FALSE(a == b);
  std::unordered_set<Certificate> set{a, copy, b, Certificate::fromDer(a.der())};
  EXPECT_EQ(set.size(), 2u);
}

TEST(CertificateTest, CertificateMadeElsewhereReadsRight) {
  // Built through OpenSSL's API rather than our builder, to read a subject of several attributes,
  // two CNs and a comma to escape, and a certificate without extensions.
  internal::UniqueX509 x509(X509_new());
  X509_NAME* name = X509_get_subject_name(x509.get());
  for (auto [field, value] : {std::pair{"C", "US"}, std::pair{"O", "Square, Inc."},
                              std::pair{"CN", "first"}, std::pair{"CN", "second"}}) {
    ASSERT_EQ(X509_NAME_add_entry_by_txt(name, field, MBSTRING_UTF8,
                                         reinterpret_cast<const unsigned char*>(value), -1, -1, 0),
              1);
  }
  X509_set_issuer_name(x509.get(), name);
  ASN1_INTEGER_set(X509_get_serialNumber(x509.get()), 0x1234);
  X509_gmtime_adj(X509_getm_notBefore(x509.get()), 0);
  X509_gmtime_adj(X509_getm_notAfter(x509.get()), 60);
  tls::KeyPair key = tls::KeyPair::generateEcdsa256();
  X509_set_pubkey(x509.get(), internal::toEvpPkey(key));
  ASSERT_GT(X509_sign(x509.get(), internal::toEvpPkey(key), EVP_sha256()), 0);

  Certificate certificate = internal::fromX509(x509.get());
  EXPECT_EQ(certificate.subject(), "CN=second,CN=first,O=Square\\, Inc.,C=US");
  EXPECT_EQ(certificate.commonName(), "second");
  EXPECT_EQ(certificate.serialNumber(), "1234");
  EXPECT_EQ(certificate.notAfter() - certificate.notBefore(), std::chrono::seconds(60));
  EXPECT_TRUE(certificate.dnsNames().empty());
  EXPECT_FALSE(certificate.isCertificateAuthority());
  EXPECT_EQ(certificate.basicConstraints(), -1);
  EXPECT_TRUE(certificate.isSelfSigned());
  // The Certificate shares the X509 but does not take the caller's reference.
  EXPECT_EQ(internal::toX509(certificate), x509.get());
  EXPECT_EQ(Certificate::fromDer(certificate.der()), certificate);
}

TEST(CertificateTest, CommonNameIsEmptyWithoutOne) {
  internal::UniqueX509 x509(X509_new());
  X509_NAME_add_entry_by_txt(X509_get_subject_name(x509.get()), "O", MBSTRING_UTF8,
                             reinterpret_cast<const unsigned char*>("org"), -1, -1, 0);
  tls::KeyPair key = tls::KeyPair::generateEcdsa256();
  X509_set_pubkey(x509.get(), internal::toEvpPkey(key));
  ASSERT_GT(X509_sign(x509.get(), internal::toEvpPkey(key), EVP_sha256()), 0);
  Certificate certificate = internal::fromX509(x509.get());
  EXPECT_EQ(certificate.commonName(), "");
  EXPECT_EQ(certificate.subject(), "O=org");
  EXPECT_EQ(certificate.issuer(), "");
  EXPECT_EQ(certificate.serialNumber(), "0");
}

}  // namespace
}  // namespace tern
