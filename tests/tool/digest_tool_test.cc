// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
// `tern --digest -u user:password` against a real Digest server, compared with curl's.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "support/digest_peer.h"
#include "tool_process.h"

namespace tern::tool::testing {
namespace {

using tern::testing::DigestPeer;

class DigestToolTest : public ::testing::Test {
 protected:
  void SetUp() override {
    if (findCurl().empty()) GTEST_SKIP() << "curl is not installed";
    // Both algorithms offered, the stronger first: curl 7.88 answers the first Digest challenge
    // and tern the strongest, so here both pick SHA-256.
    if (!peer_.start("Mufasa", "Circle of Life", {"SHA-256", "MD5"})) {
      GTEST_SKIP() << "the Python Digest server did not start (needs /usr/bin/python3)";
    }
  }

  // Runs tern and curl with `args` and expects the same stdout and exit code.
  ToolRun expectSameAsCurl(const std::vector<std::string>& args) {
    ToolRun curl = runCurl(args);
    ToolRun tern = runTern(args);
    EXPECT_EQ(tern.out, curl.out) << "tern's stderr: " << tern.err;
    EXPECT_EQ(tern.exitCode, curl.exitCode) << "tern's stderr: " << tern.err;
    return tern;
  }

  DigestPeer peer_;
};

TEST_F(DigestToolTest, AnswersTheChallengeAsCurlDoes) {
  ToolRun run =
      expectSameAsCurl({"-s", "--digest", "-u", "Mufasa:Circle of Life", peer_.url("/a?b=1")});
  EXPECT_EQ(run.out, "Hello, Mufasa! (SHA-256, /a?b=1)\n");
  EXPECT_EQ(run.exitCode, 0);
}

TEST_F(DigestToolTest, WrongPasswordShowsTheSecond401AsCurlDoes) {
  ToolRun run = expectSameAsCurl({"-s", "--digest", "-u", "Mufasa:wrong", peer_.url("/")});
  EXPECT_EQ(run.out, "Unauthorized.\n");
}

TEST_F(DigestToolTest, FailWithWrongPasswordExitsAsCurl) {
  ToolRun run = expectSameAsCurl({"-s", "-f", "--digest", "-u", "Mufasa:wrong", peer_.url("/")});
  EXPECT_EQ(run.exitCode, 22);
}

TEST_F(DigestToolTest, WithoutDigestBasicIsRefusedAsCurlDoes) {
  ToolRun run = expectSameAsCurl({"-s", "-u", "Mufasa:Circle of Life", peer_.url("/")});
  EXPECT_EQ(run.out, "Unauthorized.\n");
}

// -i shows the 401's headers too, then the 200's, as curl (dates and nonces made the same).
TEST_F(DigestToolTest, IncludeShowsTheChallengeAndTheAnswerAsCurl) {
  std::vector<std::string> args{"-s",          "-i", "--digest", "-u", "Mufasa:Circle of Life",
                                peer_.url("/")};
  ToolRun curl = runCurl(args);
  ToolRun tern = runTern(args);
  EXPECT_EQ(tern.exitCode, curl.exitCode);
  auto normalized = [](const std::string& out) {
    std::string result;
    size_t start = 0;
    while (start < out.size()) {
      size_t end = out.find('\n', start);
      end = end == std::string::npos ? out.size() : end + 1;
      std::string line = out.substr(start, end - start);
      start = end;
      if (line.starts_with("Date:")) continue;
      if (size_t nonce = line.find("nonce=\""); nonce != std::string::npos) {
        line.erase(nonce + 7, line.find('"', nonce + 7) - (nonce + 7));
      }
      result += line;
    }
    return result;
  };
  EXPECT_EQ(normalized(tern.out), normalized(curl.out));
  EXPECT_TRUE(tern.out.starts_with("HTTP/1.1 401 Unauthorized\r\n")) << tern.out;
}

}  // namespace
}  // namespace tern::tool::testing
