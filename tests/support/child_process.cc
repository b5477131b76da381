// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#include "support/child_process.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <sstream>
#include <thread>

namespace tern::testing {

namespace fs = std::filesystem;
using namespace std::chrono_literals;

namespace {

sockaddr_in loopback(int port) {
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  address.sin_port = htons(static_cast<uint16_t>(port));
  return address;
}

}  // namespace

int freeLoopbackPort() {
  int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  sockaddr_in address = loopback(0);
  socklen_t length = sizeof(address);
  int port = -1;
  if (::bind(fd, reinterpret_cast<sockaddr*>(&address), sizeof(address)) == 0 &&
      ::getsockname(fd, reinterpret_cast<sockaddr*>(&address), &length) == 0) {
    port = ntohs(address.sin_port);
  }
  ::close(fd);
  return port;
}

bool acceptsOnLoopback(int port) {
  int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  sockaddr_in address = loopback(port);
  bool connected = ::connect(fd, reinterpret_cast<sockaddr*>(&address), sizeof(address)) == 0;
  ::close(fd);
  return connected;
}

std::optional<fs::path> findExecutable(const std::string& name,
                                       const std::vector<fs::path>& fallbacks) {
  std::vector<fs::path> candidates;
  if (const char* path = std::getenv("PATH")) {
    std::stringstream directories(path);
    for (std::string directory; std::getline(directories, directory, ':');) {
      if (!directory.empty()) candidates.push_back(fs::path(directory) / name);
    }
  }
  candidates.insert(candidates.end(), fallbacks.begin(), fallbacks.end());
  for (const fs::path& candidate : candidates) {
    if (::access(candidate.c_str(), X_OK) == 0) return candidate;
  }
  return std::nullopt;
}

ChildProcess::~ChildProcess() { stop(SIGTERM, 5s); }

bool ChildProcess::startListening(const std::vector<std::string>& args, const fs::path& logFile,
                                  bool logStdout, int port, std::chrono::milliseconds wait) {
  return start(
      args, logFile, logStdout, [port] { return acceptsOnLoopback(port); }, wait);
}

bool ChildProcess::start(const std::vector<std::string>& args, const fs::path& logFile,
                         bool logStdout, const std::function<bool()>& ready,
                         std::chrono::milliseconds wait) {
  if (pid_ > 0 || args.empty()) return false;
  std::vector<std::string> copies = args;
  std::vector<char*> argv;
  for (std::string& arg : copies) argv.push_back(arg.data());
  argv.push_back(nullptr);
  const std::string log = logFile.string();
  pid_t pid = ::fork();
  if (pid == 0) {
    if (logStdout) {
      FILE* out = std::freopen(log.c_str(), "a", stdout);
      (void)out;
    }
    FILE* err = std::freopen(log.c_str(), "a", stderr);
    (void)err;
    ::execv(argv[0], argv.data());
    ::_exit(127);
  }
  if (pid < 0) return false;
  pid_ = pid;
  const auto deadline = std::chrono::steady_clock::now() + wait;
  while (true) {
    if (ready()) return true;
    int status = 0;
    if (::waitpid(pid_, &status, WNOHANG) == pid_) {
      pid_ = -1;  // It exited.
      return false;
    }
    if (std::chrono::steady_clock::now() > deadline) {
      stop(SIGTERM, 5s);
      return false;
    }
    std::this_thread::sleep_for(20ms);
  }
}

void ChildProcess::stop(int signal, std::chrono::milliseconds grace) {
  if (pid_ <= 0) return;
  ::kill(pid_, signal);
  int status = 0;
  const auto deadline = std::chrono::steady_clock::now() + grace;
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
