// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
// The spirit of OkHttp's CertificatePinnerTest.
#include "tern/certificate_pinner.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "tern/exceptions.h"
#include "tern/tls/held_certificate.h"

namespace tern {
namespace {

using ::testing::ElementsAre;
using ::testing::IsEmpty;
using tls::HeldCertificate;

class CertificatePinnerTest : public ::testing::Test {
 protected:
  HeldCertificate certA1 = HeldCertificate::Builder().commonName("a1").serialNumber(100).build();
  std::string certA1Pin = certA1.certificate().pin();
  HeldCertificate certB1 = HeldCertificate::Builder().commonName("b1").serialNumber(200).build();
  std::string certB1Pin = certB1.certificate().pin();
  HeldCertificate certC1 = HeldCertificate::Builder().commonName("c1").serialNumber(300).build();
  std::string certC1Pin = certC1.certificate().pin();
};

std::string badPinMessage(std::string_view pattern, std::string_view pin) {
  try {
    CertificatePinner::Builder().add(pattern, {pin});
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return "no exception";
}

TEST_F(CertificatePinnerTest, PinIsSha256OfPublicKey) {
  EXPECT_EQ(CertificatePinner::pin(certA1.certificate()), certA1Pin);
  EXPECT_EQ(certA1Pin.rfind("sha256/", 0), 0u);
  // Same key, different certificate: same pin.
  HeldCertificate sameKey = HeldCertificate::Builder().keyPair(certA1.keyPair()).build();
  EXPECT_EQ(CertificatePinner::pin(sameKey.certificate()), certA1Pin);
}

TEST_F(CertificatePinnerTest, MalformedPinsAreRejectedByName) {
  EXPECT_EQ(badPinMessage("example.com", "md5/DmxUShsZuNiqPQsX2Oi9uv2sCnw="),
            "pins must start with 'sha256/': md5/DmxUShsZuNiqPQsX2Oi9uv2sCnw=");
  // OkHttp still accepts legacy sha1/ pins; tern only pins with SHA-256.
  EXPECT_EQ(badPinMessage("example.com", "sha1/DmxUShsZuNiqPQsX2Oi9uv2sCnw="),
            "pins must start with 'sha256/': sha1/DmxUShsZuNiqPQsX2Oi9uv2sCnw=");
  EXPECT_EQ(badPinMessage("example.com", "sha256/%"), "Invalid pin hash: sha256/%");
  EXPECT_EQ(badPinMessage("example.com", "sha256/AAAA"), "Invalid pin hash: sha256/AAAA");
  EXPECT_EQ(badPinMessage("example.com", ""), "pins must start with 'sha256/': ");
}

TEST_F(CertificatePinnerTest, MalformedPatternsAreRejectedByName) {
  EXPECT_EQ(badPinMessage("*.*.example.com", certA1Pin), "Unexpected pattern: *.*.example.com");
  EXPECT_EQ(badPinMessage("a*.example.com", certA1Pin), "Unexpected pattern: a*.example.com");
  EXPECT_EQ(badPinMessage("example.*.com", certA1Pin), "Unexpected pattern: example.*.com");
  EXPECT_EQ(badPinMessage("***.example.com", certA1Pin), "Unexpected pattern: ***.example.com");
  EXPECT_EQ(badPinMessage("*", certA1Pin), "Unexpected pattern: *");
  EXPECT_EQ(badPinMessage("", certA1Pin), "Invalid pattern: ");
  EXPECT_EQ(badPinMessage("exa mple.com", certA1Pin), "Invalid pattern: exa mple.com");
  EXPECT_EQ(badPinMessage("*.", certA1Pin), "Invalid pattern: *.");
}

TEST_F(CertificatePinnerTest, PatternsAreCanonicalized) {
  CertificatePinner pinner = CertificatePinner::Builder()
                                 .add("EXAMPLE.com", {certA1Pin})
                                 .add(
                                     "*.B\xc3\xbc"
                                     "cher.example",
                                     {certA1Pin})
                                 .add("**.Example.org", {certA1Pin})
                                 .add("[::1]", {certA1Pin})
                                 .build();
  std::vector<std::string> patterns;
  for (const auto& pin : pinner.pins()) patterns.push_back(pin.pattern());
  EXPECT_THAT(patterns,
              ElementsAre("example.com", "*.xn--bcher-kva.example", "**.example.org", "::1"));
  EXPECT_EQ(pinner.pins()[0].hashAlgorithm(), "sha256");
  EXPECT_EQ(pinner.pins()[0].hash(), certA1.certificate().publicKeySha256());
  EXPECT_EQ(pinner.pins()[0].toString(), certA1Pin);
}

TEST_F(CertificatePinnerTest, SuccessfulCheck) {
  CertificatePinner pinner = CertificatePinner::Builder().add("example.com", {certA1Pin}).build();
  EXPECT_NO_THROW(pinner.check("example.com", {certA1.certificate()}));
}

TEST_F(CertificatePinnerTest, AnyPinnedCertificateInTheChainIsEnough) {
  CertificatePinner pinner =
      CertificatePinner::Builder().add("example.com", {certA1Pin, certB1Pin}).build();
  EXPECT_NO_THROW(pinner.check("example.com", {certB1.certificate()}));
  EXPECT_NO_THROW(pinner.check("example.com", {certC1.certificate(), certB1.certificate()}));
}

TEST_F(CertificatePinnerTest, UnpinnedHostsAreNotChecked) {
  CertificatePinner pinner = CertificatePinner::Builder().add("example.com", {certA1Pin}).build();
  EXPECT_NO_THROW(pinner.check("www.example.com", {certB1.certificate()}));
  EXPECT_NO_THROW(CertificatePinner::defaultPinner().check("example.com", {certB1.certificate()}));
  EXPECT_THAT(CertificatePinner::defaultPinner().pins(), IsEmpty());
}

TEST_F(CertificatePinnerTest, PinMismatchMessageIsOkHttps) {
  CertificatePinner pinner =
      CertificatePinner::Builder().add("example.com", {certA1Pin, certC1Pin}).build();
  try {
    pinner.check("example.com", {certB1.certificate()});
    FAIL() << "expected a pin mismatch";
  } catch (const SSLPeerUnverifiedException& e) {
    EXPECT_EQ(std::string(e.what()),
              "Certificate pinning failure!\n"
              "  Peer certificate chain:\n"
              "    " +
                  certB1Pin +
                  ": CN=b1\n"
                  "  Pinned certificates for example.com:\n"
                  "    " +
                  certA1Pin +
                  "\n"
                  "    " +
                  certC1Pin);
  }
}

TEST_F(CertificatePinnerTest, MismatchIsAnIOException) {
  CertificatePinner pinner = CertificatePinner::Builder().add("example.com", {certA1Pin}).build();
  EXPECT_THROW(pinner.check("example.com", {certB1.certificate()}), SSLException);
  EXPECT_THROW(pinner.check("example.com", {certB1.certificate()}), IOException);
  EXPECT_THROW(pinner.check("example.com", {}), SSLPeerUnverifiedException);
}

TEST_F(CertificatePinnerTest, SingleWildcardMatchesExactlyOneLabel) {
  CertificatePinner pinner = CertificatePinner::Builder().add("*.example.com", {certA1Pin}).build();
  EXPECT_THAT(pinner.findMatchingPins("www.example.com"), ElementsAre(pinner.pins()[0]));
  EXPECT_THAT(pinner.findMatchingPins("example.com"), IsEmpty());
  EXPECT_THAT(pinner.findMatchingPins("a.b.example.com"), IsEmpty());
  EXPECT_THAT(pinner.findMatchingPins(".example.com"), IsEmpty());
  EXPECT_THAT(pinner.findMatchingPins("wwwexample.com"), IsEmpty());
  EXPECT_THROW(pinner.check("www.example.com", {certB1.certificate()}), SSLPeerUnverifiedException);
  EXPECT_NO_THROW(pinner.check("a.b.example.com", {certB1.certificate()}));
}

TEST_F(CertificatePinnerTest, DoubleWildcardMatchesAnyDepthIncludingNone) {
  CertificatePinner pinner =
      CertificatePinner::Builder().add("**.example.com", {certA1Pin}).build();
  EXPECT_THAT(pinner.findMatchingPins("example.com"), ElementsAre(pinner.pins()[0]));
  EXPECT_THAT(pinner.findMatchingPins("www.example.com"), ElementsAre(pinner.pins()[0]));
  EXPECT_THAT(pinner.findMatchingPins("a.b.example.com"), ElementsAre(pinner.pins()[0]));
  EXPECT_THAT(pinner.findMatchingPins("badexample.com"), IsEmpty());
  EXPECT_THAT(pinner.findMatchingPins("example.com.evil"), IsEmpty());
  EXPECT_THAT(pinner.findMatchingPins(".example.com"), IsEmpty());
}

TEST_F(CertificatePinnerTest, FindMatchingPinsCombinesPatterns) {
  CertificatePinner pinner = CertificatePinner::Builder()
                                 .add("*.example.com", {certA1Pin})
                                 .add("www.example.com", {certB1Pin})
                                 .add("**.example.com", {certC1Pin})
                                 .add("other.com", {certA1Pin})
                                 .build();
  std::vector<CertificatePinner::Pin> pins = pinner.findMatchingPins("www.example.com");
  ASSERT_EQ(pins.size(), 3u);
  EXPECT_EQ(pins[0].toString(), certA1Pin);
  EXPECT_EQ(pins[1].toString(), certB1Pin);
  EXPECT_EQ(pins[2].toString(), certC1Pin);
  // A certificate pinned by any matching pattern passes.
  EXPECT_NO_THROW(pinner.check("www.example.com", {certB1.certificate()}));
  EXPECT_NO_THROW(pinner.check("www.example.com", {certC1.certificate()}));
  EXPECT_THAT(pinner.findMatchingPins("other.com"), ::testing::SizeIs(1));
  EXPECT_THAT(pinner.findMatchingPins("example.net"), IsEmpty());
}

TEST_F(CertificatePinnerTest, PinsAreDeduplicatedAndComparable) {
  CertificatePinner a = CertificatePinner::Builder()
                            .add("example.com", {certA1Pin, certA1Pin})
                            .add("EXAMPLE.com", {certA1Pin})
                            .build();
  EXPECT_EQ(a.pins().size(), 1u);
  CertificatePinner b =
      CertificatePinner::Builder().add("example.com", std::vector<std::string>{certA1Pin}).build();
  EXPECT_EQ(a, b);
  EXPECT_FALSE(a == CertificatePinner::defaultPinner());
}

TEST_F(CertificatePinnerTest, PinMatchesCertificate) {
  CertificatePinner::Pin pin("example.com", certA1Pin);
  EXPECT_TRUE(pin.matchesCertificate(certA1.certificate()));
  EXPECT_FALSE(pin.matchesCertificate(certB1.certificate()));
  EXPECT_TRUE(pin.matchesHostname("example.com"));
  EXPECT_FALSE(pin.matchesHostname("www.example.com"));
}

}  // namespace
}  // namespace tern
