// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#include "tern/tls/key_pair.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "tls/openssl_access.h"
#include "tls/openssl_util.h"
#include "tls/pem.h"

namespace tern::tls {
namespace {

using ::testing::HasSubstr;
using ::testing::StartsWith;

std::string decodeError(std::string_view pem) {
  try {
    KeyPair::decodePem(pem);
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return "no exception";
}

// The key in the "traditional" type-specific form OpenSSL writes for "RSA PRIVATE KEY" and
// "EC PRIVATE KEY" blocks.
std::string traditionalPem(const KeyPair& key, std::string_view label) {
  std::vector<uint8_t> der =
      internal::toDer(static_cast<const EVP_PKEY*>(internal::toEvpPkey(key)), i2d_PrivateKey);
  return internal::encodePem(label, der);
}

TEST(KeyPairTest, Pkcs8RoundTripEc) {
  KeyPair key = KeyPair::generateEcdsa256();
  std::string pem = key.privateKeyPkcs8Pem();
  EXPECT_THAT(pem, StartsWith("-----BEGIN PRIVATE KEY-----\n"));
  KeyPair decoded = KeyPair::decodePem(pem);
  EXPECT_TRUE(decoded == key);
  EXPECT_EQ(decoded.algorithm(), "EC");
  EXPECT_EQ(decoded.privateKeyPkcs8Der(), key.privateKeyPkcs8Der());
  EXPECT_EQ(decoded.publicKeyDer(), key.publicKeyDer());
}

TEST(KeyPairTest, Pkcs1AndPkcs8RoundTripRsa) {
  KeyPair key = KeyPair::generateRsa2048();
  EXPECT_EQ(key.algorithm(), "RSA");
  std::string pkcs1 = key.privateKeyPkcs1Pem();
  EXPECT_THAT(pkcs1, StartsWith("-----BEGIN RSA PRIVATE KEY-----\n"));
  EXPECT_TRUE(KeyPair::decodePem(pkcs1) == key);
  EXPECT_TRUE(KeyPair::decodePem(key.privateKeyPkcs8Pem()) == key);
}

TEST(KeyPairTest, DecodesEcPrivateKeyBlocks) {
  KeyPair key = KeyPair::generateEcdsa256();
  KeyPair decoded = KeyPair::decodePem(traditionalPem(key, "EC PRIVATE KEY"));
  EXPECT_TRUE(decoded == key);
}

TEST(KeyPairTest, Pkcs1OnlySupportsRsa) {
  KeyPair key = KeyPair::generateEcdsa256();
  try {
    key.privateKeyPkcs1Pem();
    FAIL();
  } catch (const std::logic_error& e) {
    EXPECT_STREQ(e.what(), "PKCS1 only supports RSA keys");
  }
}

TEST(KeyPairTest, GeneratedKeysDiffer) {
  EXPECT_FALSE(KeyPair::generateEcdsa256() == KeyPair::generateEcdsa256());
  KeyPair key = KeyPair::generateEcdsa256();
  KeyPair copy = key;
  EXPECT_TRUE(copy == key);
}

TEST(KeyPairTest, DecodeRejectsWhatIsNotAKey) {
  KeyPair key = KeyPair::generateEcdsa256();
  EXPECT_EQ(decodeError(""),
            "failed to decode private key: no PRIVATE KEY, RSA PRIVATE KEY or EC PRIVATE KEY "
            "PEM block");
  EXPECT_EQ(decodeError(key.privateKeyPkcs8Pem() + key.privateKeyPkcs8Pem()),
            "failed to decode private key: more than one private key");
  EXPECT_THAT(decodeError("-----BEGIN ENCRYPTED PRIVATE KEY-----\nAAAA\n"
                          "-----END ENCRYPTED PRIVATE KEY-----\n"),
              HasSubstr("encrypted keys (ENCRYPTED PRIVATE KEY) are not supported"));
  EXPECT_THAT(decodeError("-----BEGIN RSA PRIVATE KEY-----\nProc-Type: 4,ENCRYPTED\n"
                          "DEK-Info: AES-128-CBC,00\n\nAAAA\n-----END RSA PRIVATE KEY-----\n"),
              HasSubstr("has headers (an encrypted key?)"));
  EXPECT_THAT(decodeError("-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----\n"),
              StartsWith("failed to decode private key (PRIVATE KEY): error:"));
  // An EC key in an RSA block is not an RSA key.
  EXPECT_THAT(decodeError(traditionalPem(key, "RSA PRIVATE KEY")),
              StartsWith("failed to decode private key (RSA PRIVATE KEY)"));
  EXPECT_EQ(internal::takeOpenSslErrors(), "");
}

TEST(KeyPairTest, FromEvpPkeyNeedsAPrivateKey) {
  KeyPair key = KeyPair::generateEcdsa256();
  std::vector<uint8_t> publicDer = key.publicKeyDer();
  const unsigned char* in = publicDer.data();
  internal::UniqueEvpPkey publicOnly(d2i_PUBKEY(nullptr, &in, static_cast<long>(publicDer.size())));
  ASSERT_NE(publicOnly, nullptr);
  EXPECT_THROW(internal::fromEvpPkey(publicOnly.get()), std::invalid_argument);
  EXPECT_TRUE(internal::fromEvpPkey(internal::toEvpPkey(key)) == key);
}

}  // namespace
}  // namespace tern::tls
