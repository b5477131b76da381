// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#pragma once

#include <openssl/bio.h>

#include <string>

#include "net/socket.h"
#include "net/socket_bio.h"
#include "tern/timeout.h"

namespace tern::internal {

// What a TlsSocket runs over: a connected, non-blocking descriptor and a way to wait on it. The
// client's transport is a Socket (SocketTlsTransport below); MockWebServer has its own, whose
// waits end when the server closes. Implementations are used by the TlsSocket's threads (one
// reader and one writer at most) and must allow that.
class TlsTransport {
 public:
  virtual ~TlsTransport() = default;

  // The descriptor the TLS records travel on (-1 for a transport over streams).
  virtual int fd() const = 0;

  // The BIO the TLS records go through; the SSL takes it. By default a non-blocking socket BIO
  // over fd(); null if out of memory.
  virtual BIO* newBio() { return newSocketBio(fd()); }

  // Sends what the BIO holds back, after each OpenSSL call (outside the TLS lock). Nothing for
  // a socket BIO, which sends as OpenSSL writes. Throws IOException if sending fails.
  virtual void flush() {}

  // Blocks until the descriptor is readable (`forWrite` false) or writable, or a hang-up or error
  // is pending, for at most `timeout` from now. Throws SocketTimeoutException when the time runs
  // out, InterruptedIOException when the transport is canceled, IOException when closed.
  virtual void awaitReady(bool forWrite, const Timeout& timeout) const = 0;

  // Throws the transport's exception if it can no longer be used: closed (IOException("Socket
  // closed")) or canceled (InterruptedIOException("Canceled")). Called before each TLS operation
  // and after each failure, so that a failure caused by cancel() is reported as the cancel.
  virtual void checkOpen() const = 0;

  // The peer for messages: "localhost/127.0.0.1:8443".
  virtual std::string peerName() const = 0;
};

// A Socket as a TlsTransport (the client's). Does not own the socket.
class SocketTlsTransport final : public TlsTransport {
 public:
  explicit SocketTlsTransport(Socket& socket) : socket_(socket) {}

  int fd() const override { return socket_.fd(); }
  void awaitReady(bool forWrite, const Timeout& timeout) const override {
    socket_.awaitReady(forWrite ? Socket::Operation::kWrite : Socket::Operation::kRead, timeout);
  }
  void checkOpen() const override {
    if (socket_.isClosed()) throw IOException("Socket closed");
    if (socket_.isCanceled()) throw InterruptedIOException("Canceled");
  }
  std::string peerName() const override { return socket_.remoteAddress().describe(); }

 private:
  Socket& socket_;
};

}  // namespace tern::internal
