// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "support/child_process.h"
#include "tern/tls/held_certificate.h"

namespace tern::testing {

// A real `openssl s_server -www` for interop tests: OpenSSL's own TLS server, started by the test
// on a free loopback port with a certificate made in code, answering each request with a page that
// describes the connection ("New, TLSv1.3, Cipher is TLS_AES_256_GCM_SHA384", or "Reused, ..." for
// a resumed session). Its files live in a fresh temporary directory; stopped and reaped, and the
// directory removed, when destroyed.
class OpenSslServer {
 public:
  // The openssl binary (PATH, then /usr/bin), or nullopt when it is not installed.
  static std::optional<std::filesystem::path> findBinary();

  // Writes `certificate` (with `chain` after it) and its key to the directory; does not start.
  explicit OpenSslServer(const tls::HeldCertificate& certificate,
                         const std::vector<Certificate>& chain = {});
  ~OpenSslServer();
  OpenSslServer(const OpenSslServer&) = delete;
  OpenSslServer& operator=(const OpenSslServer&) = delete;

  // Starts `openssl s_server -www` with `extraArguments` (e.g. {"-tls1_2"}, {"-Verify", "1",
  // "-CAfile", path}) and waits (up to 10 s) until it accepts connections. Returns false if it
  // would not start; output() says why.
  bool start(const std::vector<std::string>& extraArguments = {});

  int port() const { return port_; }
  const std::filesystem::path& directory() const { return directory_; }

  // Writes `content` to `name` in directory() and returns its path (a CA file, say).
  std::filesystem::path writeFile(const std::string& name, const std::string& content) const;

  // What s_server printed (stdout and stderr).
  std::string output() const;

  // Stops it (SIGTERM, then SIGKILL after 5 s). Idempotent.
  void stop();

 private:
  std::filesystem::path directory_;
  int port_ = -1;
  ChildProcess process_;
};

}  // namespace tern::testing
