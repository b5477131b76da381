// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#pragma once

#include <unistd.h>

#include <chrono>
#include <csignal>
#include <filesystem>
#include <string>
#include <vector>

#include "support/child_process.h"
#include "support/test_data.h"

namespace tern::testing {

// tests/data/peers/digest_server.py on 127.0.0.1: a Digest (RFC 7616) server that checks each
// answer with Python's hashlib, independently of tern. Stopped when destroyed.
class DigestPeer {
 public:
  DigestPeer() = default;
  ~DigestPeer() { stop(); }
  DigestPeer(const DigestPeer&) = delete;
  DigestPeer& operator=(const DigestPeer&) = delete;

  // Starts the server for `user` and `password`, challenging with one Digest challenge per
  // algorithm ("SHA-256", "MD5-sess", ...). False if /usr/bin/python3 is missing or the server
  // did not listen (the log says why).
  bool start(const std::string& user, const std::string& password,
             const std::vector<std::string>& algorithms) {
    if (::access(kPython, X_OK) != 0) return false;
    port_ = freeLoopbackPort();
    log_ = std::filesystem::temp_directory_path() /
           ("tern-digest-" + std::to_string(::getpid()) + "-" + std::to_string(port_) + ".log");
    std::vector<std::string> args{kPython, testDataPath("peers/digest_server.py"),
                                  std::to_string(port_), user, password};
    args.insert(args.end(), algorithms.begin(), algorithms.end());
    return server_.startListening(args, log_, true, port_);
  }

  void stop() {
    server_.stop(SIGTERM, std::chrono::seconds(2));
    if (!log_.empty()) std::filesystem::remove(log_);
  }

  // "http://127.0.0.1:PORT" + `path`.
  std::string url(const std::string& path = "/") const {
    return "http://127.0.0.1:" + std::to_string(port_) + path;
  }

  static constexpr const char* kPython = "/usr/bin/python3";

 private:
  int port_ = -1;
  std::filesystem::path log_;
  ChildProcess server_;
};

}  // namespace tern::testing
