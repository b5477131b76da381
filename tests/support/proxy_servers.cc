// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#include "support/proxy_servers.h"

#include <signal.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <fstream>
#include <sstream>

namespace tern::testing {

namespace fs = std::filesystem;
using namespace std::chrono_literals;

namespace {

fs::path freshDirectory(const std::string& name) {
  static std::atomic<int> serial{0};
  fs::path directory =
      fs::temp_directory_path() /
      ("tern-" + name + "-" + std::to_string(::getpid()) + "-" + std::to_string(serial++));
  fs::create_directories(directory);
  return directory;
}

std::string readFile(const fs::path& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

void removeDirectory(const fs::path& directory) {
  std::error_code ignored;  // Best effort: a leftover temporary file fails nothing.
  fs::remove_all(directory, ignored);
}

}  // namespace

Tinyproxy::Tinyproxy() : directory_(freshDirectory("tinyproxy")) {}

Tinyproxy::~Tinyproxy() {
  process_.stop(SIGTERM, 2s);
  removeDirectory(directory_);
}

bool Tinyproxy::installed() {
  return findExecutable("tinyproxy", {"/usr/bin/tinyproxy", "/usr/sbin/tinyproxy"}).has_value();
}

bool Tinyproxy::start(const std::optional<std::pair<std::string, std::string>>& credentials,
                      const std::vector<int>& connectPorts) {
  std::optional<fs::path> binary =
      findExecutable("tinyproxy", {"/usr/bin/tinyproxy", "/usr/sbin/tinyproxy"});
  if (!binary) return false;
  for (int attempt = 0; attempt < 3; ++attempt) {
    port_ = freeLoopbackPort();
    std::ofstream config(directory_ / "tinyproxy.conf");
    config << "Port " << port_ << "\n"
           << "Listen 127.0.0.1\n"
           << "Timeout 30\n"
           << "Allow 127.0.0.1\n"
           << "LogFile \"" << (directory_ / "tinyproxy.log").string() << "\"\n"
           << "LogLevel Info\n"
           << "PidFile \"" << (directory_ / "tinyproxy.pid").string() << "\"\n"
           << "MaxClients 100\n";
    for (int port : connectPorts) config << "ConnectPort " << port << "\n";
    if (credentials)
      config << "BasicAuth " << credentials->first << " " << credentials->second << "\n";
    config.close();
    if (process_.startListening(
            {binary->string(), "-d", "-c", (directory_ / "tinyproxy.conf").string()},
            directory_ / "stderr.log", true, port_)) {
      return true;
    }
  }
  return false;
}

std::string Tinyproxy::log() const {
  return readFile(directory_ / "stderr.log") + readFile(directory_ / "tinyproxy.log");
}

Microsocks::Microsocks() : directory_(freshDirectory("microsocks")) {}

Microsocks::~Microsocks() {
  process_.stop(SIGTERM, 2s);
  removeDirectory(directory_);
}

bool Microsocks::installed() {
  return findExecutable("microsocks", {"/usr/bin/microsocks"}).has_value();
}

bool Microsocks::start(const std::optional<std::pair<std::string, std::string>>& credentials) {
  std::optional<fs::path> binary = findExecutable("microsocks", {"/usr/bin/microsocks"});
  if (!binary) return false;
  for (int attempt = 0; attempt < 3; ++attempt) {
    port_ = freeLoopbackPort();
    std::vector<std::string> args{binary->string(), "-i", "127.0.0.1", "-p", std::to_string(port_)};
    if (credentials) {
      args.insert(args.end(), {"-u", credentials->first, "-P", credentials->second});
    }
    if (process_.startListening(args, directory_ / "microsocks.log", true, port_)) return true;
  }
  return false;
}

std::string Microsocks::log() const { return readFile(directory_ / "microsocks.log"); }

Stunnel::Stunnel() : directory_(freshDirectory("stunnel")) {}

Stunnel::~Stunnel() {
  process_.stop(SIGTERM, 2s);
  removeDirectory(directory_);
}

namespace {

std::optional<fs::path> stunnelBinary() {
  std::optional<fs::path> binary = findExecutable("stunnel4", {"/usr/bin/stunnel4"});
  return binary ? binary : findExecutable("stunnel", {"/usr/bin/stunnel"});
}

}  // namespace

bool Stunnel::installed() { return stunnelBinary().has_value(); }

bool Stunnel::start(int backendPort, const std::string& certificateAndKeyPem) {
  std::optional<fs::path> binary = stunnelBinary();
  if (!binary) return false;
  std::ofstream(directory_ / "server.pem") << certificateAndKeyPem;
  for (int attempt = 0; attempt < 3; ++attempt) {
    port_ = freeLoopbackPort();
    std::ofstream config(directory_ / "stunnel.conf");
    config << "foreground = yes\n"
           << "pid =\n"
           << "debug = 4\n"
           << "[proxy]\n"
           << "accept = 127.0.0.1:" << port_ << "\n"
           << "connect = 127.0.0.1:" << backendPort << "\n"
           << "cert = " << (directory_ / "server.pem").string() << "\n";
    config.close();
    if (process_.startListening({binary->string(), (directory_ / "stunnel.conf").string()},
                                directory_ / "stunnel.log", true, port_)) {
      return true;
    }
  }
  return false;
}

std::string Stunnel::log() const { return readFile(directory_ / "stunnel.log"); }

}  // namespace tern::testing
