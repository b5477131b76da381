// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#include "support/nginx.h"

#include <signal.h>
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

std::string readFile(const fs::path& path) {
  std::ifstream file(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(file), std::istreambuf_iterator<char>());
}

}  // namespace

std::optional<fs::path> Nginx::findBinary() {
  return findExecutable("nginx", {"/usr/sbin/nginx", "/usr/local/sbin/nginx"});
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
  // A port taken between freeLoopbackPort() and nginx's bind makes it exit: try another.
  const std::string prefix = directory_.string() + "/";
  for (int attempt = 0; attempt < 3; ++attempt) {
    port_ = freeLoopbackPort();
    writeConfig(config);
    // nginx's own start-up complaints (a bad directive, say) go to stderr.log, for errorLog().
    if (process_.startListening({binary->string(), "-p", prefix, "-c", prefix + "nginx.conf", "-e",
                                 prefix + "error.log", "-g", "daemon off;"},
                                prefix + "stderr.log", false, port_)) {
      return true;
    }
  }
  return false;
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

void Nginx::stop() {
  process_.stop(SIGQUIT, std::chrono::seconds(10));  // Graceful: finishes and flushes its logs.
}

}  // namespace tern::testing
