// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#include "tern/tls/handshake_certificates.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>

#include "tls/tls_test_util.h"

namespace tern::tls {
namespace {

using namespace std::chrono_literals;
using std::chrono::system_clock;
using tern::testing::handshake;
using tern::testing::HandshakeOutcome;
using tern::testing::newClientContext;
using tern::testing::newServerContext;
using ::testing::ElementsAre;
using ::testing::HasSubstr;

// A root CA, an intermediate CA and a localhost leaf, as a real deployment has them.
struct Pki {
  HeldCertificate root =
      HeldCertificate::Builder().commonName("root").certificateAuthority(1).build();
  HeldCertificate intermediate = HeldCertificate::Builder()
                                     .commonName("intermediate")
                                     .certificateAuthority(0)
                                     .signedBy(root)
                                     .build();
  HeldCertificate server = HeldCertificate::Builder()
                               .commonName("localhost")
                               .addSubjectAlternativeName("localhost")
                               .signedBy(intermediate)
                               .build();
};

HandshakeOutcome run(const HandshakeCertificates& client, const HandshakeCertificates& server,
                     int serverVerifyMode = SSL_VERIFY_NONE) {
  auto clientContext = newClientContext();
  auto serverContext = newServerContext();
  internal::configureClient(client, clientContext.get());
  internal::configureServer(server, serverContext.get());
  SSL_CTX_set_verify(serverContext.get(), serverVerifyMode, nullptr);
  return handshake(clientContext.get(), serverContext.get());
}

TEST(HandshakeCertificatesTest, BuilderCollectsWhatWasAdded) {
  Pki pki;
  HandshakeCertificates certificates =
      HandshakeCertificates::Builder()
          .addTrustedCertificate(pki.root.certificate())
          .addTrustedCertificate(pki.root.certificate())  // A duplicate is kept once.
          .heldCertificate(pki.server, {pki.intermediate.certificate()})
          .build();
  EXPECT_THAT(certificates.trustedCertificates(), ElementsAre(pki.root.certificate()));
  ASSERT_TRUE(certificates.heldCertificate());
  EXPECT_TRUE(*certificates.heldCertificate() == pki.server);
  EXPECT_THAT(certificates.intermediates(), ElementsAre(pki.intermediate.certificate()));
  EXPECT_FALSE(certificates.platformTrustedCertificates());

  HandshakeCertificates empty = HandshakeCertificates::Builder().build();
  EXPECT_TRUE(empty.trustedCertificates().empty());
  EXPECT_FALSE(empty.heldCertificate());
}

TEST(HandshakeCertificatesTest, ClientTrustingTheRootAcceptsTheServersChain) {
  Pki pki;
  HandshakeOutcome outcome =
      run(HandshakeCertificates::Builder().addTrustedCertificate(pki.root.certificate()).build(),
          HandshakeCertificates::Builder()
              .heldCertificate(pki.server, {pki.intermediate.certificate()})
              .build());
  EXPECT_TRUE(outcome.completed) << outcome.errors;
  EXPECT_EQ(outcome.clientVerifyResult, X509_V_OK);
  EXPECT_THAT(outcome.clientSawPeer,
              ElementsAre(pki.server.certificate(), pki.intermediate.certificate()));
  EXPECT_THAT(outcome.serverLocal,
              ElementsAre(pki.server.certificate(), pki.intermediate.certificate()));
}

TEST(HandshakeCertificatesTest, RsaServerCertificate) {
  HeldCertificate root = HeldCertificate::Builder().rsa2048().certificateAuthority(0).build();
  HeldCertificate server = HeldCertificate::Builder().rsa2048().signedBy(root).build();
  HandshakeOutcome outcome =
      run(HandshakeCertificates::Builder().addTrustedCertificate(root.certificate()).build(),
          HandshakeCertificates::Builder().heldCertificate(server).build());
  EXPECT_TRUE(outcome.completed) << outcome.errors;
}

TEST(HandshakeCertificatesTest, MissingIntermediateIsUntrusted) {
  Pki pki;
  HandshakeOutcome outcome =
      run(HandshakeCertificates::Builder().addTrustedCertificate(pki.root.certificate()).build(),
          HandshakeCertificates::Builder().heldCertificate(pki.server).build());
  EXPECT_FALSE(outcome.completed);
  EXPECT_EQ(outcome.clientVerifyResult, X509_V_ERR_UNABLE_TO_GET_ISSUER_CERT_LOCALLY);
  EXPECT_THAT(outcome.errors, HasSubstr("certificate verify failed"));
}

TEST(HandshakeCertificatesTest, ClientRejectsAServerSignedByAnotherRoot) {
  Pki pki;
  HeldCertificate otherRoot = HeldCertificate::Builder().certificateAuthority(1).build();
  HandshakeOutcome outcome =
      run(HandshakeCertificates::Builder().addTrustedCertificate(otherRoot.certificate()).build(),
          HandshakeCertificates::Builder()
              .heldCertificate(pki.server, {pki.intermediate.certificate(), pki.root.certificate()})
              .build());
  EXPECT_FALSE(outcome.completed);
  EXPECT_EQ(outcome.clientVerifyResult, X509_V_ERR_SELF_SIGNED_CERT_IN_CHAIN);
}

TEST(HandshakeCertificatesTest, ClientTrustingNothingRejectsEveryServer) {
  HeldCertificate server = HeldCertificate::Builder().build();
  HandshakeOutcome outcome = run(HandshakeCertificates::Builder().build(),
                                 HandshakeCertificates::Builder().heldCertificate(server).build());
  EXPECT_FALSE(outcome.completed);
  EXPECT_EQ(outcome.clientVerifyResult, X509_V_ERR_DEPTH_ZERO_SELF_SIGNED_CERT);
}

TEST(HandshakeCertificatesTest, SelfSignedLeafTrustedDirectly) {
  HeldCertificate server =
      HeldCertificate::Builder().addSubjectAlternativeName("localhost").build();
  HandshakeOutcome outcome =
      run(HandshakeCertificates::Builder().addTrustedCertificate(server.certificate()).build(),
          HandshakeCertificates::Builder().heldCertificate(server).build());
  EXPECT_TRUE(outcome.completed) << outcome.errors;
}

TEST(HandshakeCertificatesTest, TrustedIntermediateIsATrustAnchor) {
  // As in Java's PKIX: a trusted certificate anchors the chain even if it is not self-signed.
  Pki pki;
  HandshakeOutcome outcome = run(HandshakeCertificates::Builder()
                                     .addTrustedCertificate(pki.intermediate.certificate())
                                     .build(),
                                 HandshakeCertificates::Builder()
                                     .heldCertificate(pki.server, {pki.intermediate.certificate()})
                                     .build());
  EXPECT_TRUE(outcome.completed) << outcome.errors;
}

TEST(HandshakeCertificatesTest, ExpiredServerCertificateIsRejected) {
  HeldCertificate root = HeldCertificate::Builder().certificateAuthority(0).build();
  auto now = system_clock::now();
  HeldCertificate server =
      HeldCertificate::Builder().validityInterval(now - 48h, now - 24h).signedBy(root).build();
  HandshakeOutcome outcome =
      run(HandshakeCertificates::Builder().addTrustedCertificate(root.certificate()).build(),
          HandshakeCertificates::Builder().heldCertificate(server).build());
  EXPECT_FALSE(outcome.completed);
  EXPECT_EQ(outcome.clientVerifyResult, X509_V_ERR_CERT_HAS_EXPIRED);
}

TEST(HandshakeCertificatesTest, NotYetValidServerCertificateIsRejected) {
  HeldCertificate root = HeldCertificate::Builder().certificateAuthority(0).build();
  auto now = system_clock::now();
  HeldCertificate server =
      HeldCertificate::Builder().validityInterval(now + 24h, now + 48h).signedBy(root).build();
  HandshakeOutcome outcome =
      run(HandshakeCertificates::Builder().addTrustedCertificate(root.certificate()).build(),
          HandshakeCertificates::Builder().heldCertificate(server).build());
  EXPECT_FALSE(outcome.completed);
  EXPECT_EQ(outcome.clientVerifyResult, X509_V_ERR_CERT_NOT_YET_VALID);
}

TEST(HandshakeCertificatesTest, LeafCannotSignCertificates) {
  HeldCertificate root = HeldCertificate::Builder().certificateAuthority(0).build();
  HeldCertificate notCa = HeldCertificate::Builder().signedBy(root).build();
  HeldCertificate server = HeldCertificate::Builder().signedBy(notCa).build();
  HandshakeOutcome outcome =
      run(HandshakeCertificates::Builder().addTrustedCertificate(root.certificate()).build(),
          HandshakeCertificates::Builder().heldCertificate(server, {notCa.certificate()}).build());
  EXPECT_FALSE(outcome.completed);
  EXPECT_EQ(outcome.clientVerifyResult, X509_V_ERR_INVALID_CA);
}

TEST(HandshakeCertificatesTest, PathLengthIsEnforced) {
  // The root allows no intermediate CA, so a chain through one fails.
  HeldCertificate root = HeldCertificate::Builder().certificateAuthority(0).build();
  HeldCertificate intermediate =
      HeldCertificate::Builder().certificateAuthority(0).signedBy(root).build();
  HeldCertificate server = HeldCertificate::Builder().signedBy(intermediate).build();
  HandshakeOutcome outcome =
      run(HandshakeCertificates::Builder().addTrustedCertificate(root.certificate()).build(),
          HandshakeCertificates::Builder()
              .heldCertificate(server, {intermediate.certificate()})
              .build());
  EXPECT_FALSE(outcome.completed);
  EXPECT_EQ(outcome.clientVerifyResult, X509_V_ERR_PATH_LENGTH_EXCEEDED);
}

TEST(HandshakeCertificatesTest, MutualTlsClientCertificateAccepted) {
  Pki pki;
  HeldCertificate clientRoot =
      HeldCertificate::Builder().commonName("client root").certificateAuthority(0).build();
  HeldCertificate client =
      HeldCertificate::Builder().commonName("client").signedBy(clientRoot).build();
  HandshakeOutcome outcome = run(HandshakeCertificates::Builder()
                                     .addTrustedCertificate(pki.root.certificate())
                                     .heldCertificate(client)
                                     .build(),
                                 HandshakeCertificates::Builder()
                                     .addTrustedCertificate(clientRoot.certificate())
                                     .heldCertificate(pki.server, {pki.intermediate.certificate()})
                                     .build(),
                                 SSL_VERIFY_PEER | SSL_VERIFY_FAIL_IF_NO_PEER_CERT);
  EXPECT_TRUE(outcome.completed) << outcome.errors;
  EXPECT_EQ(outcome.serverVerifyResult, X509_V_OK);
  EXPECT_THAT(outcome.serverSawPeer, ElementsAre(client.certificate()));
}

TEST(HandshakeCertificatesTest, MutualTlsRequiredButClientHasNone) {
  Pki pki;
  HandshakeOutcome outcome =
      run(HandshakeCertificates::Builder().addTrustedCertificate(pki.root.certificate()).build(),
          HandshakeCertificates::Builder()
              .addTrustedCertificate(pki.root.certificate())
              .heldCertificate(pki.server, {pki.intermediate.certificate()})
              .build(),
          SSL_VERIFY_PEER | SSL_VERIFY_FAIL_IF_NO_PEER_CERT);
  EXPECT_FALSE(outcome.completed);
  EXPECT_THAT(outcome.errors, HasSubstr("peer did not return a certificate"));
}

TEST(HandshakeCertificatesTest, MutualTlsUntrustedClientCertificateRefused) {
  Pki pki;
  HeldCertificate stranger = HeldCertificate::Builder().commonName("stranger").build();
  HandshakeOutcome outcome = run(HandshakeCertificates::Builder()
                                     .addTrustedCertificate(pki.root.certificate())
                                     .heldCertificate(stranger)
                                     .build(),
                                 HandshakeCertificates::Builder()
                                     .addTrustedCertificate(pki.root.certificate())
                                     .heldCertificate(pki.server, {pki.intermediate.certificate()})
                                     .build(),
                                 SSL_VERIFY_PEER | SSL_VERIFY_FAIL_IF_NO_PEER_CERT);
  EXPECT_FALSE(outcome.completed);
  EXPECT_EQ(outcome.serverVerifyResult, X509_V_ERR_DEPTH_ZERO_SELF_SIGNED_CERT);
}

TEST(HandshakeCertificatesTest, ServerNeedsAHeldCertificate) {
  auto context = newServerContext();
  EXPECT_THROW(internal::configureServer(HandshakeCertificates::Builder().build(), context.get()),
               std::invalid_argument);
}

TEST(HandshakeCertificatesTest, ServerAdvertisesItsTrustedRootsForClientCertificates) {
  Pki pki;
  auto context = newServerContext();
  internal::configureServer(HandshakeCertificates::Builder()
                                .addTrustedCertificate(pki.root.certificate())
                                .heldCertificate(pki.server)
                                .build(),
                            context.get());
  STACK_OF(X509_NAME)* names = SSL_CTX_get_client_CA_list(context.get());
  ASSERT_EQ(sk_X509_NAME_num(names), 1);
  EXPECT_EQ(X509_NAME_cmp(sk_X509_NAME_value(names, 0),
                          X509_get_subject_name(internal::toX509(pki.root.certificate()))),
            0);
}

TEST(HandshakeCertificatesTest, PlatformTrustedCertificatesLoadTheSystemStore) {
  const char* bundle = X509_get_default_cert_file();
  if (!std::filesystem::exists(bundle)) {
    GTEST_SKIP() << "no system CA bundle at " << bundle;
  }
  HandshakeCertificates certificates =
      HandshakeCertificates::Builder().addPlatformTrustedCertificates().build();
  EXPECT_TRUE(certificates.platformTrustedCertificates());
  internal::UniqueX509Store store(internal::newTrustStore(certificates));
  EXPECT_GT(sk_X509_OBJECT_num(X509_STORE_get0_objects(store.get())), 10);

  // The system roots do not vouch for a certificate we made.
  HeldCertificate server = HeldCertificate::Builder().build();
  HandshakeOutcome outcome =
      run(certificates, HandshakeCertificates::Builder().heldCertificate(server).build());
  EXPECT_FALSE(outcome.completed);
}

TEST(HandshakeCertificatesTest, ClientVerifiesServerByDefault) {
  auto context = newClientContext();
  internal::configureClient(HandshakeCertificates::Builder().build(), context.get());
  EXPECT_EQ(SSL_CTX_get_verify_mode(context.get()), SSL_VERIFY_PEER);
}

}  // namespace
}  // namespace tern::tls
