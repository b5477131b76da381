// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
//
// tern's transparent content decoding against a real encoder on loopback: Python's brotli and
// zstandard modules and its gzip (tests/data/peers/codings_server.py), which picks a coding from
// the Accept-Encoding the client sent. Skipped, saying why, where the modules are not installed
// (scripts/setup.sh installs python3-brotli and python3-zstandard).
#include <gtest/gtest.h>

#include <sys/wait.h>

#include <chrono>
#include <filesystem>
#include <string>
#include <vector>

#include "support/child_process.h"
#include "support/test_data.h"
#include "tern/client.h"
#include "tern/exceptions.h"

namespace tern::testing {
namespace {

using namespace std::chrono_literals;

const char* kPython = "/usr/bin/python3";

bool pythonCodingsInstalled() {
  int status = std::system(
      (std::string(kPython) + " -c 'import brotli, zstandard' >/dev/null 2>&1").c_str());
  return status != -1 && WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

class ContentCodingInteropTest : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!pythonCodingsInstalled()) {
      GTEST_SKIP() << "python3-brotli or python3-zstandard is not installed (apt-get install "
                      "python3-brotli python3-zstandard, as scripts/setup.sh does)";
    }
    port_ = freeLoopbackPort();
    log_ = std::filesystem::temp_directory_path() /
           ("tern-codings-" + std::to_string(::getpid()) + "-" + std::to_string(port_) + ".log");
    ASSERT_TRUE(server_.startListening(
        {kPython, testDataPath("peers/codings_server.py"), std::to_string(port_)}, log_, true,
        port_))
        << "the server did not start";
  }

  void TearDown() override {
    server_.stop(SIGTERM, 2s);
    std::filesystem::remove(log_);
  }

  std::string url(const std::string& path) {
    return "http://127.0.0.1:" + std::to_string(port_) + path;
  }

  Response get(const std::string& path, const std::string& acceptEncoding = "") {
    Request::Builder request = Request::Builder().url(url(path));
    if (!acceptEncoding.empty()) request.header("Accept-Encoding", acceptEncoding);
    return client_.newCall(std::move(request).build())->execute();
  }

  ChildProcess server_;
  int port_ = 0;
  std::filesystem::path log_;
  Client client_ = Client::Builder().readTimeout(10s).build();
};

TEST_F(ContentCodingInteropTest, EachCodingThePeerPicksIsDecoded) {
  // The same text as the peer sends it unencoded.
  const std::string plain = get("/text/2000000", "identity").body()->string();
  ASSERT_EQ(plain.size(), 2000000u);
  for (std::string prefer : {"br", "zstd", "gzip"}) {
    Response response = get("/text/2000000?prefer=" + prefer);
    EXPECT_EQ(response.header("X-Accept-Encoding"), "br, zstd, gzip") << prefer;
    EXPECT_FALSE(response.header("Content-Encoding")) << prefer;
    EXPECT_FALSE(response.header("Content-Length")) << prefer;
    EXPECT_TRUE(response.body()->string() == plain) << prefer;
  }
}

TEST_F(ContentCodingInteropTest, AskingForOneCodingGetsItUntouched) {
  Response response = get("/text/1000", "zstd");
  EXPECT_EQ(response.header("Content-Encoding"), "zstd");
  std::string body = response.body()->string();
  ASSERT_GE(body.size(), 4u);
  EXPECT_EQ(body.substr(0, 4), std::string("\x28\xb5\x2f\xfd", 4));  // A zstd frame's magic.
}

TEST_F(ContentCodingInteropTest, CorruptBodiesFail) {
  for (std::string coding : {"br", "zstd", "gzip"}) {
    Response response = get("/corrupt/" + coding);
    EXPECT_THROW(response.body()->string(), IOException) << coding;
  }
}

}  // namespace
}  // namespace tern::testing
