// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
// HTTP/2 interop against real servers on loopback: nghttpd (nghttp2's own server) and nginx,
// both cleartext with prior knowledge (nghttpd --no-tls; nginx "listen ... http2"). Each test
// is skipped, saying why, where the server is not installed. (Over TLS with ALPN once the
// client has TLS.)
#include <gtest/gtest.h>

#include <atomic>
#include <future>
#include <set>

#include "interop_process.h"
#include "support/nginx.h"
#include "tern/client.h"
#include "tern/connection_pool.h"

namespace tern::testing {
namespace {

namespace fs = std::filesystem;
using namespace std::chrono_literals;

std::string pattern(size_t size) {
  std::string result(size, ' ');
  for (size_t i = 0; i < size; ++i) result[i] = static_cast<char>('a' + (i * 7) % 26);
  return result;
}

// A directory of files to serve, removed afterwards.
class InteropFixture : public ::testing::Test {
 protected:
  void makeDocroot() {
    dir_ = fs::temp_directory_path() /
           ("tern-h2-interop-" + std::to_string(::getpid()) + "-" + std::to_string(++instances_));
    fs::create_directories(dir_ / "www");
    fs::create_directories(dir_ / "logs");
    writeFile(dir_ / "www" / "hello.txt", "Hello over HTTP/2!\n");
    big_ = pattern(8 * 1024 * 1024);
    writeFile(dir_ / "www" / "big.bin", big_);
    port_ = freeLoopbackPort();
  }

  void TearDown() override {
    server_.stop();
    if (!dir_.empty()) fs::remove_all(dir_);
  }

  std::string url(const std::string& path) const {
    return "http://127.0.0.1:" + std::to_string(port_) + path;
  }

  Response get(const std::string& path) {
    return client_.newCall(Request::Builder().url(url(path)).build())->execute();
  }

  // Runs `count` GETs of `path` at once through the dispatcher; returns how many succeeded.
  int getConcurrently(const std::string& path, int count) {
    std::atomic<int> ok{0};
    std::atomic<int> remaining{count};
    std::promise<void> done;
    for (int i = 0; i < count; ++i) {
      client_.newCall(Request::Builder().url(url(path)).build())
          ->enqueue(Callback::of(
              [&](Call&, Response response) {
                if (response.code() == 200 && !response.body()->string().empty()) ++ok;
                if (--remaining == 0) done.set_value();
              },
              [&](Call&, const IOException&) {
                if (--remaining == 0) done.set_value();
              }));
    }
    done.get_future().wait_for(30s);
    return ok;
  }

  static inline int instances_ = 0;
  fs::path dir_;
  int port_ = 0;
  std::string big_;
  ServerProcess server_;
  Client client_ = Client::Builder()
                       .protocols({Protocol::H2_PRIOR_KNOWLEDGE})
                       .connectTimeout(5s)
                       .readTimeout(10s)
                       .writeTimeout(10s)
                       .build();
};

class NghttpdInteropTest : public InteropFixture {
 protected:
  void SetUp() override {
    std::string nghttpd = findExecutable({"/usr/sbin/nghttpd", "/usr/bin/nghttpd"});
    if (nghttpd.empty())
      GTEST_SKIP() << "nghttpd is not installed (apt-get install nghttp2-server)";
    makeDocroot();
    std::string error = server_.start({nghttpd, "--no-tls", "-a", "127.0.0.1", "-d",
                                       (dir_ / "www").string(), std::to_string(port_)},
                                      (dir_ / "logs" / "nghttpd.log").string(), port_);
    ASSERT_EQ(error, "");
  }
};

TEST_F(NghttpdInteropTest, FetchesAFile) {
  Response response = get("/hello.txt");
  EXPECT_EQ(response.code(), 200);
  EXPECT_EQ(response.protocol(), Protocol::H2_PRIOR_KNOWLEDGE);
  EXPECT_EQ(response.message(), "");
  EXPECT_EQ(response.header("server").value_or("").rfind("nghttpd", 0), 0u);
  EXPECT_EQ(response.body()->string(), "Hello over HTTP/2!\n");
}

TEST_F(NghttpdInteropTest, MissingFileIs404) {
  Response response = get("/missing.txt");
  EXPECT_EQ(response.code(), 404);
}

TEST_F(NghttpdInteropTest, LargeFileArrivesWhole) {
  Response response = get("/big.bin");
  EXPECT_EQ(response.body()->contentLength(), static_cast<int64_t>(big_.size()));
  EXPECT_EQ(response.body()->string(), big_);
}

TEST_F(NghttpdInteropTest, ConcurrentCallsShareOneConnection) {
  EXPECT_EQ(getConcurrently("/hello.txt", 40), 40);
  EXPECT_EQ(client_.connectionPool()->connectionCount(), 1);
}

TEST_F(NghttpdInteropTest, ConcurrentLargeFilesShareOneConnection) {
  EXPECT_EQ(getConcurrently("/big.bin", 4), 4);
  EXPECT_EQ(client_.connectionPool()->connectionCount(), 1);
}

TEST_F(NghttpdInteropTest, HeadHasNoBody) {
  Response response =
      client_.newCall(Request::Builder().url(url("/hello.txt")).head().build())->execute();
  EXPECT_EQ(response.code(), 200);
  EXPECT_EQ(response.body()->string(), "");
}

TEST_F(NghttpdInteropTest, PostsABody) {
  Response response = client_
                          .newCall(Request::Builder()
                                       .url(url("/hello.txt"))
                                       .post(RequestBody::create(pattern(1024 * 1024)))
                                       .build())
                          ->execute();
  // nghttpd reads the body and serves the file whatever the method.
  EXPECT_EQ(response.code(), 200);
  EXPECT_EQ(response.body()->string(), "Hello over HTTP/2!\n");
}

// nginx serves HTTP/2 without TLS to clients with prior knowledge ("listen ... http2").
class NginxH2cInteropTest : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!Nginx::findBinary()) GTEST_SKIP() << "nginx is not installed (apt-get install nginx)";
    nginx_.writeFile("www/hello.txt", "Hello over HTTP/2!\n");
    big_ = pattern(8 * 1024 * 1024);
    nginx_.writeFile("www/big.bin", big_);
    ASSERT_TRUE(nginx_.start({"http2", "http2_max_concurrent_streams 128;", ""}))
        << nginx_.errorLog();
  }

  Response get(const std::string& path) {
    return client_.newCall(Request::Builder().url(nginx_.url(path)).build())->execute();
  }

  Nginx nginx_;
  std::string big_;
  Client client_ = Client::Builder()
                       .protocols({Protocol::H2_PRIOR_KNOWLEDGE})
                       .connectTimeout(5s)
                       .readTimeout(10s)
                       .build();
};

TEST_F(NginxH2cInteropTest, FetchesAFileOverHttp2) {
  Response response = get("/hello.txt");
  EXPECT_EQ(response.code(), 200);
  EXPECT_EQ(response.protocol(), Protocol::H2_PRIOR_KNOWLEDGE);
  EXPECT_EQ(response.body()->string(), "Hello over HTTP/2!\n");
  std::vector<std::string> log = nginx_.accessLogLines(1);
  ASSERT_EQ(log.size(), 1u);
  EXPECT_NE(log[0].find("HTTP/2.0"), std::string::npos) << log[0];
}

TEST_F(NginxH2cInteropTest, ManyConcurrentCallsUseOneConnection) {
  client_.dispatcher()->setMaxRequestsPerHost(50);
  std::atomic<int> ok{0};
  std::atomic<int> remaining{200};
  std::promise<void> done;
  for (int i = 0; i < 200; ++i) {
    client_.newCall(Request::Builder().url(nginx_.url("/hello.txt")).build())
        ->enqueue(Callback::of(
            [&](Call&, Response response) {
              if (response.body()->string() == "Hello over HTTP/2!\n") ++ok;
              if (--remaining == 0) done.set_value();
            },
            [&](Call&, const IOException&) {
              if (--remaining == 0) done.set_value();
            }));
  }
  ASSERT_EQ(done.get_future().wait_for(30s), std::future_status::ready);
  EXPECT_EQ(ok, 200);
  std::vector<std::string> log = nginx_.accessLogLines(200);
  ASSERT_EQ(log.size(), 200u);
  std::set<std::string> connections;
  for (const std::string& line : log) connections.insert(line.substr(0, line.find(' ')));
  EXPECT_EQ(connections.size(), 1u) << "nginx saw " << connections.size() << " connections";
}

TEST_F(NginxH2cInteropTest, LargeFileArrivesWhole) {
  EXPECT_EQ(get("/big.bin").body()->string(), big_);
}

}  // namespace
}  // namespace tern::testing
