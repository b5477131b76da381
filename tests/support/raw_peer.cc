// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#include "support/raw_peer.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <pthread.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

#include <ctime>
#include <stdexcept>
#include <utility>

#include "tls/openssl_access.h"

namespace tern::testing {
namespace {

void drain(int fd) {
  char sink[16 * 1024];
  while (::recv(fd, sink, sizeof(sink), 0) > 0) {
  }
}

// FIN first, then read what the client still sends until it hangs up (or the 10 s receive
// timeout passes), as servers close: closing with bytes unread makes the kernel send a reset.
void lingeringClose(int fd) {
  ::shutdown(fd, SHUT_WR);
  drain(fd);
}

void abortOnClose(int fd) {
  linger abort{1, 0};
  ::setsockopt(fd, SOL_SOCKET, SO_LINGER, &abort, sizeof(abort));
}

}  // namespace

bool RawPeer::Connection::write(std::string_view bytes) {
  while (!bytes.empty()) {
    size_t n = 0;
    if (ssl_ != nullptr) {
      if (SSL_write_ex(ssl_, bytes.data(), bytes.size(), &n) != 1) return false;
    } else {
      ssize_t sent = ::send(fd_, bytes.data(), bytes.size(), MSG_NOSIGNAL);
      if (sent <= 0) return false;
      n = static_cast<size_t>(sent);
    }
    bytes.remove_prefix(n);
  }
  return true;
}

bool RawPeer::Connection::readFully(char* out, size_t length) {
  while (length > 0) {
    size_t n = 0;
    if (ssl_ != nullptr) {
      if (SSL_read_ex(ssl_, out, length, &n) != 1) return false;
    } else {
      ssize_t received = ::recv(fd_, out, length, 0);
      if (received <= 0) return false;
      n = static_cast<size_t>(received);
    }
    out += n;
    length -= n;
  }
  return true;
}

std::string RawPeer::Connection::readUntil(std::string_view terminator) {
  std::string result;
  char chunk[4096];
  while (result.find(terminator) == std::string::npos) {
    size_t n = 0;
    if (ssl_ != nullptr) {
      if (SSL_read_ex(ssl_, chunk, sizeof(chunk), &n) != 1) break;
    } else {
      ssize_t received = ::recv(fd_, chunk, sizeof(chunk), 0);
      if (received <= 0) break;
      n = static_cast<size_t>(received);
    }
    result.append(chunk, n);
  }
  return result;
}

void RawPeer::Connection::shutdownOutput() { ::shutdown(fd_, SHUT_WR); }

const TestCertificates& RawPeer::certificates() {
  static const TestCertificates certificates;
  return certificates;
}

RawPeer::RawPeer(std::function<void(Connection&)> serve, Options options)
    : options_(std::move(options)) {
  if (options_.tls) {
    context_.reset(SSL_CTX_new(TLS_server_method()));
    if (!context_) throw std::runtime_error("SSL_CTX_new failed");
    internal::configureServer(certificates().server(), context_.get());
    SSL_CTX_set_alpn_select_cb(context_.get(), &RawPeer::selectAlpn, this);
  }
  listener_ = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  socklen_t length = sizeof(address);
  if (options_.receiveBuffer > 0) {
    // Set on the listener, so the window the handshake advertises is already the small one.
    ::setsockopt(listener_, SOL_SOCKET, SO_RCVBUF, &options_.receiveBuffer,
                 sizeof(options_.receiveBuffer));
  }
  if (::bind(listener_, reinterpret_cast<sockaddr*>(&address), sizeof(address)) != 0 ||
      ::listen(listener_, 4) != 0 ||
      ::getsockname(listener_, reinterpret_cast<sockaddr*>(&address), &length) != 0) {
    ::close(listener_);
    throw std::runtime_error("RawPeer: cannot listen on 127.0.0.1");
  }
  port_ = ntohs(address.sin_port);
  thread_ = std::thread([this, script = std::move(serve)] { serveAll(script); });
}

RawPeer::~RawPeer() {
  ::shutdown(listener_, SHUT_RDWR);  // Wakes accept() if no client came.
  thread_.join();
  ::close(listener_);
}

std::string RawPeer::url() const {
  return std::string(options_.tls ? "https" : "http") + "://127.0.0.1:" + std::to_string(port_) +
         "/";
}

int RawPeer::selectAlpn(SSL*, const unsigned char** out, unsigned char* outLength,
                        const unsigned char* in, unsigned int inLength, void* argument) {
  const auto* self = static_cast<const RawPeer*>(argument);
  for (const std::string& protocol : self->options_.alpn) {
    for (unsigned int i = 0; i < inLength;) {
      const unsigned int length = in[i];
      if (i + 1 + length > inLength) break;
      if (std::string_view(reinterpret_cast<const char*>(in + i + 1), length) == protocol) {
        *out = in + i + 1;
        *outLength = static_cast<unsigned char>(length);
        return SSL_TLSEXT_ERR_OK;
      }
      i += 1 + length;
    }
  }
  return SSL_TLSEXT_ERR_NOACK;
}

void RawPeer::breakHandshake(int fd) {
  char clientHello[16 * 1024];
  if (::recv(fd, clientHello, sizeof(clientHello), 0) <= 0) return;
  switch (options_.handshake) {
    case Handshake::kResetAfterClientHello:
      abortOnClose(fd);
      break;
    case Handshake::kCloseAfterClientHello:
      lingeringClose(fd);
      break;
    case Handshake::kGarbage: {
      static constexpr std::string_view kResponse =
          "HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\nConnection: close\r\n\r\n";
      ::send(fd, kResponse.data(), kResponse.size(), MSG_NOSIGNAL);
      lingeringClose(fd);
      break;
    }
    case Handshake::kPartialServerHello: {
      // A handshake record (type 22, TLS 1.2, 512 bytes promised) holding the start of a
      // ServerHello (type 2): the client has part of a record when the connection dies.
      static constexpr unsigned char kPartial[] = {22,  3, 3, 2,    0,    2,    0,   1,
                                                   252, 3, 3, 0x5a, 0x5a, 0x5a, 0x5a};
      ::send(fd, kPartial, sizeof(kPartial), MSG_NOSIGNAL);
      abortOnClose(fd);
      break;
    }
    case Handshake::kComplete:
      break;
  }
}

void RawPeer::serveAll(const std::function<void(Connection&)>& script) {
  // SSL_write sends without MSG_NOSIGNAL, and a client that went away must not kill the test
  // process: with SIGPIPE blocked in this thread, the write fails with EPIPE instead (the signal,
  // sent to this thread, stays pending and is taken below).
  sigset_t pipe;
  sigemptyset(&pipe);
  sigaddset(&pipe, SIGPIPE);
  pthread_sigmask(SIG_BLOCK, &pipe, nullptr);
  for (int i = 0; i < options_.connections; ++i) {
    int fd = ::accept4(listener_, nullptr, nullptr, SOCK_CLOEXEC);
    // Past the last connection, a client that tries again is refused at once, rather than left
    // waiting in the listener's backlog for an accept that never comes.
    if (i + 1 == options_.connections) ::shutdown(listener_, SHUT_RDWR);
    if (fd < 0) break;
    serve(fd, script);
  }
  timespec now{0, 0};
  while (sigtimedwait(&pipe, nullptr, &now) > 0) {
  }
}

void RawPeer::serve(int fd, const std::function<void(Connection&)>& script) {
  timeval timeout{10, 0};
  ::setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, sizeof(timeout));
  ::setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &timeout, sizeof(timeout));
  internal::UniqueSsl ssl;
  bool ready = true;
  if (options_.tls && options_.handshake != Handshake::kComplete) {
    breakHandshake(fd);
    ready = false;
  } else if (options_.tls) {
    ssl.reset(SSL_new(context_.get()));
    ready = ssl && SSL_set_fd(ssl.get(), fd) == 1 && SSL_accept(ssl.get()) == 1;
  }
  if (ready) {
    Connection connection(fd, ssl.get());
    script(connection);
    switch (options_.end) {
      case End::kHold:
        drain(fd);
        break;
      case End::kCloseNotify:
        if (ssl) SSL_shutdown(ssl.get());
        lingeringClose(fd);
        break;
      case End::kClose:
        lingeringClose(fd);
        break;
      case End::kReset:
        abortOnClose(fd);
        break;
    }
  }
  ssl.reset();
  ::close(fd);
}

}  // namespace tern::testing
