// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
// Helpers for the certificate tests: an in-memory TLS handshake between two SSL_CTXs (no
// sockets: a BIO pair), and running the openssl command-line tool on certificates we made.
#pragma once

#include <openssl/err.h>
#include <openssl/ssl.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "tern/certificate.h"
#include "tls/openssl_access.h"
#include "tls/openssl_util.h"

namespace tern::testing {

// What an in-memory handshake settled.
struct HandshakeOutcome {
  bool completed = false;
  long clientVerifyResult = X509_V_OK;  // SSL_get_verify_result on the client.
  long serverVerifyResult = X509_V_OK;
  std::string errors;                      // OpenSSL's error queue when it failed.
  std::vector<Certificate> clientSawPeer;  // The server's chain, as the client received it.
  std::vector<Certificate> serverSawPeer;  // The client's chain (mutual TLS).
  std::vector<Certificate> serverLocal;
};

inline internal::UniqueSslCtx newClientContext() {
  return internal::UniqueSslCtx(SSL_CTX_new(TLS_client_method()));
}

inline internal::UniqueSslCtx newServerContext() {
  return internal::UniqueSslCtx(SSL_CTX_new(TLS_server_method()));
}

// Runs a TLS handshake between `client` and `server` over a memory BIO pair, alternating the two
// sides until both finish or one fails (bounded: at most 50 rounds).
inline HandshakeOutcome handshake(SSL_CTX* client, SSL_CTX* server,
                                  const char* serverName = "localhost") {
  internal::UniqueSsl clientSsl(SSL_new(client));
  internal::UniqueSsl serverSsl(SSL_new(server));
  BIO* clientBio = nullptr;
  BIO* serverBio = nullptr;
  BIO_new_bio_pair(&clientBio, 0, &serverBio, 0);
  SSL_set_bio(clientSsl.get(), clientBio, clientBio);
  SSL_set_bio(serverSsl.get(), serverBio, serverBio);
  SSL_set_connect_state(clientSsl.get());
  SSL_set_accept_state(serverSsl.get());
  SSL_set_tlsext_host_name(clientSsl.get(), serverName);

  HandshakeOutcome outcome;
  bool clientDone = false;
  bool serverDone = false;
  bool failed = false;
  for (int round = 0; round < 50 && !failed && !(clientDone && serverDone); ++round) {
    for (auto [ssl, done] :
         {std::pair{clientSsl.get(), &clientDone}, std::pair{serverSsl.get(), &serverDone}}) {
      if (*done) continue;
      int result = SSL_do_handshake(ssl);
      if (result == 1) {
        *done = true;
        continue;
      }
      int error = SSL_get_error(ssl, result);
      if (error != SSL_ERROR_WANT_READ && error != SSL_ERROR_WANT_WRITE) {
        failed = true;
        break;
      }
    }
  }
  // TLS 1.3 servers verify a client certificate after their own handshake() returned; a read
  // settles it.
  if (clientDone && serverDone) {
    char byte;
    SSL_write(clientSsl.get(), "x", 1);
    outcome.completed = SSL_read(serverSsl.get(), &byte, 1) == 1;
  }
  outcome.errors = internal::takeOpenSslErrors();
  outcome.clientVerifyResult = SSL_get_verify_result(clientSsl.get());
  outcome.serverVerifyResult = SSL_get_verify_result(serverSsl.get());
  outcome.clientSawPeer = internal::peerCertificates(clientSsl.get());
  outcome.serverSawPeer = internal::peerCertificates(serverSsl.get());
  outcome.serverLocal = internal::localCertificates(serverSsl.get());
  return outcome;
}

// A directory under the system temp directory, removed with everything in it when destroyed.
class TempDirectory {
 public:
  TempDirectory() {
    std::string pattern =
        (std::filesystem::temp_directory_path() / "tern_tls_test_XXXXXX").string();
    path_ = ::mkdtemp(pattern.data()) != nullptr ? pattern : "";
  }
  ~TempDirectory() {
    std::error_code ignored;  // Cleanup is best effort; a leftover temp dir harms nothing.
    if (!path_.empty()) std::filesystem::remove_all(path_, ignored);
  }
  TempDirectory(const TempDirectory&) = delete;
  TempDirectory& operator=(const TempDirectory&) = delete;

  // Writes `contents` to `name` in this directory; returns its path.
  std::string write(const std::string& name, const std::string& contents) const {
    std::string file = (std::filesystem::path(path_) / name).string();
    std::ofstream(file, std::ios::binary) << contents;
    return file;
  }

 private:
  std::string path_;
};

// The openssl command-line tool, or "" if it is not installed.
inline std::string findOpenSslTool() {
  for (const char* candidate : {"/usr/bin/openssl", "/usr/local/bin/openssl"}) {
    if (::access(candidate, X_OK) == 0) return candidate;
  }
  return "";
}

// Runs `command` through the shell, returning its exit status and its stdout + stderr.
inline std::pair<int, std::string> runCommand(const std::string& command) {
  std::string output;
  FILE* pipe = ::popen((command + " 2>&1").c_str(), "r");
  if (pipe == nullptr) return {-1, "popen failed"};
  char buffer[4096];
  size_t count;
  while ((count = std::fread(buffer, 1, sizeof(buffer), pipe)) > 0) output.append(buffer, count);
  int status = ::pclose(pipe);
  return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, output};
}

}  // namespace tern::testing
