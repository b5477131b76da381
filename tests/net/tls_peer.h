// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
// A TLS peer for the TLS socket tests: certificates made in code, and a server thread that
// accepts one connection on loopback, runs a TLS server handshake with tern's own TlsSocket (or
// none), and then whatever the test asks of it.
#pragma once

#include <openssl/ssl.h>

#include <chrono>
#include <exception>
#include <functional>
#include <future>
#include <memory>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "net/loopback_peer.h"
#include "net/socket.h"
#include "net/tls_context.h"
#include "net/tls_socket.h"
#include "support/tls_certificates.h"
#include "tern/buffer.h"
#include "tern/tls/handshake_certificates.h"
#include "tern/tls/held_certificate.h"
#include "tls/openssl_access.h"

namespace tern::testing {

// A client TlsContext trusting `certificates`.
inline std::shared_ptr<internal::TlsContext> clientContext(
    const tls::HandshakeCertificates& certificates) {
  return std::make_shared<internal::TlsContext>(certificates);
}

// A server SSL_CTX presenting `certificates`' held certificate, adjusted by `configure`.
inline internal::UniqueSslCtx serverContext(
    const tls::HandshakeCertificates& certificates,
    const std::function<void(SSL_CTX*)>& configure = nullptr) {
  internal::UniqueSslCtx context(SSL_CTX_new(TLS_server_method()));
  internal::configureServer(certificates, context.get());
  // Offer what a client asks for, so ALPN tests see a selection.
  SSL_CTX_set_alpn_select_cb(
      context.get(),
      [](SSL*, const unsigned char** out, unsigned char* outLength, const unsigned char* in,
         unsigned int inLength, void*) {
        static const unsigned char kHttp11[] = "\x08http/1.1";
        unsigned char* selected = nullptr;
        if (SSL_select_next_proto(&selected, outLength, kHttp11, 9, in, inLength) !=
            OPENSSL_NPN_NEGOTIATED) {
          return SSL_TLSEXT_ERR_NOACK;
        }
        *out = selected;
        return SSL_TLSEXT_ERR_OK;
      },
      nullptr);
  if (configure) configure(context.get());
  return context;
}

// Accepted connections (`connections` of them, one after another) served on a thread: TLS (with
// `context`) or raw (null context). The test's `serve` runs after each handshake with the server's
// TlsSocket (null when raw) and Socket.
// The destructor cancels the socket (waking the thread) and joins; failures on the server side
// are kept for serverFailure().
class TlsServer {
 public:
  using Serve = std::function<void(internal::TlsSocket* tls, internal::Socket& socket)>;

  TlsServer(internal::UniqueSslCtx context, Serve serve, int connections = 1)
      : context_(std::move(context)), serve_(std::move(serve)), connections_(connections) {
    thread_ = std::thread([this] { run(); });
  }
  ~TlsServer() {
    {
      std::lock_guard lock(mutex_);
      stopping_ = true;
      if (socket_) socket_->cancel();
    }
    thread_.join();
  }
  TlsServer(const TlsServer&) = delete;
  TlsServer& operator=(const TlsServer&) = delete;

  InetSocketAddress address(std::string hostName = "localhost") const {
    return listener_.address(std::move(hostName));
  }
  int port() const { return listener_.port(); }

  // Waits (at most 5 s) for the server's work to end; the first exception it threw, or null.
  std::exception_ptr serverFailure() {
    if (done_.wait_for(std::chrono::seconds(5)) != std::future_status::ready) {
      return std::make_exception_ptr(std::runtime_error("server still running"));
    }
    return failure_;
  }

  // What the server's handshake settled, read once it is done (SNI, resumption, peer chain).
  std::string serverName() const { return serverName_; }
  // Whether each connection's handshake resumed a session, in order.
  const std::vector<bool>& resumed() const { return resumed_; }
  // The subject of the client's certificate (mutual TLS), or "".
  const std::string& clientSubject() const { return clientSubject_; }

 private:
  void run() {
    for (int i = 0; i < connections_; ++i) {
      serveOne();
      std::lock_guard lock(mutex_);
      if (stopping_) break;
    }
    promise_.set_value();
  }

  void serveOne() {
    // Declared outside the try, so the socket outlives the catch that clears socket_.
    std::unique_ptr<internal::Socket> socket;
    std::unique_ptr<internal::SocketTlsTransport> transport;
    std::unique_ptr<internal::TlsSocket> tls;
    try {
      Fd accepted = listener_.accept();
      socket = internal::Socket::adopt(accepted.release());
      {
        std::lock_guard lock(mutex_);
        socket_ = socket.get();
        if (stopping_) socket->cancel();
      }
      if (context_) {
        transport = std::make_unique<internal::SocketTlsTransport>(*socket);
        internal::UniqueSsl ssl(SSL_new(context_.get()));
        SSL_set_accept_state(ssl.get());
        tls = std::make_unique<internal::TlsSocket>(*transport, std::move(ssl));
        tls->handshake(std::chrono::seconds(5));
        if (const char* name = SSL_get_servername(tls->ssl(), TLSEXT_NAMETYPE_host_name)) {
          serverName_ = name;
        }
        resumed_.push_back(tls->sessionReused());
        std::vector<Certificate> peer = internal::peerCertificates(tls->ssl());
        if (!peer.empty()) clientSubject_ = peer.front().subject();
      }
      serve_(tls.get(), *socket);
    } catch (...) {
      if (!failure_) failure_ = std::current_exception();  // The first one tells most.
    }
    std::lock_guard lock(mutex_);
    socket_ = nullptr;
  }

  LoopbackListener listener_;
  internal::UniqueSslCtx context_;
  Serve serve_;
  int connections_;
  std::mutex mutex_;
  internal::Socket* socket_ = nullptr;  // While serving; guarded by mutex_.
  bool stopping_ = false;
  std::exception_ptr failure_;
  std::string serverName_;
  std::vector<bool> resumed_;
  std::string clientSubject_;
  std::promise<void> promise_;
  std::future<void> done_ = promise_.get_future();
  std::thread thread_;
};

// A TlsServer's `serve` that answers one HTTP/1.1 request with `body` and closes properly.
inline TlsServer::Serve respondWith(std::string body) {
  return [body](internal::TlsSocket* tls, internal::Socket& socket) {
    Source& source = tls ? tls->source() : socket.source();
    Sink& sink = tls ? tls->sink() : socket.sink();
    std::string head;
    Buffer buffer;
    while (head.find("\r\n\r\n") == std::string::npos) {
      if (source.read(buffer, 8192) == -1) return;
      head += buffer.readUtf8();
    }
    Buffer response;
    response.writeUtf8("HTTP/1.1 200 OK\r\nConnection: close\r\nContent-Length: " +
                       std::to_string(body.size()) + "\r\n\r\n" + body);
    sink.write(response, response.size());
    if (tls) tls->sendCloseNotify();
  };
}

}  // namespace tern::testing
