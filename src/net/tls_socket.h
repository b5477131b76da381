// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#pragma once

#include <chrono>
#include <cstdint>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "net/tls_failure.h"
#include "net/tls_transport.h"
#include "tern/export.h"
#include "tern/sink.h"
#include "tern/source.h"
#include "tern/timeout.h"
#include "tls/openssl_util.h"

namespace tern::internal {

// TLS over a TlsTransport (a Socket, for the client), as Java's SSLSocket over a plain socket:
// the same Source and Sink interface as the Socket it wraps, so codecs run unchanged over it.
// It drives OpenSSL on the transport's non-blocking descriptor: every SSL_ERROR_WANT_READ or
// WANT_WRITE becomes a poll() through TlsTransport::awaitReady(), bounded by the source's or
// sink's timeout (the handshake by its own), and woken at once by the transport's cancel().
// Records go out through a BIO that sends with MSG_NOSIGNAL, so no write ever raises SIGPIPE;
// writes are gathered into full 16 KiB records, and reads take up to a segment at a time with
// OpenSSL's read-ahead on, so a large body costs few system calls.
//
// End of stream: a close_notify alert from the peer is a clean end (read() returns -1). A
// connection that ends without one is a truncation attack as far as TLS can tell (RFC 8446
// §6.1), so read() throws IOException("... closed the connection without a TLS close_notify
// ...") instead.
//
// Threads: one thread handshakes; afterwards one thread may read while another writes (as
// HTTP/2 does). OpenSSL's SSL object is not thread-safe, so every SSL call is made under
// sslMutex_, which is never held while waiting. The transport's cancel() may come from any
// thread at any time and fails every operation with InterruptedIOException("Canceled").
// The members marked TERN_INTERNAL_API are the ones MockWebServer's TLS uses, exported by a
// shared libtern for libtern_mockwebserver.so (include/tern/export.h).
class TlsSocket {
 public:
  // The largest TLS plaintext record (RFC 8446 §5.1): what one write sends at most.
  static constexpr size_t kMaxRecordSize = 16 * 1024;

  // Takes `ssl`, configured by the caller for its role (client or server mode, SNI, ALPN,
  // verification), and attaches a socket BIO over `transport`'s descriptor. `transport` must
  // outlive this. Throws IOException if OpenSSL is out of memory.
  TERN_INTERNAL_API TlsSocket(TlsTransport& transport, UniqueSsl ssl);
  TERN_INTERNAL_API ~TlsSocket();
  TlsSocket(const TlsSocket&) = delete;
  TlsSocket& operator=(const TlsSocket&) = delete;

  // Runs the TLS handshake, waiting at most `timeout` in all (zero: no limit). Throws
  // SSLHandshakeException naming the cause (see tls_failure.h), SocketTimeoutException("TLS
  // handshake timed out after 100 ms: <peer>"), InterruptedIOException("Canceled"), or
  // IOException for a transport failure (a reset, an early end of stream). Call once.
  TERN_INTERNAL_API void handshake(std::chrono::milliseconds timeout);

  // The decrypted stream from the peer; read() returns -1 after the peer's close_notify. Its
  // timeout() bounds each wait. close() closes nothing (the owner closes the transport).
  Source& source() noexcept { return source_; }

  // The stream to the peer, encrypted. write() returns once every byte is handed to the kernel;
  // flush() does nothing. Its timeout() bounds each wait. close() closes nothing.
  Sink& sink() noexcept { return sink_; }

  // The SSL, for reading what the handshake settled (version, cipher, certificates). Use it only
  // while no read or write is in progress (after the handshake, before the streams are used).
  SSL* ssl() const noexcept { return ssl_.get(); }

  // The protocol ALPN selected ("h2", "http/1.1"), or nullopt if none was negotiated.
  TERN_INTERNAL_API std::optional<std::string> selectedAlpnProtocol() const;

  // True if the handshake resumed an earlier session (an abbreviated handshake).
  bool sessionReused() const;

  // False if the peer has sent its close_notify or closed the connection, looking without
  // blocking at what has arrived (a reused connection must not be a closed one). Owner thread,
  // while no read is in progress.
  bool isPeerOpen();

  // Sends a close_notify alert if the handshake completed and the transport can still take it,
  // without waiting for the peer's. Best effort, never throws; the owner closes the transport
  // afterwards. Owner thread.
  TERN_INTERNAL_API void sendCloseNotify() noexcept;

 private:
  class TlsSource final : public Source {
   public:
    explicit TlsSource(TlsSocket& socket) : socket_(socket) {}
    int64_t read(Buffer& sink, int64_t byteCount) override;
    Timeout& timeout() override { return timeout_; }
    void close() override {}

   private:
    // Up to `byteCount` more bytes that OpenSSL has already decrypted (the rest of a record the
    // last SSL_read took part of): no system call. Returns how many it added to `sink`.
    int64_t readDecrypted(Buffer& sink, int64_t byteCount);

    TlsSocket& socket_;
    Timeout timeout_;
  };

  class TlsSink final : public Sink {
   public:
    explicit TlsSink(TlsSocket& socket) : socket_(socket) {}
    void write(Buffer& source, int64_t byteCount) override;
    void flush() override {}
    Timeout& timeout() override { return timeout_; }
    void close() override {}

   private:
    TlsSocket& socket_;
    Timeout timeout_;
  };

  // Runs `sslCall` (returning OpenSSL's int result) under sslMutex_ and collects its outcome.
  template <typename Call>
  TlsCallResult call(Call&& sslCall);
  // call() without the transport's flush: the SSL call itself, under sslMutex_.
  template <typename Call>
  TlsCallResult callUnderLock(Call&& sslCall);
  // Waits for what `result` asks (WANT_READ or WANT_WRITE), bounded by `timeout`.
  void await(const TlsCallResult& result, const Timeout& timeout) const;

  TlsTransport& transport_;
  UniqueSsl ssl_;
  // Remembers the fatal failure `result` describes (SSL_ERROR_SSL after the handshake, such as
  // an alert from the peer; not an unexpected end of stream), unless one already is, so that every
  // later read and write reports it too: OpenSSL takes a fatal alert as the end of the stream, and
  // a thread that did not read it would otherwise see a plain close. sslMutex_ held.
  void rememberFailureLocked(const TlsCallResult& result);
  // Throws the remembered fatal failure, if there is one.
  void throwIfFailed() const;

  mutable std::mutex sslMutex_;  // Guards every call on ssl_, and the fatal failure below.
  std::string fatalMessage_;     // The remembered fatal failure's message, or empty.
  enum class FatalKind { kHandshake, kSsl, kIo };
  FatalKind fatalKind_ = FatalKind::kIo;  // Its type: SSLHandshakeException, SSLException...
  bool handshakeDone_ = false;            // Owner thread, set before the streams are used.
  bool inputEnded_ = false;               // Reader thread: the peer's close_notify arrived.
  TlsSource source_{*this};
  TlsSink sink_{*this};
};

}  // namespace tern::internal
