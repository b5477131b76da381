// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#include "support/nginx.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <fstream>
#include <iterator>
#include <sstream>
#include <system_error>
#include <thread>

namespace tern::testing {
namespace {

using namespace std::chrono_literals;
namespace fs = std::filesystem;

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

std::string readFile(const fs::path& path) {
  std::ifstream file(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(file), std::istreambuf_iterator<char>());
}

}  // namespace

std::optional<fs::path> Nginx::findBinary() {
  std::vector<fs::path> candidates;
  if (const char* path = std::getenv("PATH")) {
    std::stringstream directories(path);
    for (std::string directory; std::getline(directories, directory, ':');) {
      if (!directory.empty()) candidates.push_back(fs::path(directory) / "nginx");
    }
  }
  candidates.emplace_back("/usr/sbin/nginx");
  candidates.emplace_back("/usr/local/sbin/nginx");
  for (const fs::path& candidate : candidates) {
    if (::access(candidate.c_str(), X_OK) == 0) return candidate;
  }
  return std::nullopt;
}

Nginx::Nginx() {
  static int instances = 0;
  directory_ = fs::temp_directory_path() /
               ("tern-nginx-" + std::to_string(::getpid()) + "-" + std::to_string(instances++));
  fs::remove_all(directory_);
  fs::create_directories(directory_ / "www");
}

Nginx::~Nginx() {
  stop();
  std::error_code ignored;  // Best effort: a leftover temporary file fails nothing.
  fs::remove_all(directory_, ignored);
}

fs::path Nginx::writeFile(const std::string& relativePath, const std::string& content) const {
  fs::path file = directory_ / relativePath;
  fs::create_directories(file.parent_path());
  std::ofstream(file, std::ios::binary) << content;
  return file;
}

bool Nginx::start(const NginxConfig& config) {
  std::optional<fs::path> binary = findBinary();
  if (!binary) return false;
  for (int attempt = 0; attempt < 3 && pid_ < 0; ++attempt) {
    port_ = freePort();
    writeConfig(config);
    spawn(*binary);
  }
  return running();
}

std::string Nginx::url(const std::string& path, const std::string& scheme) const {
  return scheme + "://127.0.0.1:" + std::to_string(port_) + path;
}

std::vector<std::string> Nginx::accessLogLines(size_t count, std::chrono::milliseconds wait) {
  std::vector<std::string> lines;
  auto deadline = std::chrono::steady_clock::now() + wait;
  while (true) {
    lines.clear();
    std::istringstream log(readFile(directory_ / "access.log"));
    for (std::string line; std::getline(log, line);) lines.push_back(line);
    if (lines.size() >= count || std::chrono::steady_clock::now() >= deadline) return lines;
    std::this_thread::sleep_for(10ms);
  }
}

std::string Nginx::errorLog() const {
  return readFile(directory_ / "error.log") + readFile(directory_ / "stderr.log");
}

void Nginx::writeConfig(const NginxConfig& config) const {
  const std::string dir = directory_.string();
  std::ofstream out(directory_ / "nginx.conf");
  out << "master_process off;\n"
      << "worker_processes 1;\n"
      << "pid " << dir << "/nginx.pid;\n"
      << "error_log " << dir << "/error.log;\n"
      << "events { worker_connections 256; }\n"
      << "http {\n"
      << "  log_format reuse '$connection $connection_requests \"$request\" $status';\n"
      << "  access_log " << dir << "/access.log reuse;\n"
      << "  client_body_temp_path " << dir << "/client_body;\n"
      << "  proxy_temp_path " << dir << "/proxy;\n"
      << "  fastcgi_temp_path " << dir << "/fastcgi;\n"
      << "  uwsgi_temp_path " << dir << "/uwsgi;\n"
      << "  scgi_temp_path " << dir << "/scgi;\n"
      << "  types { text/plain txt; application/octet-stream bin; text/html html; }\n"
      << "  default_type text/plain;\n"
      << "  keepalive_timeout 60s;\n"
      << "  keepalive_requests 100000;\n"
      << "  gzip on;\n"
      << "  gzip_min_length 1;\n"
      << "  gzip_types text/plain;\n"
      << config.httpDirectives << "\n"
      << "  server {\n"
      << "    listen 127.0.0.1:" << port_ << " " << config.listenParameters << ";\n"
      << "    root " << dir << "/www;\n"
      << config.serverDirectives << "\n"
      << "  }\n"
      << "}\n";
}

void Nginx::spawn(const fs::path& binary) {
  const std::string prefix = directory_.string() + "/";
  std::vector<std::string> args = {
      binary.string(),      "-p", prefix,       "-c", prefix + "nginx.conf", "-e",
      prefix + "error.log", "-g", "daemon off;"};
  std::vector<char*> argv;
  for (std::string& arg : args) argv.push_back(arg.data());
  argv.push_back(nullptr);
  const std::string stderrLog = prefix + "stderr.log";
  pid_t pid = ::fork();
  if (pid == 0) {
    // nginx's own start-up complaints (a bad directive, say) go to a file the test can show.
    FILE* log = std::freopen(stderrLog.c_str(), "a", stderr);
    (void)log;
    ::execv(argv[0], argv.data());
    ::_exit(127);
  }
  if (pid < 0) return;
  pid_ = pid;
  auto deadline = std::chrono::steady_clock::now() + 10s;
  while (std::chrono::steady_clock::now() < deadline) {
    if (accepts(port_)) return;
    int status = 0;
    if (::waitpid(pid_, &status, WNOHANG) == pid_) {  // It exited: the port was taken?
      pid_ = -1;
      return;
    }
    std::this_thread::sleep_for(20ms);
  }
  stop();
}

void Nginx::stop() {
  if (pid_ <= 0) return;
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

}  // namespace tern::testing
