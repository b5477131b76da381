// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#include "support/openssl_server.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
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

// True once something listens on the port. (The probe connection is one s_server accepts and
// drops: it fails its handshake and s_server carries on.)
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

}  // namespace

std::optional<fs::path> OpenSslServer::findBinary() {
  std::vector<fs::path> candidates;
  if (const char* path = std::getenv("PATH")) {
    std::stringstream directories(path);
    for (std::string directory; std::getline(directories, directory, ':');) {
      if (!directory.empty()) candidates.push_back(fs::path(directory) / "openssl");
    }
  }
  candidates.emplace_back("/usr/bin/openssl");
  for (const fs::path& candidate : candidates) {
    if (::access(candidate.c_str(), X_OK) == 0) return candidate;
  }
  return std::nullopt;
}

OpenSslServer::OpenSslServer(const tls::HeldCertificate& certificate,
                             const std::vector<Certificate>& chain) {
  static int instances = 0;
  directory_ = fs::temp_directory_path() /
               ("tern-s_server-" + std::to_string(::getpid()) + "-" + std::to_string(instances++));
  fs::remove_all(directory_);
  fs::create_directories(directory_);
  std::string certificates = certificate.certificatePem();
  for (const Certificate& c : chain) certificates += c.pem();
  writeFile("cert.pem", certificates);
  writeFile("key.pem", certificate.privateKeyPkcs8Pem());
}

OpenSslServer::~OpenSslServer() {
  stop();
  std::error_code ignored;
  fs::remove_all(directory_, ignored);
}

fs::path OpenSslServer::writeFile(const std::string& name, const std::string& content) const {
  fs::path file = directory_ / name;
  std::ofstream(file, std::ios::binary) << content;
  return file;
}

bool OpenSslServer::start(const std::vector<std::string>& extraArguments) {
  std::optional<fs::path> binary = findBinary();
  if (!binary) return false;
  for (int attempt = 0; attempt < 3 && pid_ < 0; ++attempt) {
    port_ = freePort();
    std::vector<std::string> args = {binary->string(),
                                     "s_server",
                                     "-accept",
                                     "127.0.0.1:" + std::to_string(port_),
                                     "-cert",
                                     (directory_ / "cert.pem").string(),
                                     "-key",
                                     (directory_ / "key.pem").string(),
                                     "-www"};
    args.insert(args.end(), extraArguments.begin(), extraArguments.end());
    std::vector<char*> argv;
    for (std::string& arg : args) argv.push_back(arg.data());
    argv.push_back(nullptr);
    const std::string log = (directory_ / "output.log").string();
    pid_t pid = ::fork();
    if (pid == 0) {
      FILE* out = std::freopen(log.c_str(), "a", stdout);
      FILE* err = std::freopen(log.c_str(), "a", stderr);
      (void)out;
      (void)err;
      ::execv(argv[0], argv.data());
      ::_exit(127);
    }
    if (pid < 0) return false;
    pid_ = pid;
    auto deadline = std::chrono::steady_clock::now() + 10s;
    while (true) {
      if (accepts(port_)) return true;
      int status = 0;
      if (::waitpid(pid_, &status, WNOHANG) == pid_) {
        pid_ = -1;  // It exited (the port was taken?): try another port.
        break;
      }
      if (std::chrono::steady_clock::now() > deadline) {
        stop();
        break;
      }
      std::this_thread::sleep_for(20ms);
    }
  }
  return pid_ > 0;
}

std::string OpenSslServer::output() const {
  std::ifstream file(directory_ / "output.log", std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(file), std::istreambuf_iterator<char>());
}

void OpenSslServer::stop() {
  if (pid_ <= 0) return;
  ::kill(pid_, SIGTERM);
  int status = 0;
  auto deadline = std::chrono::steady_clock::now() + 5s;
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
