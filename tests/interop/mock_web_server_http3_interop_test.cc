// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
// MockWebServer's HTTP/3 side against a client that is not tern's (issue 20): Debian's
// gtlsclient (ngtcp2-client, the ngtcp2 examples' HTTP/3 client) fetches from it over QUIC on
// loopback: GETs and a POST, many streams on one connection, packet loss both ways, key updates
// and a client whose port changes under it (NAT rebinding). What the client saved must be what
// the server was scripted to send, and what the server recorded what the client sent. (Not
// checked: a client's active migration, gtlsclient --change-local-addr without
// --nat-rebinding, during a download; it stalls: the server keeps answering on the old path.)
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "support/child_process.h"
#include "support/temp_dir.h"
#include "support/tls_certificates.h"
#include "tern/mockwebserver/mock_web_server.h"

namespace tern::testing {
namespace {

using mockwebserver::MockResponse;
using mockwebserver::MockWebServer;
using mockwebserver::RecordedRequest;

std::string readFile(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream out;
  out << in.rdbuf();
  return out.str();
}

// A body of `size` bytes: 'a'..'z' repeating, so misplaced bytes show.
std::string pattern(size_t size) {
  std::string result(size, ' ');
  for (size_t i = 0; i < result.size(); ++i) result[i] = static_cast<char>('a' + i % 26);
  return result;
}

class MockWebServerGtlsClientTest : public ::testing::Test {
 protected:
  void SetUp() override {
    client_ = findExecutable("gtlsclient", {"/usr/bin/gtlsclient"});
    if (!client_) {
      GTEST_SKIP() << "gtlsclient is not installed (apt-get install ngtcp2-client, as "
                      "scripts/setup.sh does)";
    }
    server_.useHttps(certificates_.server());
    server_.protocols({Protocol::HTTP_3, Protocol::HTTP_2, Protocol::HTTP_1_1});
    server_.start();
    std::filesystem::create_directories(downloads());
  }

  std::filesystem::path downloads() { return directory_.path() / "downloads"; }

  // Runs gtlsclient against the server with `options` then `paths` as URIs; returns its exit
  // status (within 30 s, or the shell's timeout status 124).
  int fetch(const std::vector<std::string>& options, const std::vector<std::string>& paths) {
    std::string command = "timeout 30 " + client_->string() +
                          " -q --exit-on-all-streams-close --download=" + downloads().string();
    for (const std::string& option : options) command += " " + option;
    command += " 127.0.0.1 " + std::to_string(server_.port());
    for (const std::string& path : paths) {
      command += " https://localhost:" + std::to_string(server_.port()) + path;
    }
    command += " > " + (directory_.path() / "gtlsclient.log").string() + " 2>&1";
    const int status = std::system(command.c_str());
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  }

  std::string log() { return readFile(directory_.path() / "gtlsclient.log"); }

  TestCertificates certificates_;
  MockWebServer server_;
  TempDir directory_;
  std::optional<std::filesystem::path> client_;
};

TEST_F(MockWebServerGtlsClientTest, ServesAGet) {
  server_.enqueue(MockResponse::Builder().body("hello, gtlsclient\n").build());
  ASSERT_EQ(fetch({}, {"/hello.txt"}), 0) << log();
  EXPECT_EQ(readFile(downloads() / "hello.txt"), "hello, gtlsclient\n");
  RecordedRequest request = server_.takeRequest();
  EXPECT_EQ(request.requestLine(), "GET /hello.txt HTTP/3");
  EXPECT_EQ(request.headers().get(":authority"), "localhost:" + std::to_string(server_.port()));
}

TEST_F(MockWebServerGtlsClientTest, ServesManyStreamsOnOneConnection) {
  std::vector<std::string> paths;
  for (int i = 0; i < 10; ++i) {
    server_.enqueue(MockResponse::Builder().body("body " + std::to_string(i)).build());
    paths.push_back("/f" + std::to_string(i));
  }
  ASSERT_EQ(fetch({}, paths), 0) << log();
  std::vector<std::string> bodies;
  for (int i = 0; i < 10; ++i) bodies.push_back(readFile(downloads() / ("f" + std::to_string(i))));
  std::sort(bodies.begin(), bodies.end());
  for (int i = 0; i < 10; ++i) EXPECT_EQ(bodies[i], "body " + std::to_string(i));
  for (int i = 0; i < 10; ++i) EXPECT_EQ(server_.takeRequest().connectionIndex(), 0);
}

TEST_F(MockWebServerGtlsClientTest, RecordsAPostedBody) {
  const std::string sent = pattern(200 * 1024);
  std::ofstream(directory_.path() / "upload.bin", std::ios::binary) << sent;
  server_.enqueue(MockResponse::Builder().body("got it").build());
  ASSERT_EQ(fetch({"-m", "POST", "-d", (directory_.path() / "upload.bin").string()}, {"/upload"}),
            0)
      << log();
  EXPECT_EQ(readFile(downloads() / "upload"), "got it");
  RecordedRequest request = server_.takeRequest();
  EXPECT_EQ(request.requestLine(), "POST /upload HTTP/3");
  EXPECT_EQ(request.bodySize(), static_cast<int64_t>(sent.size()));
  EXPECT_EQ(request.body().readUtf8(), sent);
}

TEST_F(MockWebServerGtlsClientTest, SurvivesPacketLossBothWays) {
  const std::string large = pattern(1024 * 1024);
  server_.enqueue(MockResponse::Builder().body(large).build());
  ASSERT_EQ(fetch({"-t", "0.1", "-r", "0.1"}, {"/large"}), 0) << log();
  EXPECT_EQ(readFile(downloads() / "large"), large);
}

TEST_F(MockWebServerGtlsClientTest, FollowsKeyUpdates) {
  const std::string large = pattern(4 * 1024 * 1024);
  server_.enqueue(MockResponse::Builder().body(large).build());
  ASSERT_EQ(fetch({"--key-update=20ms"}, {"/big"}), 0) << log();
  EXPECT_EQ(readFile(downloads() / "big"), large);
}

// A NAT rebinding mid-upload: the client's packets come from a new port without warning; the
// server validates the new path and answers there.
TEST_F(MockWebServerGtlsClientTest, FollowsANatRebindingMidUpload) {
  const std::string sent = pattern(8 * 1024 * 1024);
  std::ofstream(directory_.path() / "upload.bin", std::ios::binary) << sent;
  server_.enqueue(MockResponse::Builder().body("uploaded").build());
  ASSERT_EQ(fetch({"--nat-rebinding", "--change-local-addr=20ms", "-m", "POST", "-d",
                   (directory_.path() / "upload.bin").string()},
                  {"/upload"}),
            0)
      << log();
  EXPECT_EQ(readFile(downloads() / "upload"), "uploaded");
  EXPECT_EQ(server_.takeRequest().bodySize(), static_cast<int64_t>(sent.size()));
}

}  // namespace
}  // namespace tern::testing
