// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
// The built `tern` binary against a real nginx, started by the test on loopback with its own
// configuration in a temporary directory (pid, logs and temp paths there, so no root is needed
// and nothing outside the directory is touched). Skipped only where nginx is not installed.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <optional>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "support/nginx.h"
#include "tool_process.h"

namespace tern::tool {
namespace {

using namespace std::chrono_literals;
using ::testing::HasSubstr;
using testing::runTern;
using ::testing::StartsWith;
using testing::ToolRun;

// The tool against nginx serving a few files (see support/nginx.h).
class NginxInteropTest : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!tern::testing::Nginx::findBinary()) {
      GTEST_SKIP() << "nginx is not installed (apt-get install nginx, as scripts/setup.sh "
                      "does), so the interop test against a real nginx cannot run";
    }
    nginx_->writeFile("www/one.txt", "one");
    nginx_->writeFile("www/two.txt", "two");
    nginx_->writeFile("www/big.txt", std::string(100000, 'x'));
    tern::testing::NginxConfig config;
    config.serverDirectives = "location = /moved { return 302 /one.txt; }";
    ASSERT_TRUE(nginx_->start(config)) << "nginx did not start:\n" << nginx_->errorLog();
  }

  // Lines of the access log: "<connection> <request number on it> "<request line>" <status>",
  // once nginx has stopped (so every request is logged).
  std::vector<std::string> accessLogLines() {
    nginx_->stop();
    return nginx_->accessLogLines(0);
  }

  std::optional<tern::testing::Nginx> nginx_{std::in_place};
};

TEST_F(NginxInteropTest, TwoUrlsReuseOneKeepAliveConnection) {
  ToolRun run = runTern(
      {"-w", " %{http_code} %{num_connects}\\n", nginx_->url("/one.txt"), nginx_->url("/two.txt")});
  EXPECT_EQ(run.exitCode, 0) << run.err;
  EXPECT_EQ(run.out, "one 200 1\ntwo 200 0\n");
  // nginx saw both requests on one connection: the second is request 2 of the same one.
  std::vector<std::string> lines = accessLogLines();
  ASSERT_EQ(lines.size(), 2u);
  std::string connection = lines[0].substr(0, lines[0].find(' '));
  EXPECT_EQ(lines[0], connection + " 1 \"GET /one.txt HTTP/1.1\" 200");
  EXPECT_EQ(lines[1], connection + " 2 \"GET /two.txt HTTP/1.1\" 200");
}

TEST_F(NginxInteropTest, GlobFetchesEveryFileOverOneConnection) {
  ToolRun run = runTern({"-w", "%{num_connects}", nginx_->url("/{one,two,one}.txt")});
  EXPECT_EQ(run.exitCode, 0) << run.err;
  EXPECT_EQ(run.out, "one1two0one0");
}

TEST_F(NginxInteropTest, CompressedBodyIsDecoded) {
  ToolRun run =
      runTern({"--compressed", "-v", "-w", "\\n%{size_download}", nginx_->url("/big.txt")});
  EXPECT_EQ(run.exitCode, 0) << run.err;
  EXPECT_EQ(run.out, std::string(100000, 'x') + "\n100000");
  // nginx compressed it: --compressed asked for curl's codings and tern unpacked the answer.
  EXPECT_THAT(run.err, HasSubstr("> Accept-Encoding: deflate, gzip, br, zstd\r\n"));
  EXPECT_THAT(run.err, HasSubstr("< Content-Encoding: gzip\r\n"));
}

TEST_F(NginxInteropTest, HeadShowsNginxsHeaders) {
  ToolRun run = runTern({"-I", nginx_->url("/one.txt")});
  EXPECT_EQ(run.exitCode, 0) << run.err;
  EXPECT_THAT(run.out, StartsWith("HTTP/1.1 200 OK\r\n"));
  EXPECT_THAT(run.out, HasSubstr("Server: nginx"));
  EXPECT_THAT(run.out, HasSubstr("Content-Type: text/plain\r\n"));
  EXPECT_THAT(run.out, ::testing::EndsWith("\r\n\r\n"));
}

TEST_F(NginxInteropTest, RedirectIsFollowedOnTheSameConnection) {
  ToolRun run = runTern(
      {"-L", "-w", " %{num_redirects} %{num_connects} %{url_effective}", nginx_->url("/moved")});
  EXPECT_EQ(run.exitCode, 0) << run.err;
  EXPECT_EQ(run.out, "one 1 1 " + nginx_->url("/one.txt"));
}

TEST_F(NginxInteropTest, TraceEventsShowAFreshAndAReusedConnection) {
  ToolRun run = runTern({"--trace-events", nginx_->url("/one.txt"), nginx_->url("/two.txt")});
  EXPECT_EQ(run.exitCode, 0) << run.err;
  EXPECT_EQ(run.out, "onetwo");
  auto eventsOf = [&](int call) {
    std::vector<std::string> names;
    std::istringstream lines(run.err);
    for (std::string line; std::getline(lines, line);) {
      std::istringstream fields(line);
      std::string ms;
      int number = -1;
      std::string name;
      if (fields >> ms >> number >> name && number == call) names.push_back(name);
    }
    return names;
  };
  std::vector<std::string> exchange = {
      "requestHeadersStart", "requestHeadersEnd",  "responseHeadersStart",
      "responseHeadersEnd",  "followUpDecision",   "responseBodyStart",
      "responseBodyEnd",     "connectionReleased", "callEnd"};
  std::vector<std::string> fresh = {"callStart",    "proxySelectStart", "proxySelectEnd",
                                    "connectStart", "connectEnd",       "connectionAcquired"};
  fresh.insert(fresh.end(), exchange.begin(), exchange.end());
  std::vector<std::string> reused = {"callStart", "connectionAcquired"};
  reused.insert(reused.end(), exchange.begin(), exchange.end());
  EXPECT_EQ(eventsOf(0), fresh) << run.err;
  EXPECT_EQ(eventsOf(1), reused) << run.err;
}

TEST_F(NginxInteropTest, MissingFileFailsWith22) {
  ToolRun run = runTern({"-f", nginx_->url("/missing.txt")});
  EXPECT_EQ(run.exitCode, 22);
  EXPECT_EQ(run.err, "tern: (22) The requested URL returned error: 404\n");
}

}  // namespace
}  // namespace tern::tool
