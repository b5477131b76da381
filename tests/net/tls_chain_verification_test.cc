// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
// TlsContext::verifyServerChain: a server's chain from a handshake OpenSSL did not run (QUIC's, on
// GnuTLS) gets the verdict, and the message, that a TLS handshake over TCP gives the same chain.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <chrono>
#include <string>
#include <vector>

#include "net/tls_context.h"
#include "net/tls_failure.h"
#include "support/tls_certificates.h"
#include "tern/exceptions.h"
#include "tern/tls/handshake_certificates.h"
#include "tern/tls/held_certificate.h"

namespace tern::testing {
namespace {

using namespace std::chrono_literals;
using ::testing::HasSubstr;
using ::testing::MatchesRegex;

class TlsChainVerificationTest : public ::testing::Test {
 protected:
  // What verifyServerChain threw for `chain` presented by "localhost", or "" if it passed.
  std::string failureOf(const internal::TlsContext& context, const std::vector<Certificate>& chain,
                        bool* certificateCause = nullptr) {
    try {
      context.verifyServerChain(chain, "localhost", "localhost:4433");
    } catch (const SSLHandshakeException& e) {
      if (certificateCause != nullptr) *certificateCause = internal::isCertificateFailure(e);
      return e.what();
    }
    return "";
  }

  TestCertificates certificates;
  internal::TlsContext context{certificates.clientTrust()};
};

TEST_F(TlsChainVerificationTest, ChainToATrustedRootVerifies) {
  EXPECT_EQ(failureOf(context, {certificates.localhost.certificate()}), "");
}

TEST_F(TlsChainVerificationTest, ChainThroughAnIntermediateVerifies) {
  tls::HeldCertificate root =
      tls::HeldCertificate::Builder().certificateAuthority(1).commonName("root").build();
  tls::HeldCertificate intermediate = tls::HeldCertificate::Builder()
                                          .certificateAuthority(0)
                                          .commonName("intermediate")
                                          .signedBy(root)
                                          .build();
  tls::HeldCertificate leaf = tls::HeldCertificate::Builder()
                                  .commonName("localhost")
                                  .addSubjectAlternativeName("localhost")
                                  .signedBy(intermediate)
                                  .build();
  internal::TlsContext trustsRoot(
      tls::HandshakeCertificates::Builder().addTrustedCertificate(root.certificate()).build());
  EXPECT_EQ(failureOf(trustsRoot, {leaf.certificate(), intermediate.certificate()}), "");
  // Without the intermediate the path cannot be built.
  EXPECT_THAT(failureOf(trustsRoot, {leaf.certificate()}),
              HasSubstr("untrusted certificate chain: no trusted root for CN=localhost, issued by "
                        "CN=intermediate"));
}

TEST_F(TlsChainVerificationTest, UntrustedChainFailsAsATcpHandshakeDoes) {
  TestCertificates strangers;
  bool certificateCause = false;
  EXPECT_EQ(failureOf(context, {strangers.localhost.certificate()}, &certificateCause),
            "TLS handshake with localhost:4433 failed: untrusted certificate chain: no trusted "
            "root for CN=localhost, issued by CN=tern test root (unable to get local issuer "
            "certificate)");
  EXPECT_TRUE(certificateCause);
}

TEST_F(TlsChainVerificationTest, ExpiredLeafGivesItsDates) {
  const auto now = std::chrono::system_clock::now();
  tls::HeldCertificate expired = tls::HeldCertificate::Builder()
                                     .commonName("localhost")
                                     .addSubjectAlternativeName("localhost")
                                     .validityInterval(now - 48h, now - 24h)
                                     .signedBy(certificates.root)
                                     .build();
  bool certificateCause = false;
  EXPECT_THAT(failureOf(context, {expired.certificate()}, &certificateCause),
              MatchesRegex(".* failed: certificate CN=localhost expired at [0-9-]+T[0-9:]+Z "
                           "\\(valid from [0-9-]+T[0-9:]+Z; now [0-9-]+T[0-9:]+Z\\)"));
  EXPECT_TRUE(certificateCause);
}

TEST_F(TlsChainVerificationTest, LeafSignedByANonCaFails) {
  // The chain's signatures are fine, but its middle certificate may not issue others: no
  // server-auth path allows it.
  tls::HeldCertificate notACa =
      tls::HeldCertificate::Builder().commonName("not a ca").signedBy(certificates.root).build();
  tls::HeldCertificate leaf = tls::HeldCertificate::Builder()
                                  .commonName("localhost")
                                  .addSubjectAlternativeName("localhost")
                                  .signedBy(notACa)
                                  .build();
  EXPECT_EQ(failureOf(context, {leaf.certificate(), notACa.certificate()}),
            "TLS handshake with localhost:4433 failed: certificate CN=not a ca failed "
            "verification: invalid CA certificate");
}

TEST_F(TlsChainVerificationTest, InsecureHostIsNotVerified) {
  TestCertificates strangers;
  internal::TlsContext insecure(
      tls::HandshakeCertificates::Builder().addInsecureHost("localhost").build());
  EXPECT_EQ(failureOf(insecure, {strangers.localhost.certificate()}), "");
}

TEST_F(TlsChainVerificationTest, NoCertificateFails) {
  EXPECT_EQ(failureOf(context, {}),
            "TLS handshake with localhost:4433 failed: the server sent no certificate");
}

}  // namespace
}  // namespace tern::testing
