// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
// Interop against a real nginx started on loopback by the test: static files, keep-alive reuse
// (checked in nginx's own access log), gzip, redirects, HEAD, ranges. Skipped, saying why, where
// nginx is not installed.
#include <gtest/gtest.h>

#include <chrono>
#include <condition_variable>
#include <mutex>
#include <sstream>
#include <string>
#include <vector>

#include "support/nginx.h"
#include "tern/client.h"

namespace tern::testing {
namespace {

using namespace std::chrono_literals;

// One nginx serving static files on loopback (see support/nginx.h).
class NginxTest : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!Nginx::findBinary()) {
      GTEST_SKIP() << "nginx is not installed (apt-get install nginx, as scripts/setup.sh does)";
    }
    nginx_.writeFile("www/hello.txt", "Hello from nginx!\n");
    for (int i = 0; i < 2000; ++i)
      text_ += "line " + std::to_string(i) + " of a compressible text\n";
    nginx_.writeFile("www/big.txt", text_);
    for (int i = 0; i < (1 << 20); ++i) binary_.push_back(static_cast<char>((i * 7919) & 0xff));
    nginx_.writeFile("www/blob.bin", binary_);
    NginxConfig config;
    config.serverDirectives = "location = /redirect { return 301 /hello.txt; }";
    ASSERT_TRUE(nginx_.start(config)) << "nginx did not start:\n" << nginx_.errorLog();
  }

  std::string url(const std::string& path) const { return nginx_.url(path); }

  Response get(const std::string& path) {
    return client_.newCall(Request::Builder().url(url(path)).build())->execute();
  }

  // nginx's access log: "<connection> <request number on it> "<request line>" <status> ...".
  std::vector<std::string> accessLog(size_t count) { return nginx_.accessLogLines(count); }

  static std::string connectionOf(const std::string& line) {
    return line.substr(0, line.find(' '));
  }
  // "<request number on the connection> <method> <path>".
  static std::string requestOf(const std::string& line) {
    std::istringstream fields(line);
    std::string connection, number, method, path;
    fields >> connection >> number >> method >> path;
    return number + " " + method.substr(1) + " " + path;
  }

  Nginx nginx_;
  std::string text_;
  std::string binary_;
  Client client_ = Client::Builder().connectTimeout(5s).readTimeout(5s).writeTimeout(5s).build();
};

TEST_F(NginxTest, FetchesAStaticFile) {
  Response response = get("/hello.txt");
  EXPECT_EQ(response.code(), 200);
  EXPECT_EQ(response.header("Server").value_or("").rfind("nginx", 0), 0u);
  EXPECT_EQ(response.body()->contentType()->toString(), "text/plain");
  EXPECT_EQ(response.body()->string(), "Hello from nginx!\n");
}

TEST_F(NginxTest, ReusesTheKeepAliveConnection) {
  for (int i = 0; i < 5; ++i) EXPECT_EQ(get("/hello.txt").body()->string(), "Hello from nginx!\n");
  std::vector<std::string> log = accessLog(5);
  ASSERT_EQ(log.size(), 5u);
  for (size_t i = 0; i < log.size(); ++i) {
    EXPECT_EQ(connectionOf(log[i]), connectionOf(log[0])) << log[i];
    EXPECT_EQ(requestOf(log[i]), std::to_string(i + 1) + " GET /hello.txt");
  }
  EXPECT_EQ(client_.connectionPool()->connectionCount(), 1);
}

TEST_F(NginxTest, DecodesGzipTransparently) {
  bool sentGzip = false;
  Client client = client_.newBuilder()
                      .addNetworkInterceptor([&](Interceptor::Chain& chain) {
                        Response response = chain.proceed(chain.request());
                        sentGzip = response.header("Content-Encoding") == "gzip";
                        return response;
                      })
                      .build();
  Response response = client.newCall(Request::Builder().url(url("/big.txt")).build())->execute();
  EXPECT_TRUE(sentGzip);
  EXPECT_FALSE(response.header("Content-Encoding"));
  EXPECT_EQ(response.body()->string(), text_);
}

TEST_F(NginxTest, BinaryFileIsByteExact) {
  Response response = get("/blob.bin");
  EXPECT_EQ(response.body()->contentLength(), static_cast<int64_t>(binary_.size()));
  std::vector<std::byte> bytes = response.body()->bytes();
  EXPECT_EQ(std::string(reinterpret_cast<const char*>(bytes.data()), bytes.size()), binary_);
}

TEST_F(NginxTest, FollowsRedirects) {
  Response response = get("/redirect");
  EXPECT_EQ(response.code(), 200);
  EXPECT_EQ(response.body()->string(), "Hello from nginx!\n");
  ASSERT_NE(response.priorResponse(), nullptr);
  EXPECT_EQ(response.priorResponse()->code(), 301);
  std::vector<std::string> log = accessLog(2);
  ASSERT_EQ(log.size(), 2u);
  EXPECT_EQ(connectionOf(log[0]), connectionOf(log[1]));  // The redirect drained and reused it.
}

TEST_F(NginxTest, MissingFileIsA404Response) {
  Response response = get("/missing");
  EXPECT_EQ(response.code(), 404);
  EXPECT_NE(response.body()->string().find("404 Not Found"), std::string::npos);
  EXPECT_EQ(get("/hello.txt").code(), 200);
  std::vector<std::string> log = accessLog(2);
  ASSERT_EQ(log.size(), 2u);
  EXPECT_EQ(connectionOf(log[0]), connectionOf(log[1]));
}

TEST_F(NginxTest, HeadHasHeadersButNoBody) {
  Response response =
      client_.newCall(Request::Builder().url(url("/blob.bin")).head().build())->execute();
  EXPECT_EQ(response.code(), 200);
  EXPECT_EQ(response.header("Content-Length"), std::to_string(binary_.size()));
  EXPECT_EQ(response.body()->string(), "");
  EXPECT_EQ(get("/hello.txt").body()->string(), "Hello from nginx!\n");
  std::vector<std::string> log = accessLog(2);
  ASSERT_EQ(log.size(), 2u);
  EXPECT_EQ(connectionOf(log[0]), connectionOf(log[1]));
}

TEST_F(NginxTest, RangeRequestGetsPartialContent) {
  Response response =
      client_.newCall(Request::Builder().url(url("/big.txt")).header("Range", "bytes=0-9").build())
          ->execute();
  EXPECT_EQ(response.code(), 206);
  EXPECT_EQ(response.body()->string(), text_.substr(0, 10));
}

TEST_F(NginxTest, PostToAStaticFileIsRefusedAndTheConnectionSurvives) {
  Response response = client_
                          .newCall(Request::Builder()
                                       .url(url("/hello.txt"))
                                       .post(RequestBody::create("a body nginx will not want"))
                                       .build())
                          ->execute();
  EXPECT_EQ(response.code(), 405);
  response.body()->close();
  EXPECT_EQ(get("/hello.txt").body()->string(), "Hello from nginx!\n");
}

TEST_F(NginxTest, ConcurrentAsyncCallsAllComplete) {
  std::mutex mutex;
  std::condition_variable done;
  int completed = 0;
  std::vector<std::string> bodies;
  for (int i = 0; i < 10; ++i) {
    client_.newCall(Request::Builder().url(url("/big.txt")).build())
        ->enqueue(
            [&](Call&, Response response) {
              std::string body = response.body()->string();
              std::lock_guard lock(mutex);
              bodies.push_back(std::move(body));
              ++completed;
              done.notify_all();
            },
            [&](Call&, const IOException& e) {
              std::lock_guard lock(mutex);
              bodies.push_back(std::string("failed: ") + e.what());
              ++completed;
              done.notify_all();
            });
  }
  std::unique_lock lock(mutex);
  ASSERT_TRUE(done.wait_for(lock, 20s, [&] { return completed == 10; }));
  for (const std::string& body : bodies) EXPECT_EQ(body, text_);
  EXPECT_LE(client_.connectionPool()->connectionCount(), 5);  // maxRequestsPerHost.
}

}  // namespace
}  // namespace tern::testing
