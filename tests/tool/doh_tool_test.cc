// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
//
// tern --doh-url against a DoH responder on loopback (tests/data/peers/doh_server.js, Node's
// http2 over TLS) that knows a made-up name, beside curl given the same arguments.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "support/doh_peer.h"
#include "support/tls_certificates.h"
#include "temp_dir.h"
#include "tern/mockwebserver/mock_web_server.h"
#include "tool_process.h"

namespace tern::tool::testing {
namespace {

using mockwebserver::MockResponse;
using mockwebserver::MockWebServer;
using tern::testing::DohPeer;
using tern::testing::TestCertificates;
using ::testing::HasSubstr;

class DohToolTest : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!peer_.start(certificates_.localhost, {"app.test=127.0.0.1"})) {
      GTEST_SKIP() << "the Node DoH responder did not start (needs /usr/bin/node)";
    }
    caCert_ = dir_.write("root.pem", certificates_.root.certificatePem()).string();
    origin_.setDispatcher(
        [](const auto&) { return MockResponse::Builder().body("hello app.test\n").build(); });
    origin_.start("127.0.0.1", 0);
  }

  std::string originUrl(const std::string& host) {
    return "http://" + host + ":" + std::to_string(origin_.port()) + "/";
  }

  TestCertificates certificates_;
  DohPeer peer_;
  TempDir dir_;
  std::string caCert_;
  MockWebServer origin_;
};

TEST_F(DohToolTest, ResolvesTheNameOverDoh) {
  std::vector<std::string> args{"-s",       "--doh-url", peer_.url(),
                                "--cacert", caCert_,     originUrl("app.test")};
  ToolRun run = runTern(args);
  EXPECT_EQ(run.exitCode, 0) << run.err;
  EXPECT_EQ(run.out, "hello app.test\n");
  EXPECT_THAT(peer_.log(), HasSubstr(" app.test A\n"));
  if (!findCurl().empty()) {
    ToolRun curl = runCurl(args);
    EXPECT_EQ(curl.exitCode, 0) << curl.err;
    EXPECT_EQ(curl.out, run.out);
  }
}

TEST_F(DohToolTest, AnUnknownNameExits6AsCurl) {
  std::vector<std::string> args{"-sS",      "--doh-url", peer_.url(),
                                "--cacert", caCert_,     originUrl("missing.test")};
  ToolRun run = runTern(args);
  EXPECT_EQ(run.exitCode, 6);
  EXPECT_THAT(run.err, HasSubstr("Could not resolve host: missing.test"));
  if (!findCurl().empty()) {
    EXPECT_EQ(runCurl(args).exitCode, 6);
  }
  EXPECT_EQ(origin_.requestCount(), 0);
}

TEST_F(DohToolTest, TheDohServerIsVerifiedWhateverInsecureSays) {
  // Without --cacert the test root is unknown: -k does not cover the DoH server, so the name
  // cannot be resolved (curl: exit 6 too); --doh-insecure does.
  std::vector<std::string> args{"-s", "-k", "--doh-url", peer_.url(), originUrl("app.test")};
  ToolRun verified = runTern(args);
  EXPECT_EQ(verified.exitCode, 6) << verified.err;
  if (!findCurl().empty()) {
    EXPECT_EQ(runCurl(args).exitCode, 6);
  }
  ToolRun insecure =
      runTern({"-s", "--doh-insecure", "--doh-url", peer_.url(), originUrl("app.test")});
  EXPECT_EQ(insecure.exitCode, 0) << insecure.err;
  EXPECT_EQ(insecure.out, "hello app.test\n");
}

TEST_F(DohToolTest, Ipv6OnlyFindsNoAddressForAnIpv4OnlyName) {
  // app.test has an A record only: -4 reaches it, -6 cannot resolve it (exit 6). (curl 7.88
  // applies -6 to the DoH server's connection too, so against this IPv4 server it exits 7.)
  ToolRun v4 =
      runTern({"-s", "-4", "--doh-url", peer_.url(), "--cacert", caCert_, originUrl("app.test")});
  EXPECT_EQ(v4.exitCode, 0) << v4.err;
  std::vector<std::string> args{"-s",       "-6",    "--doh-url",          peer_.url(),
                                "--cacert", caCert_, originUrl("app.test")};
  EXPECT_EQ(runTern(args).exitCode, 6);
}

TEST_F(DohToolTest, ABadDohUrlIsAUsageError) {
  ToolRun run = runTern({"--doh-url", "not a url", originUrl("app.test")});
  EXPECT_EQ(run.exitCode, 2);
  EXPECT_THAT(run.err, HasSubstr("option --doh-url: not an http or https URL: not a url"));
}

}  // namespace
}  // namespace tern::tool::testing
