// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
// The spirit of OkHttp's CertificateChainCleanerTest.
#include "tls/certificate_chain_cleaner.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "tern/certificate_pinner.h"
#include "tern/exceptions.h"
#include "tern/tls/held_certificate.h"
#include "tls/openssl_access.h"
#include "tls/openssl_util.h"

namespace tern::internal {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using tls::HandshakeCertificates;
using tls::HeldCertificate;

CertificateChainCleaner cleanerTrusting(std::vector<Certificate> roots) {
  return CertificateChainCleaner(TrustRootIndex::of(std::move(roots)));
}

struct Pki {
  HeldCertificate root =
      HeldCertificate::Builder().commonName("root").certificateAuthority(2).build();
  HeldCertificate intermediate = HeldCertificate::Builder()
                                     .commonName("intermediate")
                                     .certificateAuthority(1)
                                     .signedBy(root)
                                     .build();
  HeldCertificate leaf =
      HeldCertificate::Builder().commonName("leaf").signedBy(intermediate).build();
};

TEST(CertificateChainCleanerTest, TrustedSelfSignedLeafIsTheWholeChain) {
  HeldCertificate root = HeldCertificate::Builder().build();
  EXPECT_THAT(cleanerTrusting({root.certificate()}).clean({root.certificate()}, "host"),
              ElementsAre(root.certificate()));
}

TEST(CertificateChainCleanerTest, RootIsAppendedWhenThePeerOmitsIt) {
  Pki pki;
  EXPECT_THAT(
      cleanerTrusting({pki.root.certificate()})
          .clean({pki.leaf.certificate(), pki.intermediate.certificate()}, "host"),
      ElementsAre(pki.leaf.certificate(), pki.intermediate.certificate(), pki.root.certificate()));
}

TEST(CertificateChainCleanerTest, ChainInOrderIsKept) {
  Pki pki;
  EXPECT_THAT(
      cleanerTrusting({pki.root.certificate()})
          .clean({pki.leaf.certificate(), pki.intermediate.certificate(), pki.root.certificate()},
                 "host"),
      ElementsAre(pki.leaf.certificate(), pki.intermediate.certificate(), pki.root.certificate()));
}

TEST(CertificateChainCleanerTest, OutOfOrderChainIsOrdered) {
  Pki pki;
  HeldCertificate second = HeldCertificate::Builder()
                               .commonName("second intermediate")
                               .certificateAuthority(0)
                               .signedBy(pki.intermediate)
                               .build();
  HeldCertificate leaf = HeldCertificate::Builder().signedBy(second).build();
  EXPECT_THAT(cleanerTrusting({pki.root.certificate()})
                  .clean({leaf.certificate(), pki.intermediate.certificate(), second.certificate()},
                         "host"),
              ElementsAre(leaf.certificate(), second.certificate(), pki.intermediate.certificate(),
                          pki.root.certificate()));
}

TEST(CertificateChainCleanerTest, UnrelatedCertificatesAreDropped) {
  Pki pki;
  HeldCertificate stranger = HeldCertificate::Builder().commonName("stranger").build();
  EXPECT_THAT(
      cleanerTrusting({pki.root.certificate()})
          .clean({pki.leaf.certificate(), stranger.certificate(), pki.intermediate.certificate()},
                 "host"),
      ElementsAre(pki.leaf.certificate(), pki.intermediate.certificate(), pki.root.certificate()));
}

TEST(CertificateChainCleanerTest, TrustedIntermediateEndsTheChainWhenTheRootIsUnknown) {
  Pki pki;
  EXPECT_THAT(cleanerTrusting({pki.intermediate.certificate()})
                  .clean({pki.leaf.certificate(), pki.intermediate.certificate()}, "host"),
              ElementsAre(pki.leaf.certificate(), pki.intermediate.certificate()));
  // If the peer sends the root too, the chain continues through it.
  EXPECT_THAT(
      cleanerTrusting({pki.intermediate.certificate()})
          .clean({pki.leaf.certificate(), pki.intermediate.certificate(), pki.root.certificate()},
                 "host"),
      ElementsAre(pki.leaf.certificate(), pki.intermediate.certificate(), pki.root.certificate()));
}

TEST(CertificateChainCleanerTest, UntrustedChainFails) {
  Pki pki;
  HeldCertificate otherRoot = HeldCertificate::Builder().certificateAuthority(0).build();
  try {
    cleanerTrusting({otherRoot.certificate()})
        .clean({pki.leaf.certificate(), pki.intermediate.certificate(), pki.root.certificate()},
               "example.com");
    FAIL();
  } catch (const SSLPeerUnverifiedException& e) {
    EXPECT_STREQ(e.what(), "Failed to find a trusted cert that signed CN=root (for example.com)");
  }
}

TEST(CertificateChainCleanerTest, SameNameDifferentKeyIsNotTheSigner) {
  Pki pki;
  // An impostor root with the right name but its own key signs nothing in this chain.
  HeldCertificate impostor =
      HeldCertificate::Builder().commonName("root").certificateAuthority(2).build();
  EXPECT_THROW(cleanerTrusting({impostor.certificate()})
                   .clean({pki.leaf.certificate(), pki.intermediate.certificate()}, "host"),
               SSLPeerUnverifiedException);
}

TEST(CertificateChainCleanerTest, ChainLongerThanNineSignersFails) {
  HeldCertificate root =
      HeldCertificate::Builder().commonName("root").certificateAuthority(20).build();
  HeldCertificate signer = root;
  std::vector<HeldCertificate> intermediates;
  for (int i = 0; i < 10; ++i) {
    signer = HeldCertificate::Builder()
                 .commonName("intermediate " + std::to_string(i))
                 .certificateAuthority(20)
                 .signedBy(signer)
                 .build();
    intermediates.push_back(signer);
  }
  HeldCertificate leaf = HeldCertificate::Builder().commonName("leaf").signedBy(signer).build();
  std::vector<Certificate> chain{leaf.certificate()};
  for (auto it = intermediates.rbegin(); it != intermediates.rend(); ++it) {
    chain.push_back(it->certificate());
  }
  CertificateChainCleaner cleaner = cleanerTrusting({root.certificate()});
  try {
    cleaner.clean(chain, "host");
    FAIL();
  } catch (const SSLPeerUnverifiedException& e) {
    EXPECT_THAT(e.what(), HasSubstr("Certificate chain too long: [CN=leaf, CN=intermediate 9"));
  }
  // A leaf under intermediate 7 has eight intermediates and the root above it: nine signers,
  // the most the cleaner follows.
  HeldCertificate leaf7 = HeldCertificate::Builder().signedBy(intermediates[7]).build();
  std::vector<Certificate> nine{leaf7.certificate()};
  for (int i = 7; i >= 0; --i) nine.push_back(intermediates[i].certificate());
  EXPECT_EQ(cleaner.clean(nine, "host").size(), 10u);
}

TEST(CertificateChainCleanerTest, EmptyChainIsMisuse) {
  EXPECT_THROW(cleanerTrusting({}).clean({}, "host"), std::invalid_argument);
}

TEST(CertificateChainCleanerTest, StoreIndexFindsRoots) {
  Pki pki;
  HandshakeCertificates certificates =
      HandshakeCertificates::Builder().addTrustedCertificate(pki.root.certificate()).build();
  UniqueX509Store store(newTrustStore(certificates));
  CertificateChainCleaner cleaner(TrustRootIndex::of(store.get()));
  store.reset();  // The index keeps its own reference.
  EXPECT_THAT(
      cleaner.clean({pki.leaf.certificate(), pki.intermediate.certificate()}, "host"),
      ElementsAre(pki.leaf.certificate(), pki.intermediate.certificate(), pki.root.certificate()));
  EXPECT_EQ(takeOpenSslErrors(), "");
}

TEST(CertificateChainCleanerTest, GetUsesTheHandshakeCertificatesRoots) {
  Pki pki;
  CertificateChainCleaner cleaner = CertificateChainCleaner::get(
      HandshakeCertificates::Builder().addTrustedCertificate(pki.root.certificate()).build());
  EXPECT_EQ(cleaner.clean({pki.leaf.certificate(), pki.intermediate.certificate()}, "host").size(),
            3u);
  CertificateChainCleaner platform =
      CertificateChainCleaner::get(HandshakeCertificates::Builder()
                                       .addTrustedCertificate(pki.root.certificate())
                                       .addPlatformTrustedCertificates()
                                       .build());
  EXPECT_EQ(platform.clean({pki.leaf.certificate(), pki.intermediate.certificate()}, "host").size(),
            3u);
}

TEST(CertificateChainCleanerTest, PinsAreCheckedAgainstTheCleanedChain) {
  // The peer sends only leaf + intermediate; pinning the root still works because the cleaned
  // chain ends with it.
  Pki pki;
  CertificatePinner pinner =
      CertificatePinner::Builder().add("example.com", {pki.root.certificate().pin()}).build();
  std::vector<Certificate> presented{pki.leaf.certificate(), pki.intermediate.certificate()};
  EXPECT_THROW(pinner.check("example.com", presented), SSLPeerUnverifiedException);
  std::vector<Certificate> cleaned =
      cleanerTrusting({pki.root.certificate()}).clean(presented, "example.com");
  EXPECT_NO_THROW(pinner.check("example.com", cleaned));
}

}  // namespace
}  // namespace tern::internal
