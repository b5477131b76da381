// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#pragma once

#include <unistd.h>

#include <chrono>
#include <csignal>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "support/child_process.h"
#include "support/test_data.h"
#include "tern/tls/held_certificate.h"

namespace tern::testing {

// tests/data/peers/doh_server.js on 127.0.0.1: a DNS over HTTPS responder on Node's own http2
// over TLS, answering A and AAAA from a fixed table and NXDOMAIN otherwise, independently of
// tern's DNS codec. Its key and certificate are written to files for this run only. Stopped
// (and the files removed) when destroyed.
class DohPeer {
 public:
  DohPeer() = default;
  ~DohPeer() { stop(); }
  DohPeer(const DohPeer&) = delete;
  DohPeer& operator=(const DohPeer&) = delete;

  // Starts the responder presenting `certificate` (it should be valid for 127.0.0.1), answering
  // each "name=addr[,addr]" entry of `table`. False if /usr/bin/node is missing or the server did
  // not listen (the log says why).
  bool start(const tls::HeldCertificate& certificate, const std::vector<std::string>& table) {
    if (::access(kNode, X_OK) != 0) return false;
    port_ = freeLoopbackPort();
    dir_ = std::filesystem::temp_directory_path() /
           ("tern-doh-" + std::to_string(::getpid()) + "-" + std::to_string(port_));
    std::filesystem::create_directories(dir_);
    std::ofstream(dir_ / "key.pem") << certificate.privateKeyPkcs8Pem();
    std::ofstream(dir_ / "cert.pem") << certificate.certificatePem();
    std::vector<std::string> args{kNode, testDataPath("peers/doh_server.js"), std::to_string(port_),
                                  (dir_ / "key.pem").string(), (dir_ / "cert.pem").string()};
    args.insert(args.end(), table.begin(), table.end());
    return server_.startListening(args, dir_ / "server.log", true, port_);
  }

  void stop() {
    server_.stop(SIGTERM, std::chrono::seconds(2));
    if (!dir_.empty()) std::filesystem::remove_all(dir_);
  }

  // "https://127.0.0.1:PORT/dns-query".
  std::string url() const { return "https://127.0.0.1:" + std::to_string(port_) + "/dns-query"; }

  // What the responder logged so far: one "METHOD NAME TYPE" line per query answered.
  std::string log() const {
    std::ifstream in(dir_ / "server.log");
    return std::string(std::istreambuf_iterator<char>(in), {});
  }

  static constexpr const char* kNode = "/usr/bin/node";

 private:
  int port_ = -1;
  std::filesystem::path dir_;
  ChildProcess server_;
};

}  // namespace tern::testing
