// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
// Certificates made by HeldCertificate, checked by the real openssl command-line tool: what
// nginx, curl and `openssl s_client` would decide about them. Skipped, saying why, where the
// tool is not installed.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "tern/tls/held_certificate.h"
#include "tls/tls_test_util.h"

namespace tern::tls {
namespace {

using tern::testing::findOpenSslTool;
using tern::testing::runCommand;
using tern::testing::TempDirectory;
using ::testing::HasSubstr;

class OpenSslVerifyTest : public ::testing::Test {
 protected:
  void SetUp() override {
    openssl_ = findOpenSslTool();
    if (openssl_.empty()) GTEST_SKIP() << "the openssl command-line tool is not installed";
  }

  // `openssl verify` of `leaf` against `root`, with `untrusted` intermediates and extra options.
  std::pair<int, std::string> verify(const Certificate& root, const std::string& untrusted,
                                     const Certificate& leaf, const std::string& options = "") {
    std::string command = openssl_ + " verify -x509_strict " + options + " -CAfile " +
                          directory_.write("root.pem", root.pem());
    if (!untrusted.empty()) {
      command += " -untrusted " + directory_.write("untrusted.pem", untrusted);
    }
    command += " " + directory_.write("leaf.pem", leaf.pem());
    return runCommand(command);
  }

  std::string openssl_;
  TempDirectory directory_;
};

TEST_F(OpenSslVerifyTest, ChainWithIntermediateIsAcceptedForTlsServers) {
  HeldCertificate root =
      HeldCertificate::Builder().commonName("root").certificateAuthority(1).build();
  HeldCertificate intermediate = HeldCertificate::Builder()
                                     .commonName("intermediate")
                                     .certificateAuthority(0)
                                     .signedBy(root)
                                     .build();
  HeldCertificate server = HeldCertificate::Builder()
                               .addSubjectAlternativeName("localhost")
                               .addSubjectAlternativeName("127.0.0.1")
                               .signedBy(intermediate)
                               .build();
  auto [status, output] =
      verify(root.certificate(), intermediate.certificatePem(), server.certificate(),
             "-purpose sslserver -verify_hostname localhost -verify_ip "
             "127.0.0.1");
  EXPECT_EQ(status, 0) << output;
  EXPECT_THAT(output, HasSubstr(": OK"));
}

TEST_F(OpenSslVerifyTest, RsaChainIsAcceptedForTlsClients) {
  HeldCertificate root = HeldCertificate::Builder().rsa2048().certificateAuthority(0).build();
  HeldCertificate client = HeldCertificate::Builder().rsa2048().signedBy(root).build();
  auto [status, output] =
      verify(root.certificate(), "", client.certificate(), "-purpose sslclient");
  EXPECT_EQ(status, 0) << output;
}

TEST_F(OpenSslVerifyTest, SelfSignedLeafIsItsOwnAnchor) {
  HeldCertificate server =
      HeldCertificate::Builder().addSubjectAlternativeName("localhost").build();
  auto [status, output] =
      verify(server.certificate(), "", server.certificate(), "-purpose sslserver");
  EXPECT_EQ(status, 0) << output;
}

TEST_F(OpenSslVerifyTest, WrongHostnameIsRejected) {
  HeldCertificate root = HeldCertificate::Builder().certificateAuthority(0).build();
  HeldCertificate server =
      HeldCertificate::Builder().addSubjectAlternativeName("localhost").signedBy(root).build();
  auto [status, output] =
      verify(root.certificate(), "", server.certificate(), "-verify_hostname example.com");
  EXPECT_NE(status, 0);
  EXPECT_THAT(output, HasSubstr("hostname mismatch"));
}

TEST_F(OpenSslVerifyTest, PathLengthViolationIsRejected) {
  HeldCertificate root = HeldCertificate::Builder().certificateAuthority(0).build();
  HeldCertificate intermediate =
      HeldCertificate::Builder().certificateAuthority(0).signedBy(root).build();
  HeldCertificate server = HeldCertificate::Builder().signedBy(intermediate).build();
  auto [status, output] =
      verify(root.certificate(), intermediate.certificatePem(), server.certificate());
  EXPECT_NE(status, 0);
  EXPECT_THAT(output, HasSubstr("path length constraint exceeded"));
}

TEST_F(OpenSslVerifyTest, OpenSslReadsOurPemAndKey) {
  HeldCertificate held = HeldCertificate::Builder().commonName("cash.app").serialNumber(42).build();
  auto [status, output] = runCommand(openssl_ + " x509 -noout -subject -serial -in " +
                                     directory_.write("cert.pem", held.certificatePem()));
  EXPECT_EQ(status, 0) << output;
  EXPECT_THAT(output, HasSubstr("CN = cash.app"));
  EXPECT_THAT(output, HasSubstr("serial=2A"));
  auto [keyStatus, keyOutput] = runCommand(openssl_ + " pkey -noout -in " +
                                           directory_.write("key.pem", held.privateKeyPkcs8Pem()));
  EXPECT_EQ(keyStatus, 0) << keyOutput;
}

TEST_F(OpenSslVerifyTest, KeysMadeByOpenSslDecode) {
  // The formats `openssl genpkey` / `ecparam` / `genrsa -traditional` write.
  TempDirectory directory;
  for (const char* generate :
       {" genpkey -algorithm EC -pkeyopt ec_paramgen_curve:P-256",
        " ecparam -name prime256v1 -genkey -noout", " genrsa -traditional 1024"}) {
    auto [status, pem] = runCommand(openssl_ + generate);
    ASSERT_EQ(status, 0) << pem;
    KeyPair key = KeyPair::decodePem(pem);
    HeldCertificate held = HeldCertificate::Builder().keyPair(key).build();
    EXPECT_TRUE(held.keyPair() == key) << generate;
  }
}

}  // namespace
}  // namespace tern::tls
