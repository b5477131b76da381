// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#include "tern/tls/held_certificate.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <chrono>
#include <regex>

namespace tern::tls {
namespace {

using namespace std::chrono_literals;
using std::chrono::system_clock;
using ::testing::ElementsAre;
using ::testing::HasSubstr;

system_clock::time_point seconds(int64_t s) {
  return system_clock::time_point(std::chrono::seconds(s));
}

TEST(HeldCertificateTest, DefaultsAreOkHttps) {
  // A second early (see HeldCertificate::Builder).
  auto before = std::chrono::floor<std::chrono::seconds>(system_clock::now()) - 1s;
  HeldCertificate held = HeldCertificate::Builder().build();
  auto after = system_clock::now();
  const Certificate& certificate = held.certificate();

  EXPECT_EQ(certificate.serialNumber(), "1");
  EXPECT_EQ(certificate.publicKeyAlgorithm(), "EC");
  EXPECT_EQ(held.keyPair().algorithm(), "EC");
  // A random UUID as the common name, and a self-signed certificate.
  EXPECT_TRUE(std::regex_match(certificate.commonName(),
                               std::regex("[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-"
                                          "[0-9a-f]{12}")))
      << certificate.commonName();
  EXPECT_EQ(certificate.subject(), "CN=" + certificate.commonName());
  EXPECT_EQ(certificate.issuer(), certificate.subject());
  EXPECT_TRUE(certificate.isSelfSigned());
  EXPECT_FALSE(certificate.isCertificateAuthority());
  EXPECT_EQ(certificate.basicConstraints(), -1);
  EXPECT_TRUE(certificate.dnsNames().empty());
  EXPECT_TRUE(certificate.ipAddresses().empty());
  // Valid for 24 hours from now.
  EXPECT_GE(certificate.notBefore(), before);
  EXPECT_LE(certificate.notBefore(), after);
  EXPECT_EQ(certificate.notAfter() - certificate.notBefore(), 24h);
}

TEST(HeldCertificateTest, EachBuildMakesANewKeyAndName) {
  HeldCertificate::Builder builder;
  HeldCertificate a = builder.build();
  HeldCertificate b = builder.build();
  EXPECT_FALSE(a.keyPair() == b.keyPair());
  EXPECT_NE(a.certificate().commonName(), b.certificate().commonName());
  EXPECT_NE(a.certificate().pin(), b.certificate().pin());
}

TEST(HeldCertificateTest, BuilderOptionsAreVisibleInTheCertificate) {
  HeldCertificate held = HeldCertificate::Builder()
                             .validityInterval(seconds(5'000), seconds(10'000))
                             .commonName("cash.app")
                             .organizationalUnit("engineering")
                             .serialNumber(42)
                             .addSubjectAlternativeName("cash.app")
                             .addSubjectAlternativeName("*.cash.app")
                             .addSubjectAlternativeName("1.1.1.1")
                             .addSubjectAlternativeName("::1")
                             .build();
  const Certificate& certificate = held.certificate();
  EXPECT_EQ(certificate.serialNumber(), "2a");
  EXPECT_EQ(certificate.subject(), "CN=cash.app,OU=engineering");
  EXPECT_EQ(certificate.commonName(), "cash.app");
  EXPECT_EQ(certificate.notBefore(), seconds(5'000));
  EXPECT_EQ(certificate.notAfter(), seconds(10'000));
  EXPECT_THAT(certificate.dnsNames(), ElementsAre("cash.app", "*.cash.app"));
  EXPECT_THAT(certificate.ipAddresses(), ElementsAre("1.1.1.1", "::1"));
}

TEST(HeldCertificateTest, IpAddressesAreWrittenCanonically) {
  HeldCertificate held = HeldCertificate::Builder()
                             .addSubjectAlternativeName("0:0:0:0:0:0:0:1")
                             .addSubjectAlternativeName("2001:DB8:0::1")
                             .addSubjectAlternativeName("[fe80::1]")
                             .build();
  EXPECT_THAT(held.certificate().ipAddresses(), ElementsAre("::1", "2001:db8::1", "fe80::1"));
  EXPECT_TRUE(held.certificate().dnsNames().empty());
}

TEST(HeldCertificateTest, DurationStartsNow) {
  // A second early (see HeldCertificate::Builder).
  auto before = std::chrono::floor<std::chrono::seconds>(system_clock::now()) - 1s;
  HeldCertificate held = HeldCertificate::Builder().duration(std::chrono::hours(24 * 365)).build();
  EXPECT_GE(held.certificate().notBefore(), before);
  EXPECT_EQ(held.certificate().notAfter() - held.certificate().notBefore(), 24h * 365);
}

TEST(HeldCertificateTest, FarFutureDatesUseGeneralizedTime) {
  // 2100-01-01 needs GeneralizedTime (RFC 5280 §4.1.2.5); 1960 needs UTCTime's 19xx range.
  HeldCertificate held = HeldCertificate::Builder()
                             .validityInterval(seconds(-315'619'200), seconds(4'102'444'800))
                             .build();
  EXPECT_EQ(held.certificate().notBefore(), seconds(-315'619'200));
  EXPECT_EQ(held.certificate().notAfter(), seconds(4'102'444'800));
}

TEST(HeldCertificateTest, CertificateAuthorityHasBasicConstraints) {
  HeldCertificate root = HeldCertificate::Builder().certificateAuthority(2).build();
  EXPECT_TRUE(root.certificate().isCertificateAuthority());
  EXPECT_EQ(root.certificate().basicConstraints(), 2);
  HeldCertificate leafCa = HeldCertificate::Builder().certificateAuthority(0).build();
  EXPECT_EQ(leafCa.certificate().basicConstraints(), 0);
}

TEST(HeldCertificateTest, SignedByNamesTheIssuer) {
  HeldCertificate root =
      HeldCertificate::Builder().commonName("root").certificateAuthority(1).build();
  HeldCertificate intermediate = HeldCertificate::Builder()
                                     .commonName("intermediate")
                                     .certificateAuthority(0)
                                     .signedBy(root)
                                     .build();
  HeldCertificate leaf =
      HeldCertificate::Builder().commonName("leaf").signedBy(intermediate).build();

  EXPECT_EQ(intermediate.certificate().issuer(), "CN=root");
  EXPECT_EQ(leaf.certificate().issuer(), "CN=intermediate");
  EXPECT_TRUE(leaf.certificate().isSignedBy(intermediate.certificate()));
  EXPECT_FALSE(leaf.certificate().isSignedBy(root.certificate()));
  EXPECT_TRUE(intermediate.certificate().isSignedBy(root.certificate()));
  EXPECT_FALSE(leaf.certificate().isSelfSigned());
  EXPECT_TRUE(root.certificate().isSelfSigned());
}

TEST(HeldCertificateTest, Rsa2048) {
  HeldCertificate held = HeldCertificate::Builder().rsa2048().build();
  EXPECT_EQ(held.certificate().publicKeyAlgorithm(), "RSA");
  EXPECT_EQ(held.keyPair().algorithm(), "RSA");
  EXPECT_THAT(held.privateKeyPkcs1Pem(), HasSubstr("-----BEGIN RSA PRIVATE KEY-----\n"));
  EXPECT_TRUE(held.certificate().isSelfSigned());
}

TEST(HeldCertificateTest, EcdsaLeafSignedByRsaRoot) {
  HeldCertificate rsaRoot = HeldCertificate::Builder().rsa2048().certificateAuthority(0).build();
  HeldCertificate ecLeaf = HeldCertificate::Builder().ecdsa256().signedBy(rsaRoot).build();
  EXPECT_EQ(ecLeaf.certificate().publicKeyAlgorithm(), "EC");
  EXPECT_TRUE(ecLeaf.certificate().isSignedBy(rsaRoot.certificate()));
}

TEST(HeldCertificateTest, ExistingKeyPairIsUsed) {
  KeyPair key = KeyPair::generateEcdsa256();
  HeldCertificate a = HeldCertificate::Builder().keyPair(key).build();
  HeldCertificate b = HeldCertificate::Builder().keyPair(key).build();
  EXPECT_TRUE(a.keyPair() == key);
  EXPECT_EQ(a.certificate().pin(), b.certificate().pin());
  EXPECT_EQ(a.certificate().publicKeySha256(), b.certificate().publicKeySha256());
}

TEST(HeldCertificateTest, CertificateCarriesTheKeyPairsPublicKey) {
  KeyPair key = KeyPair::generateEcdsa256();
  HeldCertificate held = HeldCertificate::Builder().keyPair(key).build();
  EXPECT_EQ(held.keyPair().publicKeyDer(), key.publicKeyDer());
}

TEST(HeldCertificateTest, EncodeAndDecodeRoundTrip) {
  HeldCertificate held = HeldCertificate::Builder()
                             .commonName("cash.app")
                             .addSubjectAlternativeName("cash.app")
                             .build();
  HeldCertificate decoded =
      HeldCertificate::decode(held.certificatePem() + held.privateKeyPkcs8Pem());
  EXPECT_TRUE(decoded == held);
  EXPECT_EQ(decoded.certificate(), held.certificate());
  EXPECT_EQ(decoded.privateKeyPkcs8Pem(), held.privateKeyPkcs8Pem());
}

TEST(HeldCertificateTest, DecodeIgnoresTextAndAcceptsKeyFirst) {
  HeldCertificate held = HeldCertificate::Builder().rsa2048().build();
  HeldCertificate decoded = HeldCertificate::decode("my key\n" + held.privateKeyPkcs8Pem() +
                                                    "\nmy certificate\n" + held.certificatePem());
  EXPECT_TRUE(decoded == held);
}

TEST(HeldCertificateTest, DecodeRejectsWhatOkHttpRejects) {
  HeldCertificate held = HeldCertificate::Builder().build();
  std::string certificate = held.certificatePem();
  std::string key = held.privateKeyPkcs8Pem();
  auto message = [](const std::string& pem) {
    try {
      HeldCertificate::decode(pem);
    } catch (const std::invalid_argument& e) {
      return std::string(e.what());
    }
    return std::string("no exception");
  };
  EXPECT_EQ(message(certificate + certificate + key), "string includes multiple certificates");
  EXPECT_EQ(message(certificate + key + key), "string includes multiple private keys");
  EXPECT_EQ(message(key), "string does not include a certificate");
  EXPECT_EQ(message(certificate), "string does not include a private key");
  EXPECT_EQ(message(certificate +
                    "-----BEGIN RSA PRIVATE KEY-----\nAAAA\n-----END RSA PRIVATE KEY-----\n" + key),
            "unexpected type: RSA PRIVATE KEY");
  EXPECT_EQ(message(""), "string does not include a certificate");
}

TEST(HeldCertificateTest, DecodeRejectsAKeyOfAnotherCertificate) {
  HeldCertificate a = HeldCertificate::Builder().commonName("a").build();
  HeldCertificate b = HeldCertificate::Builder().commonName("b").build();
  try {
    HeldCertificate::decode(a.certificatePem() + b.privateKeyPkcs8Pem());
    FAIL();
  } catch (const std::invalid_argument& e) {
    EXPECT_THAT(e.what(), HasSubstr("does not match the certificate CN=a"));
  }
  EXPECT_THROW(HeldCertificate(b.keyPair(), a.certificate()), std::invalid_argument);
}

TEST(HeldCertificateTest, DecodeRejectsGarbageWithAMessage) {
  EXPECT_THROW(HeldCertificate::decode("-----BEGIN CERTIFICATE-----\nAAAA\n-----END "
                                       "CERTIFICATE-----\n-----BEGIN PRIVATE KEY-----\nAAAA\n"
                                       "-----END PRIVATE KEY-----\n"),
               std::invalid_argument);
  try {
    HeldCertificate::decode("-----BEGIN CERTIFICATE-----\nAAAA\n");
    FAIL();
  } catch (const std::invalid_argument& e) {
    EXPECT_THAT(e.what(), HasSubstr("unterminated PEM block CERTIFICATE"));
  }
}

TEST(HeldCertificateTest, BuilderRejectsBadArguments) {
  HeldCertificate::Builder builder;
  EXPECT_THROW(builder.validityInterval(seconds(2), seconds(1)), std::invalid_argument);
  EXPECT_THROW(builder.duration(std::chrono::seconds(-1)), std::invalid_argument);
  EXPECT_THROW(builder.serialNumber(-1), std::invalid_argument);
  EXPECT_THROW(builder.addSubjectAlternativeName(""), std::invalid_argument);
  EXPECT_THROW(builder.addSubjectAlternativeName("bad name"), std::invalid_argument);
  EXPECT_THROW(builder.addSubjectAlternativeName("b\xc3\xbc"
                                                 "cher.example"),
               std::invalid_argument);
  try {
    builder.certificateAuthority(-1);
    FAIL();
  } catch (const std::invalid_argument& e) {
    EXPECT_STREQ(e.what(), "maxIntermediateCas < 0: -1");
  }
  // RFC 5280's upper bound for a common name is 64 characters.
  builder.commonName(std::string(65, 'a'));
  EXPECT_THROW(builder.build(), std::invalid_argument);
}

TEST(HeldCertificateTest, Utf8CommonNameIsKept) {
  HeldCertificate held = HeldCertificate::Builder()
                             .commonName(
                                 "b\xc3\xbc"
                                 "cher")
                             .build();
  EXPECT_EQ(held.certificate().commonName(),
            "b\xc3\xbc"
            "cher");
  EXPECT_EQ(held.certificate().subject(),
            "CN=b\xc3\xbc"
            "cher");
}

}  // namespace
}  // namespace tern::tls
