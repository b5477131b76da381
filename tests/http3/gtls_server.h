// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
// ngtcp2's example HTTP/3 server (Debian's ngtcp2-server: /usr/sbin/gtlsserver) as a loopback
// peer for tests/http3: a certificate made in code, a document root with files the test writes.
#pragma once

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "support/child_process.h"
#include "support/tls_certificates.h"

namespace tern::testing {

inline constexpr const char* kGtlsServerPath = "/usr/sbin/gtlsserver";

// A UDP port on `host` ("127.0.0.1" or "::1") nothing is bound to right now, or -1.
inline int freeUdpPort(const std::string& host) {
  const bool ipv6 = host.find(':') != std::string::npos;
  int fd = ::socket(ipv6 ? AF_INET6 : AF_INET, SOCK_DGRAM, 0);
  if (fd < 0) return -1;
  sockaddr_storage storage{};
  socklen_t length;
  if (ipv6) {
    auto* address = reinterpret_cast<sockaddr_in6*>(&storage);
    address->sin6_family = AF_INET6;
    inet_pton(AF_INET6, host.c_str(), &address->sin6_addr);
    length = sizeof(sockaddr_in6);
  } else {
    auto* address = reinterpret_cast<sockaddr_in*>(&storage);
    address->sin_family = AF_INET;
    inet_pton(AF_INET, host.c_str(), &address->sin_addr);
    length = sizeof(sockaddr_in);
  }
  int port = -1;
  if (::bind(fd, reinterpret_cast<sockaddr*>(&storage), length) == 0 &&
      ::getsockname(fd, reinterpret_cast<sockaddr*>(&storage), &length) == 0) {
    port = ntohs(ipv6 ? reinterpret_cast<sockaddr_in6*>(&storage)->sin6_port
                      : reinterpret_cast<sockaddr_in*>(&storage)->sin_port);
  }
  ::close(fd);
  return port;
}

// True if some socket is bound to UDP `port` (the kernel's tables: a UDP server says nothing
// when it is ready).
inline bool udpPortBound(int port) {
  char hex[8];
  std::snprintf(hex, sizeof(hex), ":%04X", port);
  for (const char* table : {"/proc/net/udp", "/proc/net/udp6"}) {
    std::ifstream in(table);
    std::string line;
    std::getline(in, line);  // The header.
    while (std::getline(in, line)) {
      std::istringstream fields(line);
      std::string slot;
      std::string local;
      fields >> slot >> local;
      if (local.size() > 5 && local.compare(local.size() - 5, 5, hex) == 0) return true;
    }
  }
  return false;
}

// One gtlsserver on `host`, serving `root()` with TestCertificates' localhost certificate
// (signed by their root; both sent).
class GtlsServer {
 public:
  static bool available() { return ::access(kGtlsServerPath, X_OK) == 0; }

  GtlsServer(const TestCertificates& certificates, std::filesystem::path directory,
             std::string host = "127.0.0.1", std::vector<std::string> extraArgs = {})
      : directory_(std::move(directory)), host_(std::move(host)) {
    std::filesystem::create_directories(root());
    write(directory_ / "key.pem", certificates.localhost.privateKeyPkcs8Pem());
    write(directory_ / "cert.pem",
          certificates.localhost.certificatePem() + certificates.root.certificatePem());
    extraArgs_ = std::move(extraArgs);
  }

  std::filesystem::path root() const { return directory_ / "htdocs"; }

  void writeFile(const std::string& name, const std::string& content) const {
    write(root() / name, content);
  }

  // Starts it on a free port; false if it would not (see log()).
  bool start() {
    for (int attempt = 0; attempt < 5; ++attempt) {
      port_ = freeUdpPort(host_);
      if (port_ <= 0) continue;
      std::vector<std::string> args = {kGtlsServerPath, "-q", "-d", root().string()};
      args.insert(args.end(), extraArgs_.begin(), extraArgs_.end());
      args.insert(args.end(), {host_, std::to_string(port_), (directory_ / "key.pem").string(),
                               (directory_ / "cert.pem").string()});
      const int port = port_;
      if (process_.start(args, log(), true, [port] { return udpPortBound(port); })) return true;
    }
    return false;
  }

  // SIGKILL: gone without a word, as a crashed server.
  void kill() { process_.stop(SIGKILL, std::chrono::milliseconds(0)); }
  void stop() { process_.stop(SIGTERM, std::chrono::seconds(5)); }

  int port() const { return port_; }
  const std::string& host() const { return host_; }
  std::filesystem::path log() const { return directory_ / "gtlsserver.log"; }

 private:
  static void write(const std::filesystem::path& path, const std::string& content) {
    std::ofstream out(path, std::ios::binary);
    out << content;
  }

  std::filesystem::path directory_;
  std::string host_;
  std::vector<std::string> extraArgs_;
  int port_ = -1;
  ChildProcess process_;
};

}  // namespace tern::testing
