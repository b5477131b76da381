// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#include "support/http2_peer.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

#include <string>
#include <utility>

namespace tern::testing {

std::string http2Frame(uint8_t type, uint8_t flags, uint32_t stream, std::string_view payload) {
  std::string result;
  size_t length = payload.size();
  result += static_cast<char>(length >> 16);
  result += static_cast<char>(length >> 8);
  result += static_cast<char>(length);
  result += static_cast<char>(type);
  result += static_cast<char>(flags);
  for (int shift = 24; shift >= 0; shift -= 8) result += static_cast<char>(stream >> shift);
  result += payload;
  return result;
}

std::string hpackStatus(int code) { return "\x08\x03" + std::to_string(code); }

std::string hpackLiteral(std::string_view name, std::string_view value) {
  std::string result(1, '\0');
  result += static_cast<char>(name.size());
  result += name;
  result += static_cast<char>(value.size());
  result += value;
  return result;
}

bool Http2Peer::Connection::write(std::string_view bytes) {
  while (!bytes.empty()) {
    ssize_t n = ::send(fd_, bytes.data(), bytes.size(), MSG_NOSIGNAL);
    if (n <= 0) return false;
    bytes.remove_prefix(static_cast<size_t>(n));
  }
  return true;
}

bool Http2Peer::Connection::readFully(char* out, size_t length) {
  while (length > 0) {
    ssize_t n = ::recv(fd_, out, length, 0);
    if (n <= 0) return false;
    out += n;
    length -= static_cast<size_t>(n);
  }
  return true;
}

bool Http2Peer::Connection::pingPong() {
  if (!write(http2Frame(kPing, 0, 0, "pingpong"))) return false;
  while (true) {
    char header[9];
    if (!readFully(header, sizeof(header))) return false;
    size_t length = (static_cast<size_t>(static_cast<uint8_t>(header[0])) << 16) |
                    (static_cast<size_t>(static_cast<uint8_t>(header[1])) << 8) |
                    static_cast<uint8_t>(header[2]);
    std::string payload(length, '\0');
    if (!readFully(payload.data(), length)) return false;
    if (header[3] == kGoaway) return false;
    if (header[3] == kPing && (header[4] & kAck) && payload == "pingpong") return true;
  }
}

Http2Peer::Http2Peer(std::function<void(Connection&)> script, End end) : end_(end) {
  listener_ = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  socklen_t length = sizeof(address);
  ::bind(listener_, reinterpret_cast<sockaddr*>(&address), sizeof(address));
  ::listen(listener_, 4);
  ::getsockname(listener_, reinterpret_cast<sockaddr*>(&address), &length);
  port_ = ntohs(address.sin_port);
  thread_ = std::thread([this, script = std::move(script)] { serve(script); });
}

Http2Peer::~Http2Peer() {
  ::shutdown(listener_, SHUT_RDWR);  // Wakes accept() if no client came.
  thread_.join();
  ::close(listener_);
}

std::string Http2Peer::url() const { return "http://127.0.0.1:" + std::to_string(port_) + "/"; }

void Http2Peer::serve(const std::function<void(Connection&)>& script) {
  int fd = ::accept4(listener_, nullptr, nullptr, SOCK_CLOEXEC);
  if (fd < 0) return;
  timeval timeout{10, 0};
  ::setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, sizeof(timeout));
  ::setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &timeout, sizeof(timeout));
  Connection connection(fd);
  char preface[24];
  bool ready = connection.readFully(preface, sizeof(preface));
  while (ready) {
    char header[9];
    if (!connection.readFully(header, sizeof(header))) {
      ready = false;
      break;
    }
    size_t length = (static_cast<size_t>(static_cast<uint8_t>(header[0])) << 16) |
                    (static_cast<size_t>(static_cast<uint8_t>(header[1])) << 8) |
                    static_cast<uint8_t>(header[2]);
    std::string payload(length, '\0');
    ready = connection.readFully(payload.data(), length);
    if (header[3] == kHeaders) break;  // The client's stream 1 is open.
  }
  if (ready &&
      connection.write(http2Frame(kSettings, 0, 0, "") + http2Frame(kSettings, kAck, 0, ""))) {
    script(connection);
  }
  if (end_ == End::kHold) {
    char sink[16 * 1024];
    while (::recv(fd, sink, sizeof(sink), 0) > 0) {
    }
  } else if (end_ == End::kReset) {
    linger abort{1, 0};
    ::setsockopt(fd, SOL_SOCKET, SO_LINGER, &abort, sizeof(abort));
  } else {
    // A lingering close, as servers do: FIN first, then read what the client still sends until
    // it hangs up. Closing with its frames unread (a SETTINGS ACK, a WINDOW_UPDATE) would make
    // the kernel answer with RST, and the client would see a reset instead of the end.
    ::shutdown(fd, SHUT_WR);
    timeval guard{10, 0};
    ::setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &guard, sizeof(guard));
    char sink[16 * 1024];
    while (::recv(fd, sink, sizeof(sink), 0) > 0) {
    }
  }
  ::close(fd);
}

}  // namespace tern::testing
