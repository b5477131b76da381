// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
// DigestAuthenticator against a real Digest server (tests/data/peers/digest_server.py), which
// checks each answer with Python's hashlib.
#include <gtest/gtest.h>

#include <memory>
#include <string>

#include "support/digest_peer.h"
#include "tern/client.h"
#include "tern/digest_authenticator.h"

namespace tern::testing {
namespace {

class DigestInteropTest : public ::testing::TestWithParam<std::string> {
 protected:
  void SetUp() override {
    if (!peer_.start("Mufasa", "Circle of Life", {GetParam()})) {
      GTEST_SKIP() << "the Python Digest server did not start (needs /usr/bin/python3)";
    }
  }

  Response get(const Client& client, const std::string& path) {
    return client.newCall(Request::Builder().url(peer_.url(path)).build())->execute();
  }

  DigestPeer peer_;
};

TEST_P(DigestInteropTest, ServerAcceptsTheAnswer) {
  Client client =
      Client::Builder()
          .authenticator(std::make_shared<DigestAuthenticator>("Mufasa", "Circle of Life"))
          .build();
  Response response = get(client, "/dir/index.html?a=b%20c");
  EXPECT_EQ(response.code(), 200);
  EXPECT_EQ(response.body()->string(),
            "Hello, Mufasa! (" + GetParam() + ", /dir/index.html?a=b%20c)\n");
  // Each call is challenged afresh (the server mints a nonce per 401): the same client keeps
  // working.
  EXPECT_EQ(get(client, "/again").code(), 200);
}

TEST_P(DigestInteropTest, WrongPasswordGivesTheChallengeBack) {
  Client client = Client::Builder()
                      .authenticator(std::make_shared<DigestAuthenticator>("Mufasa", "wrong"))
                      .build();
  Response response = get(client, "/");
  EXPECT_EQ(response.code(), 401);
  EXPECT_EQ(response.body()->string(), "Unauthorized.\n");
  ASSERT_TRUE(response.priorResponse());
  EXPECT_FALSE(response.priorResponse()->priorResponse()) << "asked more than once";
}

INSTANTIATE_TEST_SUITE_P(Algorithms, DigestInteropTest,
                         ::testing::Values("MD5", "MD5-sess", "SHA-256", "SHA-256-sess",
                                           "SHA-512-256"),
                         [](const auto& info) {
                           std::string name = info.param;
                           for (char& c : name) {
                             if (c == '-') c = '_';
                           }
                           return name;
                         });

}  // namespace
}  // namespace tern::testing
