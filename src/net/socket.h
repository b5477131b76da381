// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#pragma once

#include <atomic>
#include <chrono>
#include <memory>
#include <mutex>
#include <optional>
#include <string_view>

#include "net/wakeup_fd.h"
#include "tern/exceptions.h"
#include "tern/inet_address.h"
#include "tern/sink.h"
#include "tern/source.h"
#include "tern/timeout.h"

namespace tern::internal {

// The failure of a wait for `operation` ("Connect", "Read", "Write") on `where` that ran out of
// time: "Read timed out after 100 ms: <where>" if it had a per-operation `timeout`, else
// "Read deadline reached: <where>". Sockets and HTTP/2 streams word their timeouts alike.
SocketTimeoutException timeoutException(std::string_view operation,
                                        std::chrono::nanoseconds timeout, std::string_view where);

// A TCP socket on a non-blocking file descriptor, as Java's Socket plus Okio's source()/sink().
// Every wait is a poll() bounded by a Timeout, and cancel() wakes any wait at once.
//
// Threads: one owner thread connects, reads, writes and closes (the source and sink may be used
// by two threads, one reading and one writing, as HTTP/2 does). cancel() is the one method any
// thread may call at any time, including while the owner is blocked in connect(), read() or
// write(); it never closes the file descriptor (so the number cannot be reused under a blocked
// reader), the owner does that with close() or the destructor. close() must not race with a
// read or write in progress: use cancel() for that.
//
// Errors (all IOException subtypes; messages name the peer as InetSocketAddress::describe()):
//   ConnectException("Failed to connect to localhost/127.0.0.1:8080: Connection refused")
//   SocketTimeoutException("Connect timed out after 100 ms: localhost/127.0.0.1:8080")
//   SocketTimeoutException("Read timed out after 100 ms: localhost/127.0.0.1:8080")
//   SocketTimeoutException("Write timed out after 100 ms: localhost/127.0.0.1:8080")
//   SocketTimeoutException("Read deadline reached: ...") / ("Write deadline reached: ...") when
//       the Timeout's deadline, not its per-operation timeout, ran out
//   InterruptedIOException("Canceled") after cancel(), for every operation that follows too
//   IOException("Connection reset by peer: localhost/127.0.0.1:8080") and other strerror texts
//   IOException("Socket closed") for any operation after close(). (The Source and Sink
//       contracts say std::logic_error; a socket follows Java's sockets instead, because a
//       pooled connection's socket may be closed by its owner while a body still holds its
//       source, and the reader deserves an IOException it can handle.)
//
// SIGPIPE is never raised: writes use send(MSG_NOSIGNAL) (SO_NOSIGPIPE where that is missing).
class Socket {
 public:
  // An unconnected socket. Owns one wakeup descriptor from the start, so that cancel() works
  // before and during connect(). Throws IOException if the process is out of descriptors.
  Socket();

  // Connects a new socket (see connect() below) and returns it. (The call layer instead makes
  // the Socket first and then connects it, so that Call.cancel() can reach it meanwhile.)
  static std::unique_ptr<Socket> connectTo(const InetSocketAddress& address,
                                           std::chrono::milliseconds connectTimeout);

  // Takes ownership of `fd`, a connected TCP socket (from accept(), say): makes it
  // non-blocking, close-on-exec and TCP_NODELAY. Throws std::invalid_argument if fd < 0.
  static std::unique_ptr<Socket> adopt(int fd);

  // Closes the socket (errors ignored: there is no one to tell).
  ~Socket();

  Socket(const Socket&) = delete;
  Socket& operator=(const Socket&) = delete;

  // Opens a TCP connection to `address`, waiting at most `connectTimeout` (zero: no limit,
  // as OkHttp's connectTimeout(0)). Sets TCP_NODELAY and FD_CLOEXEC. Throws ConnectException
  // (refused, unreachable, ...), SocketTimeoutException, or InterruptedIOException("Canceled").
  // After a failure the socket is closed, and connecting again throws IOException("Socket
  // closed"). Throws std::logic_error if already connected, std::invalid_argument if
  // connectTimeout < 0.
  void connect(const InetSocketAddress& address, std::chrono::milliseconds connectTimeout);

  // The raw stream of bytes from the peer. read() returns -1 at EOF (the peer shut down its
  // output, or shutdownInput() was called). Its timeout() is the read timeout: each read() may
  // wait that long for the first byte. close() closes the whole socket (as Java's
  // socket.getInputStream().close()). Reads land straight in the sink's segments.
  Source& source() noexcept { return source_; }

  // The raw stream of bytes to the peer. write() returns once every byte is handed to the
  // kernel; flush() does nothing. Its timeout() is the write timeout: a write fails when the
  // peer accepts no bytes for that long (each bit of progress restarts it; the deadline stays
  // fixed). close() closes the whole socket. Writes use writev-style sendmsg() over the source
  // buffer's segments, copying nothing.
  Sink& sink() noexcept { return sink_; }

  // Makes every blocked and future operation on this socket throw InterruptedIOException
  // ("Canceled"): shuts the connection down (so the peer sees it end) and signals the wakeup
  // descriptor. Thread-safe, idempotent, never throws. Call.cancel() ends here.
  void cancel() noexcept;

  // True once cancel() has been called.
  bool isCanceled() const noexcept { return canceled_.load(std::memory_order_acquire); }

  // Closes the file descriptor. Idempotent. Owner thread only (see the class comment).
  void close() noexcept;

  // True once close() has been called (or connect() failed).
  bool isClosed() const noexcept;

  // True if connect() succeeded (or the socket was adopted), even if since closed.
  bool isConnected() const noexcept { return connected_; }

  // True if the socket can carry another exchange: connected, not closed, canceled or shut
  // down. With `doExtensiveChecks`, also peeks without blocking (recv MSG_PEEK|MSG_DONTWAIT):
  // false if the peer has closed or reset the connection. The connection pool calls it before
  // reusing an idle connection (as OkHttp's RealConnection.isHealthy).
  bool isHealthy(bool doExtensiveChecks) const;

  // Disables further writes and sends FIN (shutdown(SHUT_WR)); later writes throw IOException
  // ("Socket output is shutdown"). Reading still works.
  void shutdownOutput();

  // Disables further reads: read() returns -1 from now on (shutdown(SHUT_RD)).
  void shutdownInput();

  bool isOutputShutdown() const noexcept { return outputShutdown_; }
  bool isInputShutdown() const noexcept { return inputShutdown_; }

  // The local end (getsockname()). Throws IOException if not connected or closed.
  InetSocketAddress localAddress() const;

  // The peer, as passed to connect() (with its host name) or from getpeername() for adopted
  // sockets. Throws std::logic_error if not connected.
  const InetSocketAddress& remoteAddress() const;

  // The file descriptor, for TLS later; -1 when closed or not yet connected. Still owned by
  // this socket. Beware: OpenSSL's socket BIO writes with write(), which raises SIGPIPE on a
  // closed connection; give OpenSSL a BIO that sends with MSG_NOSIGNAL (or one over source()
  // and sink()).
  int fd() const noexcept { return fd_; }

  // What a wait is for; names the operation in timeout messages.
  enum class Operation { kConnect, kRead, kWrite };

  // Blocks until the descriptor is readable (kRead) or writable (kWrite, kConnect), a hang-up
  // or error is pending, or cancel() is called, for at most `timeout` (its per-operation timeout
  // and deadline, from when this is called). Throws SocketTimeoutException or
  // InterruptedIOException as above. For the TLS layer, which drives OpenSSL on the same
  // non-blocking descriptor: after SSL_ERROR_WANT_READ it calls awaitReady(kRead, ...).
  void awaitReady(Operation operation, const Timeout& timeout) const;

 private:
  class SocketSource final : public Source {
   public:
    explicit SocketSource(Socket& socket) : socket_(socket) {}
    int64_t read(Buffer& sink, int64_t byteCount) override;
    Timeout& timeout() override { return timeout_; }
    void close() override { socket_.close(); }

   private:
    Socket& socket_;
    Timeout timeout_;
  };

  class SocketSink final : public Sink {
   public:
    explicit SocketSink(Socket& socket) : socket_(socket) {}
    void write(Buffer& source, int64_t byteCount) override;
    void flush() override;
    Timeout& timeout() override { return timeout_; }
    void close() override { socket_.close(); }

   private:
    Socket& socket_;
    Timeout timeout_;
  };

  // Waits as awaitReady() does, until `until` (std::nullopt: forever). `timeout` is the
  // per-operation timeout that set `until`, for the message; zero if the deadline did.
  void await(Operation operation, std::optional<Timeout::Clock::time_point> until,
             std::chrono::nanoseconds timeout) const;
  void checkOpen() const;  // Throws "Socket closed", "Canceled", or logic_error if unconnected.
  [[noreturn]] void throwErrno(int error) const;  // IOException("<strerror>: <peer>").
  // A failed send: SocketWriteException("<strerror>: <peer>", error).
  [[noreturn]] void throwWriteErrno(int error) const;
  void adoptFd(int fd);  // Sets fd_ (under fdLock_) and the socket options.

  mutable std::mutex fdLock_;  // Guards fd_ writes against cancel(); the owner reads fd_ freely.
  int fd_ = -1;                // Written by the owner under fdLock_.
  bool closed_ = false;        // Written by the owner under fdLock_.
  bool connected_ = false;     // Owner thread.
  WakeupFd wakeup_;            // Signaled by cancel(); closed by close() under fdLock_.
  std::atomic<bool> canceled_{false};
  // Set by a write, cleared by the next read, which then polls before its first recv().
  std::atomic<bool> readAfterWrite_{false};
  std::optional<InetSocketAddress> remote_;  // The peer (or connect()'s target); owner thread.
  bool outputShutdown_ = false;              // Owner thread.
  bool inputShutdown_ = false;               // Owner thread.
  SocketSource source_{*this};
  SocketSink sink_{*this};
};

}  // namespace tern::internal
