// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
// Interop against a real nginx started on loopback by the test: static files, keep-alive reuse
// (checked in nginx's own access log), gzip, redirects, HEAD, ranges. Skipped, saying why, where
// nginx is not installed.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <signal.h>
#include <spawn.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "tern/client.h"

extern char** environ;

namespace tern::testing {
namespace {

namespace fs = std::filesystem;
using namespace std::chrono_literals;

std::string findNginx() {
  for (const char* candidate : {"/usr/sbin/nginx", "/usr/bin/nginx", "/usr/local/sbin/nginx"}) {
    if (::access(candidate, X_OK) == 0) return candidate;
  }
  return "";
}

// A port that was free a moment ago.
int freePort() {
  int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  socklen_t length = sizeof(address);
  ::bind(fd, reinterpret_cast<sockaddr*>(&address), length);
  ::getsockname(fd, reinterpret_cast<sockaddr*>(&address), &length);
  ::close(fd);
  return ntohs(address.sin_port);
}

bool accepting(int port) {
  int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  address.sin_port = htons(static_cast<uint16_t>(port));
  bool ok = ::connect(fd, reinterpret_cast<sockaddr*>(&address), sizeof(address)) == 0;
  ::close(fd);
  return ok;
}

void writeFile(const fs::path& path, const std::string& content) {
  std::ofstream out(path, std::ios::binary);
  out << content;
}

std::string readFile(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream content;
  content << in.rdbuf();
  return content.str();
}

// One nginx process (no master, no daemon) serving dir_/www on 127.0.0.1:port_.
class NginxTest : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string nginx = findNginx();
    if (nginx.empty()) GTEST_SKIP() << "nginx is not installed (apt-get install nginx-light)";

    dir_ = fs::temp_directory_path() /
           ("tern-nginx-" + std::to_string(::getpid()) + "-" + std::to_string(++instances_));
    fs::create_directories(dir_ / "www");
    fs::create_directories(dir_ / "logs");
    writeFile(dir_ / "www" / "hello.txt", "Hello from nginx!\n");
    for (int i = 0; i < 2000; ++i)
      text_ += "line " + std::to_string(i) + " of a compressible text\n";
    writeFile(dir_ / "www" / "big.txt", text_);
    for (int i = 0; i < (1 << 20); ++i) binary_.push_back(static_cast<char>((i * 7919) & 0xff));
    writeFile(dir_ / "www" / "blob.bin", binary_);

    port_ = freePort();
    std::string d = dir_.string();
    writeFile(dir_ / "nginx.conf",
              "daemon off;\n"
              "master_process off;\n"
              "error_log " +
                  d +
                  "/logs/error.log;\n"
                  "pid " +
                  d +
                  "/nginx.pid;\n"
                  "events { worker_connections 64; }\n"
                  "http {\n"
                  "  types { text/plain txt; application/octet-stream bin; }\n"
                  "  log_format reuse '$connection $connection_requests $request_method $uri';\n"
                  "  access_log " +
                  d +
                  "/logs/access.log reuse;\n"
                  "  client_body_temp_path " +
                  d +
                  "/body;\n"
                  "  proxy_temp_path " +
                  d +
                  "/proxy;\n"
                  "  fastcgi_temp_path " +
                  d +
                  "/fastcgi;\n"
                  "  uwsgi_temp_path " +
                  d +
                  "/uwsgi;\n"
                  "  scgi_temp_path " +
                  d +
                  "/scgi;\n"
                  "  keepalive_timeout 30s;\n"
                  "  gzip on;\n"
                  "  gzip_types text/plain;\n"
                  "  gzip_min_length 1;\n"
                  "  server {\n"
                  "    listen 127.0.0.1:" +
                  std::to_string(port_) +
                  ";\n"
                  "    root " +
                  d +
                  "/www;\n"
                  "    location = /redirect { return 301 /hello.txt; }\n"
                  "  }\n"
                  "}\n");

    std::string prefix = d + "/";
    std::string config = d + "/nginx.conf";
    std::vector<char*> argv = {nginx.data(),  const_cast<char*>("-p"),
                               prefix.data(), const_cast<char*>("-c"),
                               config.data(), nullptr};
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    std::string log = d + "/logs/stderr.log";
    posix_spawn_file_actions_addopen(&actions, STDERR_FILENO, log.c_str(), O_WRONLY | O_CREAT,
                                     0644);
    int spawned = posix_spawn(&pid_, nginx.c_str(), &actions, nullptr, argv.data(), environ);
    posix_spawn_file_actions_destroy(&actions);
    ASSERT_EQ(spawned, 0) << "cannot start " << nginx;

    auto deadline = std::chrono::steady_clock::now() + 10s;
    while (!accepting(port_)) {
      int status = 0;
      if (::waitpid(pid_, &status, WNOHANG) == pid_) {
        pid_ = -1;
        FAIL() << "nginx exited at start: " << readFile(log)
               << readFile(dir_ / "logs" / "error.log");
      }
      ASSERT_LT(std::chrono::steady_clock::now(), deadline) << "nginx did not start listening";
      std::this_thread::sleep_for(10ms);
    }
  }

  void TearDown() override {
    if (pid_ > 0) {
      ::kill(pid_, SIGTERM);
      ::waitpid(pid_, nullptr, 0);
    }
    if (!dir_.empty()) fs::remove_all(dir_);
  }

  std::string url(const std::string& path) const {
    return "http://127.0.0.1:" + std::to_string(port_) + path;
  }

  Response get(const std::string& path) {
    return client_.newCall(Request::Builder().url(url(path)).build())->execute();
  }

  // nginx's access log, one "<connection> <request number on it> <method> <uri>" per request. It
  // is written when each request ends, so wait for `count` lines.
  std::vector<std::string> accessLog(size_t count) {
    std::vector<std::string> lines;
    auto deadline = std::chrono::steady_clock::now() + 5s;
    while (std::chrono::steady_clock::now() < deadline) {
      lines.clear();
      std::istringstream in(readFile(dir_ / "logs" / "access.log"));
      for (std::string line; std::getline(in, line);) lines.push_back(line);
      if (lines.size() >= count) break;
      std::this_thread::sleep_for(10ms);
    }
    return lines;
  }

  static std::string connectionOf(const std::string& line) {
    return line.substr(0, line.find(' '));
  }

  static inline int instances_ = 0;
  fs::path dir_;
  int port_ = 0;
  pid_t pid_ = -1;
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
    EXPECT_EQ(log[i].substr(log[i].find(' ') + 1), std::to_string(i + 1) + " GET /hello.txt");
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
