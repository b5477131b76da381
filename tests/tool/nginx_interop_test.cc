// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
// The built `tern` binary against a real nginx, started by the test on loopback with its own
// configuration in a temporary directory (pid, logs and temp paths there, so no root is needed
// and nothing outside the directory is touched). Skipped only where nginx is not installed.
#include <arpa/inet.h>
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <optional>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "temp_dir.h"
#include "tool_process.h"

namespace tern::tool {
namespace {

using namespace std::chrono_literals;
using ::testing::HasSubstr;
using testing::runTern;
using ::testing::StartsWith;
using testing::TempDir;
using testing::ToolRun;

// The nginx binary: on PATH, or where Debian installs it (/usr/sbin is not on every PATH).
std::optional<std::filesystem::path> findNginx() {
  std::vector<std::filesystem::path> candidates;
  if (const char* path = std::getenv("PATH")) {
    std::stringstream directories(path);
    for (std::string directory; std::getline(directories, directory, ':');) {
      candidates.push_back(std::filesystem::path(directory) / "nginx");
    }
  }
  candidates.emplace_back("/usr/sbin/nginx");
  candidates.emplace_back("/usr/local/sbin/nginx");
  for (const std::filesystem::path& candidate : candidates) {
    if (::access(candidate.c_str(), X_OK) == 0) {
      return candidate;
    }
  }
  return std::nullopt;
}

// A port nothing listens on right now: bound to port 0, then released.
int freePort() {
  int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  socklen_t length = sizeof(address);
  int port = -1;
  if (::bind(fd, reinterpret_cast<sockaddr*>(&address), sizeof(address)) == 0 &&
      ::getsockname(fd, reinterpret_cast<sockaddr*>(&address), &length) == 0) {
    port = ntohs(address.sin_port);
  }
  ::close(fd);
  return port;
}

bool accepts(int port) {
  int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  address.sin_port = htons(static_cast<uint16_t>(port));
  bool connected = ::connect(fd, reinterpret_cast<sockaddr*>(&address), sizeof(address)) == 0;
  ::close(fd);
  return connected;
}

// An nginx serving `directory`/www on 127.0.0.1, in the foreground (-g 'daemon off;') as a child
// of the test, stopped and reaped when destroyed. Its access log records, for each request, the
// connection's serial number and the request's number on it.
class Nginx {
 public:
  Nginx(const std::filesystem::path& binary, const TempDir& directory) : directory_(directory) {
    for (int attempt = 0; attempt < 3 && pid_ < 0; ++attempt) {
      port_ = freePort();
      writeConfig();
      start(binary);
    }
  }
  ~Nginx() { stop(); }
  Nginx(const Nginx&) = delete;
  Nginx& operator=(const Nginx&) = delete;

  bool running() const { return pid_ > 0; }
  int port() const { return port_; }
  std::string url(const std::string& path) const {
    return "http://127.0.0.1:" + std::to_string(port_) + path;
  }
  // Stops nginx (so its logs are complete) and returns the access log.
  std::string accessLog() {
    stop();
    return directory_.read("access.log");
  }
  std::string errorLog() const { return directory_.read("error.log"); }

 private:
  void writeConfig() const {
    const std::string dir = directory_.path().string();
    std::ofstream config(directory_.path() / "nginx.conf");
    config << "master_process off;\n"
           << "worker_processes 1;\n"
           << "pid " << dir << "/nginx.pid;\n"
           << "error_log " << dir << "/error.log;\n"
           << "events { worker_connections 64; }\n"
           << "http {\n"
           << "  log_format reuse '$connection $connection_requests \"$request\" $status';\n"
           << "  access_log " << dir << "/access.log reuse;\n"
           << "  client_body_temp_path " << dir << "/client_body;\n"
           << "  proxy_temp_path " << dir << "/proxy;\n"
           << "  fastcgi_temp_path " << dir << "/fastcgi;\n"
           << "  uwsgi_temp_path " << dir << "/uwsgi;\n"
           << "  scgi_temp_path " << dir << "/scgi;\n"
           << "  default_type text/plain;\n"
           << "  keepalive_timeout 60s;\n"
           << "  gzip on;\n"
           << "  gzip_min_length 1;\n"
           << "  gzip_types text/plain;\n"
           << "  server {\n"
           << "    listen 127.0.0.1:" << port_ << ";\n"
           << "    root " << dir << "/www;\n"
           << "    location = /moved { return 302 /one.txt; }\n"
           << "  }\n"
           << "}\n";
  }

  void start(const std::filesystem::path& binary) {
    std::string program = binary.string();
    std::string prefix = directory_.path().string() + "/";
    std::string config = prefix + "nginx.conf";
    std::string errorLog = prefix + "error.log";
    std::vector<std::string> args = {program, "-p",     prefix, "-c",         config,
                                     "-e",    errorLog, "-g",   "daemon off;"};
    std::vector<char*> argv;
    for (std::string& arg : args) {
      argv.push_back(arg.data());
    }
    argv.push_back(nullptr);
    pid_t pid = ::fork();
    if (pid == 0) {
      ::execv(argv[0], argv.data());
      ::_exit(127);
    }
    pid_ = pid;
    auto deadline = std::chrono::steady_clock::now() + 10s;
    while (std::chrono::steady_clock::now() < deadline) {
      if (accepts(port_)) {
        return;
      }
      int status = 0;
      if (::waitpid(pid_, &status, WNOHANG) == pid_) {  // It exited: the port was taken?
        pid_ = -1;
        return;
      }
      std::this_thread::sleep_for(20ms);
    }
    stop();
  }

  void stop() {
    if (pid_ <= 0) {
      return;
    }
    ::kill(pid_, SIGQUIT);  // Graceful: finishes and flushes its logs.
    int status = 0;
    auto deadline = std::chrono::steady_clock::now() + 10s;
    while (::waitpid(pid_, &status, WNOHANG) == 0) {
      if (std::chrono::steady_clock::now() > deadline) {
        ::kill(pid_, SIGKILL);
        ::waitpid(pid_, &status, 0);
        break;
      }
      std::this_thread::sleep_for(10ms);
    }
    pid_ = -1;
  }

  const TempDir& directory_;
  int port_ = -1;
  pid_t pid_ = -1;
};

class NginxInteropTest : public ::testing::Test {
 protected:
  void SetUp() override {
    std::optional<std::filesystem::path> binary = findNginx();
    if (!binary) {
      GTEST_SKIP() << "nginx is not installed (apt-get install nginx, as scripts/setup.sh "
                      "does), so the interop test against a real nginx cannot run";
    }
    std::filesystem::create_directories(directory_.path() / "www");
    directory_.write("www/one.txt", "one");
    directory_.write("www/two.txt", "two");
    directory_.write("www/big.txt", std::string(100000, 'x'));
    nginx_.emplace(*binary, directory_);
    ASSERT_TRUE(nginx_->running()) << "nginx did not start:\n" << nginx_->errorLog();
  }

  // Lines of the access log: "<connection> <request number on it> "<request line>" <status>".
  std::vector<std::string> accessLogLines() {
    std::vector<std::string> lines;
    std::stringstream log(nginx_->accessLog());
    for (std::string line; std::getline(log, line);) {
      lines.push_back(line);
    }
    return lines;
  }

  TempDir directory_;
  std::optional<Nginx> nginx_;
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

TEST_F(NginxInteropTest, GzippedBodyIsDecodedTransparently) {
  ToolRun run = runTern({"-v", "-w", "\\n%{size_download}", nginx_->url("/big.txt")});
  EXPECT_EQ(run.exitCode, 0) << run.err;
  EXPECT_EQ(run.out, std::string(100000, 'x') + "\n100000");
  // nginx compressed it: the client asked for gzip and unpacked the answer.
  EXPECT_THAT(run.err, HasSubstr("> Accept-Encoding: gzip\r\n"));
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
  ToolRun run =
      runTern({"-w", " %{num_redirects} %{num_connects} %{url_effective}", nginx_->url("/moved")});
  EXPECT_EQ(run.exitCode, 0) << run.err;
  EXPECT_EQ(run.out, "one 1 1 " + nginx_->url("/one.txt"));
}

TEST_F(NginxInteropTest, MissingFileFailsWith22) {
  ToolRun run = runTern({"-f", nginx_->url("/missing.txt")});
  EXPECT_EQ(run.exitCode, 22);
  EXPECT_EQ(run.err, "tern: (22) The requested URL returned error: 404\n");
}

}  // namespace
}  // namespace tern::tool
