// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#pragma once

#include <arpa/inet.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cctype>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <filesystem>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace tern::mockwebserver::testing {

// A deliberately plain blocking HTTP/1.1 client for MockWebServer's tests: one TCP connection to
// 127.0.0.1, raw bytes in and out, so each test controls exactly what goes on the wire and sees
// exactly what comes back. Every read waits at most kReadTimeout, then throws, so a broken server
// fails a test instead of hanging it.
class RawClient {
 public:
  static constexpr std::chrono::seconds kReadTimeout{10};

  // Connects to `host` (resolved; each address tried in turn) on `port`. Throws
  // std::runtime_error if no address accepts the connection.
  explicit RawClient(int port, const std::string& host = "127.0.0.1") {
    addrinfo hints{};
    hints.ai_family = AF_UNSPEC;
    hints.ai_socktype = SOCK_STREAM;
    addrinfo* addresses = nullptr;
    if (::getaddrinfo(host.c_str(), std::to_string(port).c_str(), &hints, &addresses) != 0) {
      throw std::runtime_error("cannot resolve " + host);
    }
    for (addrinfo* a = addresses; a != nullptr && fd_ < 0; a = a->ai_next) {
      fd_ = ::socket(a->ai_family, SOCK_STREAM | SOCK_CLOEXEC, 0);
      if (fd_ >= 0 && ::connect(fd_, a->ai_addr, a->ai_addrlen) != 0) close();
    }
    ::freeaddrinfo(addresses);
    if (fd_ < 0) throw std::runtime_error("cannot connect to " + host + ":" + std::to_string(port));
    const int noDelay = 1;
    ::setsockopt(fd_, IPPROTO_TCP, TCP_NODELAY, &noDelay, sizeof(noDelay));
  }
  RawClient(const RawClient&) = delete;
  RawClient& operator=(const RawClient&) = delete;
  ~RawClient() { close(); }

  // Writes all of `bytes`. Returns false if the server has closed the connection (EPIPE,
  // ECONNRESET) before all were written.
  bool send(std::string_view bytes) {
    while (!bytes.empty()) {
      const ssize_t n = ::send(fd_, bytes.data(), bytes.size(), MSG_NOSIGNAL);
      if (n < 0) {
        if (errno == EINTR) continue;
        return false;
      }
      bytes.remove_prefix(static_cast<size_t>(n));
    }
    return true;
  }

  // The bytes of the next successful recv(): what has arrived so far, at least one byte. Empty
  // at end of stream (or on a reset). Throws if nothing arrives within kReadTimeout.
  std::string readSome() {
    if (!pending_.empty()) return std::exchange(pending_, std::string());
    awaitReadable(kReadTimeout);
    char data[65536];
    while (true) {
      const ssize_t n = ::recv(fd_, data, sizeof(data), 0);
      if (n >= 0) return std::string(data, static_cast<size_t>(n));
      if (errno == EINTR) continue;
      return std::string();  // ECONNRESET: the server is gone, as at end of stream.
    }
  }

  // True if a byte (or end of stream) arrives within `wait`; consumes nothing.
  bool readableWithin(std::chrono::milliseconds wait) {
    if (!pending_.empty()) return true;
    pollfd pfd{fd_, POLLIN, 0};
    return ::poll(&pfd, 1, static_cast<int>(wait.count())) > 0;
  }

  // Reads exactly `byteCount` bytes. Throws if the stream ends first.
  std::string readExactly(size_t byteCount) {
    std::string result;
    while (result.size() < byteCount) {
      std::string piece = readSome();
      if (piece.empty()) {
        throw std::runtime_error("stream ended after " + std::to_string(result.size()) + " of " +
                                 std::to_string(byteCount) + " bytes: " + result);
      }
      result += piece;
    }
    pending_ = result.substr(byteCount);
    result.resize(byteCount);
    return result;
  }

  // Reads through the next occurrence of `delimiter` and returns everything up to and including
  // it. Throws if the stream ends first.
  std::string readThrough(std::string_view delimiter) {
    std::string result;
    while (true) {
      const size_t found = result.find(delimiter);
      if (found != std::string::npos) {
        pending_ = result.substr(found + delimiter.size()) + pending_;
        result.resize(found + delimiter.size());
        return result;
      }
      std::string piece = readSome();
      if (piece.empty()) throw std::runtime_error("stream ended before delimiter: " + result);
      result += piece;
    }
  }

  // Reads a status line and headers ("...\r\n\r\n").
  std::string readHead() { return readThrough("\r\n\r\n"); }

  // Reads one whole response: its head and a Content-Length body. Returns head + body.
  std::string readResponse() {
    std::string head = readHead();
    const std::optional<size_t> length = contentLength(head);
    return head + (length ? readExactly(*length) : std::string());
  }

  // Reads until end of stream; returns everything read.
  std::string readToEnd() {
    std::string result;
    while (true) {
      std::string piece = readSome();
      if (piece.empty()) return result;
      result += piece;
    }
  }

  // True if the server has closed the connection: the next read sees end of stream (or a
  // reset) without any byte. Throws if it neither closes nor sends within kReadTimeout.
  bool closedByServer() { return readSome().empty(); }

  void shutdownOutput() { ::shutdown(fd_, SHUT_WR); }

  void close() {
    if (fd_ >= 0) ::close(fd_);
    fd_ = -1;
  }

  // The Content-Length in a response head, if any.
  static std::optional<size_t> contentLength(const std::string& head) {
    std::string lower = head;
    for (char& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    const size_t at = lower.find("\r\ncontent-length:");
    if (at == std::string::npos) return std::nullopt;
    return std::stoul(head.substr(at + 17));
  }

 private:
  void awaitReadable(std::chrono::milliseconds wait) {
    pollfd pfd{fd_, POLLIN, 0};
    const int ready = ::poll(&pfd, 1, static_cast<int>(wait.count()));
    if (ready <= 0) throw std::runtime_error("nothing to read within the read timeout");
  }

  int fd_ = -1;
  std::string pending_;  // Bytes read past what the last read returned.
};

// The number of entries in /proc/self/<directory>: "fd" counts open descriptors, "task" threads.
inline int countProcEntries(const char* directory) {
  int count = 0;
  for ([[maybe_unused]] const auto& entry :
       std::filesystem::directory_iterator(std::string("/proc/self/") + directory)) {
    ++count;
  }
  return count;
}

}  // namespace tern::mockwebserver::testing
