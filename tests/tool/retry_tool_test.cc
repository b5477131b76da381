// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
// `tern --retry` and its companions against MockWebServer, compared with curl 7.88 on a twin
// server scripted the same way: the same bodies, exit codes, warnings and requests.
#include <arpa/inet.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <chrono>
#include <fstream>
#include <functional>
#include <sstream>
#include <string>
#include <vector>

#include "temp_dir.h"
#include "tern/mockwebserver/mock_web_server.h"
#include "tool_process.h"

namespace tern::tool::testing {
namespace {

using namespace std::chrono_literals;
using mockwebserver::MockResponse;
using mockwebserver::MockWebServer;

MockResponse status(int code, std::string body, std::string retryAfter = "") {
  MockResponse::Builder builder;
  builder.code(code).body(body);
  if (!retryAfter.empty()) builder.addHeader("Retry-After", retryAfter);
  return builder.build();
}

// The messages in `err` (curl's or tern's), progress meters left out and the program's name
// made "X": "Warning: ..." lines, "Throwing away ..." and "X: (N) ...".
std::string messages(const std::string& err) {
  std::string normalized = err;
  for (char& c : normalized) {
    if (c == '\r') c = '\n';
  }
  std::istringstream lines(normalized);
  std::string out;
  for (std::string line; std::getline(lines, line);) {
    if (line.starts_with("curl: ") || line.starts_with("tern: ")) {
      line = "X" + line.substr(4);
    } else if (!line.starts_with("Warning: ") && !line.starts_with("Throwing away")) {
      continue;
    }
    out += line + "\n";
  }
  return out;
}

// A loopback port nothing listens on: connecting to it is refused.
int refusedPort() {
  int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  socklen_t length = sizeof(address);
  ::bind(fd, reinterpret_cast<sockaddr*>(&address), sizeof(address));
  ::getsockname(fd, reinterpret_cast<sockaddr*>(&address), &length);
  ::close(fd);
  return ntohs(address.sin_port);
}

class RetryToolTest : public ::testing::Test {
 protected:
  void SetUp() override {
    if (findCurl().empty()) GTEST_SKIP() << "curl is not installed";
  }

  // Scripts both servers with `responses`, runs curl and tern with `args` then the server's
  // URL, and expects the same stdout, exit code, messages and request count; returns tern's run.
  ToolRun expectSameAsCurl(const std::vector<MockResponse>& responses,
                           std::vector<std::string> args) {
    for (const MockResponse& response : responses) {
      curlServer_.enqueue(response);
      ternServer_.enqueue(response);
    }
    std::vector<std::string> curlArgs = args;
    curlArgs.push_back(curlServer_.url("/r").toString());
    args.push_back(ternServer_.url("/r").toString());
    ToolRun curl = runCurl(curlArgs);
    ToolRun tern = runTern(args);
    EXPECT_EQ(tern.out, curl.out) << "tern's stderr: " << tern.err;
    EXPECT_EQ(tern.exitCode, curl.exitCode) << "tern's stderr: " << tern.err;
    EXPECT_EQ(messages(tern.err), messages(curl.err)) << "curl's stderr: " << curl.err;
    EXPECT_EQ(ternServer_.requestCount(), curlServer_.requestCount());
    return tern;
  }

  MockWebServer curlServer_;
  MockWebServer ternServer_;
};

TEST_F(RetryToolTest, ServiceUnavailableIsRetriedAndEveryBodyShown) {
  ToolRun run =
      expectSameAsCurl({status(503, "busy\n"), status(429, "slow down\n"), status(200, "ok\n")},
                       {"--retry", "3", "--retry-delay", "1", "-w", "[%{http_code}]\n"});
  EXPECT_EQ(run.out, "busy\nslow down\nok\n[200]\n");
  EXPECT_NE(run.err.find("Warning: Problem : HTTP error. Will retry in 1 seconds. 3 retries left."),
            std::string::npos)
      << run.err;
  EXPECT_NE(run.err.find("2 retries left."), std::string::npos) << run.err;
  EXPECT_EQ(ternServer_.requestCount(), 3);
}

TEST_F(RetryToolTest, RetryAfterIsTheWait) {
  ternServer_.enqueue(status(503, "wait\n", "2"));
  ternServer_.enqueue(status(200, "ok\n"));
  auto start = std::chrono::steady_clock::now();
  ToolRun run = runTern({"--retry", "1", ternServer_.url("/").toString()});
  EXPECT_GE(std::chrono::steady_clock::now() - start, 1900ms);
  EXPECT_EQ(run.out, "wait\nok\n");
  EXPECT_NE(run.err.find("Will retry in 2 seconds. 1 retries left."), std::string::npos) << run.err;
}

TEST_F(RetryToolTest, FailShowsEachErrorThenRetries) {
  ToolRun run = expectSameAsCurl({status(503, "busy\n"), status(200, "ok\n")},
                                 {"-sS", "-f", "--retry", "2", "--retry-delay", "1"});
  EXPECT_EQ(run.out, "ok\n");
  EXPECT_EQ(run.exitCode, 0);
  EXPECT_EQ(messages(run.err), "X: (22) The requested URL returned error: 503\n");
}

TEST_F(RetryToolTest, AnOutputFileKeepsOnlyTheLastAttempt) {
  TempDir dir;
  std::string file = (dir.path() / "out.txt").string();
  ToolRun run = expectSameAsCurl({status(429, "12345"), status(200, "ok\n")},
                                 {"--retry", "1", "--retry-delay", "1", "-o", file});
  EXPECT_NE(run.err.find("Throwing away 5 bytes"), std::string::npos) << run.err;
  std::ifstream in(file);
  std::string content((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  EXPECT_EQ(content, "ok\n");
}

TEST_F(RetryToolTest, RetryAfterBeyondRetryMaxTimeEndsTheRetries) {
  ToolRun run = expectSameAsCurl({status(503, "later\n", "200"), status(200, "never\n")},
                                 {"--retry", "2", "--retry-max-time", "10", "-w", "W%{http_code}"});
  EXPECT_EQ(run.out, "later\nW503");
  EXPECT_EQ(messages(run.err),
            "Warning: The Retry-After: time would make this command line exceed the maximum \n"
            "Warning: allowed time for retries.\n");
  EXPECT_EQ(ternServer_.requestCount(), 1);
}

TEST_F(RetryToolTest, OtherCodesAreNotRetried) {
  ToolRun run = expectSameAsCurl({status(404, "gone\n"), status(200, "never\n")},
                                 {"-s", "--retry", "3", "-w", "%{http_code}"});
  EXPECT_EQ(run.out, "gone\n404");
  EXPECT_EQ(ternServer_.requestCount(), 1);
}

TEST_F(RetryToolTest, RefusedConnectionsWithConnrefusedAndAllErrors) {
  std::string url = "http://127.0.0.1:" + std::to_string(refusedPort()) + "/";
  for (const char* flag : {"--retry-connrefused", "--retry-all-errors"}) {
    std::vector<std::string> args = {"--retry", "1", "--retry-delay", "1", flag, url};
    ToolRun curl = runCurl(args);
    ToolRun tern = runTern(args);
    EXPECT_EQ(tern.exitCode, 7) << tern.err;
    EXPECT_EQ(tern.exitCode, curl.exitCode);
    // The connect messages carry times; the warnings are the same.
    auto warnings = [](const std::string& err) {
      std::string all = messages(err), out;
      std::istringstream lines(all);
      for (std::string line; std::getline(lines, line);) {
        if (line.starts_with("Warning: ")) out += line + "\n";
      }
      return out;
    };
    EXPECT_EQ(warnings(tern.err), warnings(curl.err)) << flag << "\ncurl: " << curl.err;
    EXPECT_NE(warnings(tern.err).find("Will retry in 1 seconds."), std::string::npos) << tern.err;
  }
  // Without either, a refused connection is not transient.
  ToolRun plain = runTern({"-s", "--retry", "3", url});
  EXPECT_EQ(plain.exitCode, 7);
  EXPECT_EQ(plain.err.find("Warning"), std::string::npos) << plain.err;
}

TEST_F(RetryToolTest, BadNumbersAreUsageErrorsAsInCurl) {
  for (const auto& [args, message] : std::vector<std::pair<std::vector<std::string>, std::string>>{
           {{"--retry", "-1"}, "option --retry: expected a positive numerical parameter"},
           {{"--retry", "x"}, "option --retry: expected a proper numerical parameter"},
           {{"--retry-delay", "1.5"},
            "option --retry-delay: expected a proper numerical parameter"},
           {{"--retry-max-time", "-3"},
            "option --retry-max-time: expected a positive numerical parameter"}}) {
    std::vector<std::string> full = args;
    full.push_back("http://127.0.0.1:1/");
    ToolRun curl = runCurl(full);
    ToolRun tern = runTern(full);
    EXPECT_EQ(tern.exitCode, 2);
    EXPECT_EQ(tern.exitCode, curl.exitCode);
    EXPECT_NE(tern.err.find("tern: " + message), std::string::npos) << tern.err;
    EXPECT_NE(curl.err.find("curl: " + message), std::string::npos) << curl.err;
  }
}

}  // namespace
}  // namespace tern::tool::testing
