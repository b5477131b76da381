// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
// Runs the built tern binary for end-to-end tests. Header-only: tests/CMakeLists.txt compiles
// only *_test.cc files in a test folder.
#pragma once

#include <fcntl.h>
#include <gtest/gtest.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstring>
#include <filesystem>
#include <string>
#include <vector>

#ifndef TERN_TOOL_PATH
#error "TERN_TOOL_PATH must name the built tern binary (see tests/CMakeLists.txt)"
#endif

namespace tern::tool::testing {

// What a run of the built `tern` binary did.
struct ToolRun {
  int exitCode = -1;  // The process's exit status; 128 + N if signal N killed it.
  std::string out;    // Everything it wrote to stdout.
  std::string err;    // Everything it wrote to stderr.
};

// Runs `program` with `args`, feeding it `input` on stdin, in the working
// directory `directory` (the test's own if empty), and waits for it. Kills it and fails the
// current test if it runs longer than `timeout`. With `keepInputOpen`, stdin stays open after
// `input` (as a terminal's would) until the program exits. Safe to call while other threads (a
// MockWebServer) run: between fork and exec the child calls only async-signal-safe functions.
inline ToolRun runProgram(const std::string& program, const std::vector<std::string>& args,
                          const std::string& input = "",
                          const std::filesystem::path& directory = {},
                          std::chrono::seconds timeout = std::chrono::seconds(60),
                          bool keepInputOpen = false) {
  std::vector<std::string> argvStrings{program};
  argvStrings.insert(argvStrings.end(), args.begin(), args.end());
  std::vector<char*> argv;
  for (std::string& arg : argvStrings) {
    argv.push_back(arg.data());
  }
  argv.push_back(nullptr);
  std::string workingDirectory = directory.string();

  int in[2];
  int out[2];
  int err[2];
  if (::pipe2(in, O_CLOEXEC) != 0 || ::pipe2(out, O_CLOEXEC) != 0 || ::pipe2(err, O_CLOEXEC) != 0) {
    ADD_FAILURE() << "pipe: " << std::strerror(errno);
    return {};
  }
  pid_t pid = ::fork();
  if (pid == 0) {
    ::dup2(in[0], STDIN_FILENO);
    ::dup2(out[1], STDOUT_FILENO);
    ::dup2(err[1], STDERR_FILENO);
    if (!workingDirectory.empty() && ::chdir(workingDirectory.c_str()) != 0) {
      ::_exit(126);
    }
    ::execv(argv[0], argv.data());
    ::_exit(127);
  }
  ::close(in[0]);
  ::close(out[1]);
  ::close(err[1]);

  ToolRun run;
  // Feed stdin and drain stdout and stderr together, so no pipe fills up and blocks the child.
  size_t written = 0;
  int inFd = in[1];
  int heldInFd = -1;  // With keepInputOpen: stdin's end once `input` is written.
  if (input.empty()) {
    if (keepInputOpen) {
      heldInFd = inFd;
    } else {
      ::close(inFd);
    }
    inFd = -1;
  } else {
    ::fcntl(inFd, F_SETFL, O_NONBLOCK);
  }
  auto deadline = std::chrono::steady_clock::now() + timeout;
  bool outOpen = true;
  bool errOpen = true;
  while (outOpen || errOpen) {
    auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
        deadline - std::chrono::steady_clock::now());
    if (left.count() <= 0) {
      ::kill(pid, SIGKILL);
      ADD_FAILURE() << "tern did not finish within " << timeout.count() << " s";
      break;
    }
    // A negative descriptor is one poll() skips: a stream already at its end.
    pollfd fds[3] = {
        {outOpen ? out[0] : -1, POLLIN, 0}, {errOpen ? err[0] : -1, POLLIN, 0}, {inFd, POLLOUT, 0}};
    int ready = ::poll(fds, inFd >= 0 ? 3 : 2, static_cast<int>(left.count()));
    if (ready < 0 && errno != EINTR) {
      ADD_FAILURE() << "poll: " << std::strerror(errno);
      break;
    }
    char buffer[16384];
    for (int i = 0; i < 2; ++i) {
      if (fds[i].revents & (POLLIN | POLLHUP | POLLERR)) {
        ssize_t n = ::read(fds[i].fd, buffer, sizeof(buffer));
        if (n > 0) {
          (i == 0 ? run.out : run.err).append(buffer, static_cast<size_t>(n));
        } else if (n == 0 || errno != EINTR) {
          (i == 0 ? outOpen : errOpen) = false;
        }
      }
    }
    if (inFd >= 0 && (fds[2].revents & (POLLOUT | POLLERR | POLLHUP))) {
      ssize_t n = ::write(inFd, input.data() + written, input.size() - written);
      if (n > 0) {
        written += static_cast<size_t>(n);
      }
      if (written == input.size() || (n < 0 && errno != EAGAIN && errno != EINTR)) {
        if (keepInputOpen && written == input.size()) {
          heldInFd = inFd;
        } else {
          ::close(inFd);
        }
        inFd = -1;
      }
    }
  }
  if (inFd >= 0) {
    ::close(inFd);
  }
  if (heldInFd >= 0) {
    ::close(heldInFd);
  }
  ::close(out[0]);
  ::close(err[0]);
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  run.exitCode = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  return run;
}

// runProgram() with the tern binary (TERN_TOOL_PATH).
inline ToolRun runTern(const std::vector<std::string>& args, const std::string& input = "",
                       const std::filesystem::path& directory = {},
                       std::chrono::seconds timeout = std::chrono::seconds(60),
                       bool keepInputOpen = false) {
  return runProgram(TERN_TOOL_PATH, args, input, directory, timeout, keepInputOpen);
}

// The curl binary on $PATH (/usr/bin/curl, ...), or "" where curl is not installed: the tests
// that compare tern with curl skip then.
inline std::string findCurl() {
  for (const char* path : {"/usr/bin/curl", "/usr/local/bin/curl", "/bin/curl"}) {
    if (::access(path, X_OK) == 0) return path;
  }
  return "";
}

// runProgram() with curl (findCurl(), which must not be empty).
inline ToolRun runCurl(const std::vector<std::string>& args, const std::string& input = "",
                       const std::filesystem::path& directory = {},
                       std::chrono::seconds timeout = std::chrono::seconds(60)) {
  return runProgram(findCurl(), args, input, directory, timeout);
}

}  // namespace tern::tool::testing
