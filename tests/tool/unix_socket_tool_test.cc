// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
// The built `tern` and curl itself with --unix-socket, --abstract-unix-socket and --connect-to
// against the same MockWebServer (on a Unix socket in a temporary directory, or on loopback):
// the same stdout bytes and exit code, and the same -v lines for the connection. Skipped where
// curl is not installed.
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <sstream>
#include <string>
#include <vector>

#include "support/tls_certificates.h"
#include "temp_dir.h"
#include "tern/mockwebserver/mock_web_server.h"
#include "tool_process.h"

namespace tern::tool {
namespace {

using mockwebserver::MockResponse;
using mockwebserver::MockWebServer;
using mockwebserver::RecordedRequest;
using tern::testing::TestCertificates;
using testing::findCurl;
using ::testing::HasSubstr;
using testing::runCurl;
using testing::runTern;
using testing::TempDir;
using testing::ToolRun;

// The request as the server read it, without User-Agent (it names the client) and HTTP/2's
// pseudo-headers, so what the two clients sent shows in their stdout.
MockResponse echo(const RecordedRequest& request) {
  std::string text = request.requestLine() + "\n";
  for (const auto& [name, value] : request.headers()) {
    if (name != "User-Agent" && name != "user-agent" && !name.starts_with(':')) {
      text += name + ": " + value + "\n";
    }
  }
  return MockResponse::Builder().body(text).build();
}

// The lines of a -v run's stderr that say where the connection went and which one was used:
// the ones tern prints as curl does (curl has more, of its internals).
std::vector<std::string> connectionLines(const std::string& err) {
  std::vector<std::string> lines;
  std::istringstream in(err);
  for (std::string line; std::getline(in, line);) {
    for (const char* prefix :
         {"*   Trying ", "* Connected to ", "* Connecting to ", "* Immediate connect fail",
          "* Re-using existing connection", "* Connection #", "* Added "}) {
      if (line.starts_with(prefix)) lines.push_back(line);
    }
  }
  return lines;
}

// The message after "curl: " / "tern: " with the milliseconds taken out.
std::string message(const std::string& err, const char* tool) {
  size_t start = err.rfind(std::string(tool) + ": (");
  if (start == std::string::npos) return "";
  std::string text = err.substr(start + std::string(tool).size() + 2);
  size_t after = text.find(" after ");
  if (after != std::string::npos) text.erase(after, text.find(" ms") + 3 - after);
  return text;
}

class UnixSocketToolTest : public ::testing::Test {
 protected:
  void SetUp() override {
    if (findCurl().empty()) GTEST_SKIP() << "curl is not installed, so tern cannot be compared";
    server_.setDispatcher(echo);
    socket_ = (files_.path() / "server.sock").string();
  }

  // Runs curl and then tern with `args`; expects the same stdout, exit code, connection lines
  // of -v and (with `sameMessage`) message. Returns tern's run.
  ToolRun expectSameAsCurl(const std::vector<std::string>& args, bool sameMessage = true) {
    ToolRun curl = runCurl(args);
    ToolRun tern = runTern(args);
    const std::string both = "stderr of curl:\n" + curl.err + "stderr of tern:\n" + tern.err;
    EXPECT_EQ(tern.out, curl.out) << both;
    EXPECT_EQ(tern.exitCode, curl.exitCode) << both;
    EXPECT_EQ(connectionLines(tern.err), connectionLines(curl.err)) << both;
    if (sameMessage) {
      EXPECT_EQ(message(tern.err, "tern"), message(curl.err, "curl")) << both;
    }
    return tern;
  }

  std::string writeCaFile() {
    return files_.write("ca.pem", certificates_.root.certificatePem()).string();
  }
  std::string port() { return std::to_string(server_.port()); }

  TempDir files_;
  TestCertificates certificates_;
  MockWebServer server_;
  std::string socket_;
};

TEST_F(UnixSocketToolTest, UnixSocketSendsTheUrlsHostAndReusesTheConnection) {
  server_.startUnixSocket(socket_);
  ToolRun run = expectSameAsCurl(
      {"-sS", "-v", "--unix-socket", socket_, "http://example.test:8080/a",
       "http://example.test:8080/b", "-w",
       "%{remote_ip} %{remote_port} [%{local_ip}] %{local_port} %{num_connects}\n"});
  EXPECT_THAT(run.out, HasSubstr("Host: example.test:8080\n"));
  EXPECT_THAT(run.err, HasSubstr("*   Trying " + socket_ + ":0...\n"));
  EXPECT_THAT(run.err, HasSubstr("* Connected to example.test (" + socket_ + ") port 8080 (#0)\n"));
}

TEST_F(UnixSocketToolTest, UnixSocketIgnoresTheProxy) {
  server_.startUnixSocket(socket_);
  expectSameAsCurl(
      {"-sS", "-x", "http://127.0.0.1:1", "--unix-socket", socket_, "http://example.test/"});
}

TEST_F(UnixSocketToolTest, HttpsOverAUnixSocketChecksTheUrlsHost) {
  server_.useHttps(certificates_.server());
  server_.startUnixSocket(socket_);
  const std::string ca = writeCaFile();
  expectSameAsCurl({"-sS", "--cacert", ca, "--unix-socket", socket_, "https://localhost/x"});
  // The certificate names localhost only: exit 60 for another name, socket or not. (tern's
  // message for a name mismatch says more than curl's.)
  expectSameAsCurl({"-sS", "--cacert", ca, "--unix-socket", socket_, "https://example.test/x"},
                   /*sameMessage=*/false);
}

TEST_F(UnixSocketToolTest, MissingSocketIsExit7) {
  const std::string missing = (files_.path() / "missing.sock").string();
  ToolRun run = expectSameAsCurl({"-sS", "-v", "--unix-socket", missing, "http://example.test/"});
  EXPECT_EQ(run.exitCode, 7);
  EXPECT_THAT(run.err,
              HasSubstr("* Immediate connect fail for " + missing + ": No such file or directory"));
}

TEST_F(UnixSocketToolTest, AbstractUnixSocket) {
  const std::string name = "tern-tool-test-" + std::to_string(::getpid());
  server_.startUnixSocket(name, /*abstract=*/true);
  expectSameAsCurl({"-sS", "--abstract-unix-socket", name, "http://example.test/"});
  // The last of --unix-socket and --abstract-unix-socket wins.
  expectSameAsCurl({"-sS", "--unix-socket", (files_.path() / "missing.sock").string(),
                    "--abstract-unix-socket", name, "http://example.test/"});
}

TEST_F(UnixSocketToolTest, ConnectToSendsTheUrlsHostToAnotherHostAndPort) {
  server_.start();
  ToolRun run = expectSameAsCurl({"-sS", "-v", "--noproxy", "*", "--connect-to",
                                  "example.test:80:localhost:" + port(), "http://example.test/a",
                                  "http://example.test/b"});
  EXPECT_THAT(run.out, HasSubstr("Host: example.test\n"));
  EXPECT_THAT(
      run.err,
      HasSubstr("* Connecting to hostname: localhost\n* Connecting to port: " + port() + "\n"));
}

TEST_F(UnixSocketToolTest, ConnectToWildcardsAndTheFirstMatchingRule) {
  server_.start();
  expectSameAsCurl({"-sS", "-v", "--noproxy", "*", "--connect-to", "other.test:80:nowhere.test:1",
                    "--connect-to", "example.test:80::", "--connect-to", "::127.0.0.1:" + port(),
                    "--connect-to", "example.test:80:nowhere.test:1", "http://example.test/"});
  // Only the port: the URL's host (an IP address here) is kept.
  expectSameAsCurl(
      {"-sS", "-v", "--noproxy", "*", "--connect-to", ":80::" + port(), "http://127.0.0.1/"});
}

TEST_F(UnixSocketToolTest, ConnectToTargetIsWhatResolveApplies) {
  server_.start();
  expectSameAsCurl({"-sS", "-v", "--noproxy", "*", "--resolve",
                    "target.test:" + port() + ":127.0.0.1", "--connect-to",
                    "example.test::target.test:" + port(), "http://example.test/"});
}

TEST_F(UnixSocketToolTest, ConnectToFailuresNameTheTarget) {
  server_.start();
  // A bad port in a rule that matches: exit 49; in one that does not, nothing.
  ToolRun bad = expectSameAsCurl({"-sS", "--noproxy", "*", "--connect-to",
                                  "example.test:80:localhost:99999", "http://example.test/"});
  EXPECT_EQ(bad.exitCode, 49);
  expectSameAsCurl({"-sS", "--noproxy", "*", "--connect-to", "other.test:80:localhost:99999",
                    "--connect-to", "::127.0.0.1:" + port(), "http://example.test/"});
  // The refused target is the one named.
  ToolRun refused = expectSameAsCurl(
      {"-sS", "--noproxy", "*", "--connect-to", "::127.0.0.1:1", "http://example.test/"});
  EXPECT_EQ(refused.exitCode, 7);
}

TEST_F(UnixSocketToolTest, ConnectToKeepsTheUrlsNameForTls) {
  server_.useHttps(certificates_.server());
  server_.start();
  const std::string ca = writeCaFile();
  expectSameAsCurl({"-sS", "--noproxy", "*", "--cacert", ca, "--connect-to",
                    "localhost:1:127.0.0.1:" + port(), "https://localhost:1/x"});
}

}  // namespace
}  // namespace tern::tool
