// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
// Digest access authentication's hashing (RFC 7616 §3.4), against the RFC's worked example.
#include "http/digest.h"

#include <gtest/gtest.h>

namespace tern::internal {
namespace {

// RFC 7616 §3.9.1: Mufasa's request for /dir/index.html.
DigestInput mufasa(DigestAlgorithmName algorithm) {
  DigestInput in;
  in.algorithm = algorithm;
  in.username = "Mufasa";
  in.password = "Circle of Life";
  in.realm = "http-auth@example.org";
  in.nonce = "7ypf/xlj9XXwfDPEoM4URrv/xwf94BcCAzFZH4GiTo0v";
  in.cnonce = "f2/wE4q74E6zIJEtWaHKaf5wv/H5QzzpXusqGemxURZJ";
  in.nc = "00000001";
  in.qop = "auth";
  in.method = "GET";
  in.uri = "/dir/index.html";
  return in;
}

TEST(DigestTest, Rfc7616WorkedExampleMd5) {
  EXPECT_EQ(digestResponse(mufasa({DigestAlgorithm::kMd5, false})),
            "8ca523f5e9506fed4657c9700eebdbec");
}

TEST(DigestTest, Rfc7616WorkedExampleSha256) {
  EXPECT_EQ(digestResponse(mufasa({DigestAlgorithm::kSha256, false})),
            "753927fa0e85d155564e2e272a28d1802ca10daf4496794697cf8db5856cb6c1");
}

// The -sess forms hash the nonces into A1 (RFC 7616 §3.4.2); expected values from Python's
// hashlib over the same example.
TEST(DigestTest, SessionFormsHashTheNoncesIntoA1) {
  EXPECT_EQ(digestResponse(mufasa({DigestAlgorithm::kMd5, true})),
            "e783283f46242139c486a698fec7211d");
  EXPECT_EQ(digestResponse(mufasa({DigestAlgorithm::kSha256, true})),
            "2fd51b3a77ad75bad6afad6003e818d767133c46d9e2749e7f5232ae1ea3efd7");
}

// RFC 7616 §3.9.2's inputs (SHA-512-256, userhash); expected values from Python's hashlib.
TEST(DigestTest, Sha512_256AndUserhash) {
  DigestInput in;
  in.algorithm = {DigestAlgorithm::kSha512_256, false};
  in.username = "J\xC3\xA4s\xC3\xB8n Doe";
  in.password = "Secret, or not?";
  in.realm = "api@example.org";
  in.nonce = "5TsQWLVdgBdmrQ0XsxbDODV+57QdFR34I9HAbC/RVvkK";
  in.cnonce = "NTg6RKcb9boFIAS3KrFK9BGeh+iDa/sm6jUMp2wds69v";
  in.nc = "00000001";
  in.qop = "auth";
  in.method = "GET";
  in.uri = "/doe.json";
  EXPECT_EQ(digestResponse(in), "3798d4131c277846293534c3edc11bd8a5e4cdcbff78b05db9d95eeb1cec68a5");
  EXPECT_EQ(digestUserhash(DigestAlgorithm::kSha512_256, in.username, in.realm),
            "793263caabb707a56211940d90411ea4a575adeccb7e360aeb624ed06ece9b0b");
}

TEST(DigestTest, WithoutQopTheResponseIsRfc2069s) {
  DigestInput in = mufasa({DigestAlgorithm::kMd5, false});
  in.qop.clear();
  std::string ha1 =
      digestHash(DigestAlgorithm::kMd5, "Mufasa:http-auth@example.org:Circle of Life");
  std::string ha2 = digestHash(DigestAlgorithm::kMd5, "GET:/dir/index.html");
  EXPECT_EQ(digestResponse(in),
            digestHash(DigestAlgorithm::kMd5, ha1 + ":" + in.nonce + ":" + ha2));
}

TEST(DigestTest, AlgorithmNamesParseIgnoringCase) {
  auto parsed = parseDigestAlgorithm("sha-256-SESS");
  ASSERT_TRUE(parsed);
  EXPECT_EQ(parsed->algorithm, DigestAlgorithm::kSha256);
  EXPECT_TRUE(parsed->session);
  EXPECT_EQ(digestAlgorithmName(*parsed), "SHA-256-sess");
  EXPECT_EQ(parseDigestAlgorithm("SHA-512-256")->algorithm, DigestAlgorithm::kSha512_256);
  EXPECT_FALSE(parseDigestAlgorithm("SHA-1"));
  EXPECT_FALSE(parseDigestAlgorithm("-sess"));
  EXPECT_FALSE(parseDigestAlgorithm(""));
}

TEST(DigestTest, QuotingEscapesQuotesAndBackslashes) {
  EXPECT_EQ(quoteDigestValue(R"(a"b\c)"), R"("a\"b\\c")");
}

TEST(DigestTest, CnoncesAreFreshHex) {
  std::string a = randomDigestCnonce();
  EXPECT_EQ(a.size(), 32u);
  EXPECT_EQ(a.find_first_not_of("0123456789abcdef"), std::string::npos);
  EXPECT_NE(a, randomDigestCnonce());
}

}  // namespace
}  // namespace tern::internal
