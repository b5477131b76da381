// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#pragma once

#include <chrono>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "support/child_process.h"

namespace tern::testing {

// What a test adds to the generated nginx.conf.
struct NginxConfig {
  // Parameters after `listen 127.0.0.1:PORT`, e.g. "ssl" or "ssl http2".
  std::string listenParameters;
  // Directives inside `http { }`, after the defaults (gzip on for text/plain, keep-alive 60 s).
  std::string httpDirectives;
  // Directives inside `server { }`, e.g. ssl_certificate lines and `location` blocks.
  std::string serverDirectives;
};

// A real nginx for interop tests: one process (no master, not a daemon) started by the test on a
// free loopback port, with its configuration, pid file, logs and temporary paths in a fresh
// temporary directory (so no root is needed and nothing outside it is touched), serving
// directory()/www. Stopped and reaped, and the directory removed, when destroyed.
//
// The access log has one line per request: `<connection serial> <request number on it>
// "<request line>" <status>` (the request line ends in HTTP/1.1 or HTTP/2.0), so tests can see
// keep-alive reuse as nginx saw it.
class Nginx {
 public:
  // The nginx binary (PATH, then Debian's /usr/sbin), or nullopt when nginx is not installed.
  static std::optional<std::filesystem::path> findBinary();

  // Makes the directory and its www/ folder; does not start nginx.
  Nginx();
  ~Nginx();
  Nginx(const Nginx&) = delete;
  Nginx& operator=(const Nginx&) = delete;

  const std::filesystem::path& directory() const { return directory_; }

  // Writes `content` to `relativePath` under directory() (folders made as needed); returns the
  // file's path. E.g. writeFile("www/one.txt", "one"), writeFile("cert.pem", pem).
  std::filesystem::path writeFile(const std::string& relativePath,
                                  const std::string& content) const;

  // Starts nginx with `config` and waits (up to 10 s) until it accepts connections. Tries three
  // free ports. Returns false if nginx would not start; errorLog() then says why.
  bool start(const NginxConfig& config = {});

  bool running() const { return process_.running(); }
  int port() const { return port_; }

  // "<scheme>://127.0.0.1:<port><path>".
  std::string url(const std::string& path, const std::string& scheme = "http") const;

  // The access log's lines, waiting up to `wait` for at least `count` of them (nginx writes a
  // line when each request ends).
  std::vector<std::string> accessLogLines(size_t count,
                                          std::chrono::milliseconds wait = std::chrono::seconds(5));

  // Everything nginx wrote to its error log and stderr.
  std::string errorLog() const;

  // Stops nginx gracefully (SIGQUIT, so its logs are complete; SIGKILL after 10 s). Idempotent.
  void stop();

 private:
  void writeConfig(const NginxConfig& config) const;

  std::filesystem::path directory_;
  int port_ = -1;
  ChildProcess process_;
};

}  // namespace tern::testing
