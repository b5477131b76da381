// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <memory>
#include <string>

#include "net/tls_socket.h"
#include "net/tls_transport.h"
#include "tern/buffer.h"
#include "tern/exceptions.h"
#include "tern/sink.h"
#include "tern/source.h"
#include "tern/timeout.h"

// MockWebServer's own POSIX socket plumbing. It is private to the server on purpose: the client's
// socket layer (src/net) is a separate design with connect timeouts, DNS and TLS; the server
// needs only accept, blocking-until-closed reads and writes, and a way to wake every thread at
// once when it closes.
namespace tern::mockwebserver::internal {

// Owns a file descriptor and closes it when destroyed. Move-only.
class FileDescriptor {
 public:
  FileDescriptor() = default;
  explicit FileDescriptor(int fd) noexcept : fd_(fd) {}
  FileDescriptor(FileDescriptor&& other) noexcept : fd_(other.release()) {}
  FileDescriptor& operator=(FileDescriptor&& other) noexcept;
  FileDescriptor(const FileDescriptor&) = delete;
  FileDescriptor& operator=(const FileDescriptor&) = delete;
  ~FileDescriptor() { reset(); }

  int get() const noexcept { return fd_; }
  bool valid() const noexcept { return fd_ >= 0; }
  int release() noexcept;
  void reset() noexcept;  // Closes the descriptor, if any.

 private:
  int fd_ = -1;
};

// Thrown on a server thread when the server is closing: it unwinds whatever the thread was doing
// (reading, writing, sleeping) so the thread can close its socket and exit.
class ServerClosedException : public InterruptedIOException {
 public:
  ServerClosedException() : InterruptedIOException("MockWebServer closed") {}
};

// A one-shot signal that the server is closing. Its descriptor (an eventfd) becomes readable for
// good once fire() is called, so every poll() that includes it wakes. Thread-safe.
class CloseSignal {
 public:
  CloseSignal();  // Throws IOException if no eventfd can be made.

  // Wakes every waiter, now and later. Idempotent.
  void fire() noexcept;
  bool fired() const noexcept { return fired_.load(std::memory_order_acquire); }

  // The descriptor to poll for POLLIN alongside a socket.
  int fd() const noexcept { return fd_.get(); }

  // Waits `duration` (zero returns at once). Throws ServerClosedException if the signal fires
  // first (or has fired).
  void sleep(std::chrono::nanoseconds duration) const;

  // Waits until the signal fires, then throws ServerClosedException.
  [[noreturn]] void awaitClose() const;

 private:
  FileDescriptor fd_;
  std::atomic<bool> fired_{false};
};

// Waits until `fd` is ready for `events` (POLLIN or POLLOUT) or the server closes. Returns the
// poll revents of `fd`; throws ServerClosedException if `closing` fired, IOException if poll()
// fails.
short awaitReady(int fd, short events, const CloseSignal& closing);

// One accepted connection: a non-blocking socket read and written as if it were blocking, except
// that every wait also ends when the server closes (ServerClosedException). After startTls() its
// source and sink carry the plaintext of a TLS connection (tern's TlsSocket, driven here with the
// server's own waits). Used by one connection thread only; not thread-safe.
class ConnectionSocket {
 public:
  ConnectionSocket(FileDescriptor fd, const CloseSignal& closing);
  ~ConnectionSocket();
  ConnectionSocket(const ConnectionSocket&) = delete;
  ConnectionSocket& operator=(const ConnectionSocket&) = delete;

  // The socket as an Okio-style Source and Sink (owned by this; closing them does nothing: the
  // socket closes with close() or when this is destroyed). Reads return -1 at end of stream.
  // Both throw IOException on socket errors and after close().
  Source& source() noexcept { return source_; }
  Sink& sink() noexcept { return sink_; }

  // Runs the server side of a TLS handshake with `context`, waiting as long as the client takes
  // (or until the server closes). Throws SSLHandshakeException and the like if it fails,
  // ServerClosedException if the server closes meanwhile.
  void startTls(SSL_CTX* context);

  // The TLS layer once startTls() succeeded, else null.
  tern::internal::TlsSocket* tls() noexcept { return tls_.get(); }

  // shutdown(SHUT_RD) / shutdown(SHUT_WR): half-closes, keeping the descriptor. Over TLS,
  // shutdownOutput() sends the close_notify alert first.
  void shutdownInput() noexcept;
  void shutdownOutput() noexcept;

  // Closes the socket now (over TLS, after a close_notify alert). Idempotent.
  void close() noexcept;
  bool isClosed() const noexcept { return !fd_.valid(); }

 private:
  class SocketSource final : public Source {
   public:
    explicit SocketSource(ConnectionSocket& socket) : socket_(socket) {}
    int64_t read(Buffer& sink, int64_t byteCount) override;
    Timeout& timeout() override { return timeout_; }
    void close() override {}

   private:
    ConnectionSocket& socket_;
    Timeout timeout_;  // Unused: server reads wait until data, end of stream or close.
  };

  class SocketSink final : public Sink {
   public:
    explicit SocketSink(ConnectionSocket& socket) : socket_(socket) {}
    void write(Buffer& source, int64_t byteCount) override;
    void flush() override {}
    Timeout& timeout() override { return timeout_; }
    void close() override {}

   private:
    ConnectionSocket& socket_;
    Timeout timeout_;  // Unused, as SocketSource's.
  };

  // The socket as TLS sees it: its descriptor, and the server's waits.
  class Transport final : public tern::internal::TlsTransport {
   public:
    explicit Transport(ConnectionSocket& socket) : socket_(socket) {}
    int fd() const override { return socket_.fd_.get(); }
    void awaitReady(bool forWrite, const Timeout& timeout) const override;
    void checkOpen() const override;
    std::string peerName() const override { return "MockWebServer client"; }

   private:
    ConnectionSocket& socket_;
  };

  int requireOpen() const;  // The descriptor; throws IOException("socket closed") if closed.

  FileDescriptor fd_;
  const CloseSignal& closing_;
  SocketSource source_{*this};
  SocketSink sink_{*this};
  Transport transport_{*this};
  std::unique_ptr<tern::internal::TlsSocket> tls_;  // After startTls().
};

// A description of errno for exception messages: "Connection reset by peer (errno 104)".
std::string errnoMessage(int error);

}  // namespace tern::mockwebserver::internal
