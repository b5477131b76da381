// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#include "support/openssl_server.h"

#include <signal.h>
#include <unistd.h>

#include <chrono>
#include <fstream>
#include <iterator>
#include <system_error>

namespace tern::testing {

namespace fs = std::filesystem;

std::optional<fs::path> OpenSslServer::findBinary() {
  return findExecutable("openssl", {"/usr/bin/openssl"});
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
  // A port taken between freeLoopbackPort() and s_server's bind makes it exit: try another.
  // (The probe connections that see whether it listens fail their handshakes; s_server carries
  // on.)
  for (int attempt = 0; attempt < 3; ++attempt) {
    port_ = freeLoopbackPort();
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
    if (process_.startListening(args, directory_ / "output.log", true, port_)) return true;
  }
  return false;
}

std::string OpenSslServer::output() const {
  std::ifstream file(directory_ / "output.log", std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(file), std::istreambuf_iterator<char>());
}

void OpenSslServer::stop() { process_.stop(SIGTERM, std::chrono::seconds(5)); }

}  // namespace tern::testing
