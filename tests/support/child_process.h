// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#pragma once

#include <sys/types.h>

#include <chrono>
#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace tern::testing {

// A loopback TCP port nothing listens on right now (bound to port 0, then released), or -1.
int freeLoopbackPort();

// True if something accepts connections on 127.0.0.1:`port`.
bool acceptsOnLoopback(int port);

// The first executable `name` in $PATH, else the first executable of `fallbacks`.
std::optional<std::filesystem::path> findExecutable(
    const std::string& name, const std::vector<std::filesystem::path>& fallbacks = {});

// A real server a test runs as a child process (nginx, openssl s_server): started, awaited until
// it listens, and stopped and reaped. Stops in its destructor.
class ChildProcess {
 public:
  ChildProcess() = default;
  ~ChildProcess();
  ChildProcess(const ChildProcess&) = delete;
  ChildProcess& operator=(const ChildProcess&) = delete;

  // Runs `args` (args[0] the executable's path) with stderr, and stdout too if `logStdout`,
  // appended to `logFile`, and waits up to `wait` until it accepts on 127.0.0.1:`port`. Returns
  // false if it exited first (the port was taken, or a bad configuration: see the log) or did not
  // listen in time (it is then stopped).
  bool startListening(const std::vector<std::string>& args, const std::filesystem::path& logFile,
                      bool logStdout, int port,
                      std::chrono::milliseconds wait = std::chrono::seconds(10));

  // As startListening(), for a server whose readiness `ready` tells (a UDP server, say): waits
  // up to `wait` until it returns true.
  bool start(const std::vector<std::string>& args, const std::filesystem::path& logFile,
             bool logStdout, const std::function<bool()>& ready,
             std::chrono::milliseconds wait = std::chrono::seconds(10));

  // Sends `signal` (SIGTERM, or SIGQUIT for nginx's graceful stop) and reaps the process; after
  // `grace`, SIGKILL. Idempotent.
  void stop(int signal, std::chrono::milliseconds grace);

  bool running() const { return pid_ > 0; }

  // The running process's id (for a test that signals it: SIGSTOP, SIGKILL), or -1. Reaping stays
  // stop()'s.
  pid_t pid() const { return pid_; }

 private:
  pid_t pid_ = -1;
};

}  // namespace tern::testing
