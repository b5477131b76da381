// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "support/child_process.h"

namespace tern::testing {

// Real proxies for tests, from Debian's packages, run by the test on a free loopback port with
// their files in a fresh temporary directory; stopped and the directory removed when destroyed.
// start() returns false when the program is not installed (the test then skips) or would not
// start (log() says why).

// tinyproxy: an HTTP proxy (absolute-form requests and CONNECT), optionally with Basic auth.
// It answers a 407 with "Connection: close", as many proxies do.
class Tinyproxy {
 public:
  Tinyproxy();
  ~Tinyproxy();
  Tinyproxy(const Tinyproxy&) = delete;
  Tinyproxy& operator=(const Tinyproxy&) = delete;

  static bool installed();
  // With `credentials`, the proxy asks for Basic credentials (BasicAuth). With `connectPorts`,
  // it tunnels (CONNECT) to those ports only; otherwise to any.
  bool start(const std::optional<std::pair<std::string, std::string>>& credentials = {},
             const std::vector<int>& connectPorts = {});
  int port() const { return port_; }
  std::string log() const;

 private:
  std::filesystem::path directory_;
  ChildProcess process_;
  int port_ = -1;
};

// microsocks: a SOCKS5 proxy, optionally with username/password authentication. It resolves
// host names itself (socks5h) and connects to IP addresses as sent (socks5).
class Microsocks {
 public:
  Microsocks();
  ~Microsocks();
  Microsocks(const Microsocks&) = delete;
  Microsocks& operator=(const Microsocks&) = delete;

  static bool installed();
  bool start(const std::optional<std::pair<std::string, std::string>>& credentials = {});
  int port() const { return port_; }
  std::string log() const;

 private:
  std::filesystem::path directory_;
  ChildProcess process_;
  int port_ = -1;
};

// stunnel: TLS in front of another server (an HTTPS proxy made of stunnel and tinyproxy, as
// curl's tests do), presenting `certificateAndKeyPem` (a certificate then its key, in PEM).
class Stunnel {
 public:
  Stunnel();
  ~Stunnel();
  Stunnel(const Stunnel&) = delete;
  Stunnel& operator=(const Stunnel&) = delete;

  static bool installed();
  // Accepts TLS on a free loopback port and forwards the plaintext to 127.0.0.1:`backendPort`.
  bool start(int backendPort, const std::string& certificateAndKeyPem);
  int port() const { return port_; }
  std::string log() const;

 private:
  std::filesystem::path directory_;
  ChildProcess process_;
  int port_ = -1;
};

}  // namespace tern::testing
