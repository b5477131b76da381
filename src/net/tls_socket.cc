// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#include "net/tls_socket.h"

#include <openssl/err.h>

#include <algorithm>
#include <cstring>
#include <span>
#include <stdexcept>
#include <utility>

#include "concurrent/fiber.h"
#include "net/socket_bio.h"
#include "tern/buffer.h"
#include "tern/exceptions.h"

namespace tern::internal {

TlsSocket::TlsSocket(TlsTransport& transport, UniqueSsl ssl)
    : transport_(transport), ssl_(std::move(ssl)) {
  if (!ssl_) throw std::invalid_argument("TlsSocket: ssl == null");
  BIO* bio = transport_.newBio();
  if (bio == nullptr) throw IOException("TlsSocket: out of memory for a BIO");
  SSL_set_bio(ssl_.get(), bio, bio);  // The SSL owns the BIO from here.
  // Read as many bytes as the kernel has, not one record header at a time.
  SSL_set_read_ahead(ssl_.get(), 1);
  // A write retried after WANT_WRITE passes the same bytes, but maybe from a moved vector.
  SSL_set_mode(ssl_.get(), SSL_MODE_ACCEPT_MOVING_WRITE_BUFFER);
}

TlsSocket::~TlsSocket() {
  // OpenSSL forgets the session of a connection freed without our close_notify, as SSL 3.0
  // required. TLS 1.1 and later dropped that rule (RFC 5246 §7.2.1): a connection that ended
  // abruptly (canceled, reset, or closed by the server while pooled) leaves its session good for
  // the next connection to resume.
  if (handshakeDone_)
    SSL_set_shutdown(ssl_.get(), SSL_get_shutdown(ssl_.get()) | SSL_SENT_SHUTDOWN);
}

template <typename Call>
TlsCallResult TlsSocket::call(Call&& sslCall) {
  TlsCallResult result = callUnderLock(std::forward<Call>(sslCall));
  transport_.flush();  // What the call wrote, for a transport over streams (TLS in TLS).
  return result;
}

template <typename Call>
TlsCallResult TlsSocket::callUnderLock(Call&& sslCall) {
  TlsCallResult result;
  std::lock_guard lock(sslMutex_);
  ERR_clear_error();
  socketBioClearLastError(SSL_get_rbio(ssl_.get()));  // The errno below is this call's own.
  const int rc = sslCall(ssl_.get(), result.bytes);
  if (rc == 1) return result;
  result.error = SSL_get_error(ssl_.get(), rc);
  if (result.error == SSL_ERROR_SSL || result.error == SSL_ERROR_SYSCALL) {
    result.code = ERR_peek_error();
    result.details = takeOpenSslErrors();
    BIO* bio = SSL_get_rbio(ssl_.get());
    result.socketError = socketBioLastError(bio);
    result.sawEof = socketBioSawEof(bio);
  }
  // Remembered in the same critical section, so no other thread can see OpenSSL's clean end
  // that follows a fatal alert before the alert is known.
  if (result.error == SSL_ERROR_SSL && handshakeDone_) rememberFailureLocked(result);
  return result;
}

void TlsSocket::await(const TlsCallResult& result, const Timeout& timeout) const {
  transport_.awaitReady(result.error == SSL_ERROR_WANT_WRITE, timeout);
}

void TlsSocket::handshake(std::chrono::milliseconds timeout) {
  if (handshakeDone_) throw std::logic_error("TlsSocket: handshake already done");
  Timeout limit;
  if (timeout.count() > 0) limit.timeout(timeout).deadline(timeout);
  transport_.checkOpen();
  while (true) {
    TlsCallResult result = call([](SSL* ssl, size_t&) { return SSL_do_handshake(ssl); });
    if (result.error == SSL_ERROR_NONE) break;
    if (result.error == SSL_ERROR_WANT_READ || result.error == SSL_ERROR_WANT_WRITE) {
      try {
        await(result, limit);
      } catch (const SocketTimeoutException&) {
        throw SocketTimeoutException("TLS handshake timed out after " +
                                     std::to_string(timeout.count()) +
                                     " ms: " + transport_.peerName());
      }
      continue;
    }
    transport_.checkOpen();  // A failure caused by cancel() is the cancel.
    throwHandshakeFailure(ssl_.get(), result, transport_.peerName());
  }
  handshakeDone_ = true;
}

int64_t TlsSocket::TlsSource::read(Buffer& sink, int64_t byteCount) {
  if (byteCount < 0) {
    throw std::invalid_argument("TLS read: byteCount < 0: " + std::to_string(byteCount));
  }
  if (!socket_.handshakeDone_) throw std::logic_error("TLS read before the handshake");
  socket_.transport_.checkOpen();
  if (byteCount == 0) return 0;
  socket_.throwIfFailed();
  if (socket_.inputEnded_) return -1;
  while (true) {
    std::span<std::byte> span = sink.writableSegment(1);
    const size_t wanted = std::min(span.size(), static_cast<size_t>(byteCount));
    TlsCallResult result = socket_.call(
        [&](SSL* ssl, size_t& bytes) { return SSL_read_ex(ssl, span.data(), wanted, &bytes); });
    sink.commitWrite(result.error == SSL_ERROR_NONE ? result.bytes : 0);
    switch (result.error) {
      case SSL_ERROR_NONE:
        return static_cast<int64_t>(result.bytes) +
               readDecrypted(sink, byteCount - static_cast<int64_t>(result.bytes));
      case SSL_ERROR_ZERO_RETURN:  // The peer's close_notify: a clean end (RFC 8446 §6.1).
        socket_.throwIfFailed();   // Or the end after a fatal alert another thread read.
        socket_.inputEnded_ = true;
        return -1;
      case SSL_ERROR_WANT_READ:
      case SSL_ERROR_WANT_WRITE:  // A TLS 1.3 KeyUpdate may need to answer while reading.
        socket_.await(result, timeout_);
        continue;
      default:
        socket_.transport_.checkOpen();
        throwStreamFailure(socket_.ssl(), result, socket_.transport_.peerName(), true);
    }
  }
}

int64_t TlsSocket::TlsSource::readDecrypted(Buffer& sink, int64_t byteCount) {
  int64_t total = 0;
  while (total < byteCount) {
    TlsCallResult pending = socket_.call([](SSL* ssl, size_t& bytes) {
      bytes = static_cast<size_t>(SSL_pending(ssl));
      return 1;
    });
    if (pending.bytes == 0) break;
    std::span<std::byte> span = sink.writableSegment(1);
    const size_t wanted =
        std::min({span.size(), pending.bytes, static_cast<size_t>(byteCount - total)});
    TlsCallResult result = socket_.call(
        [&](SSL* ssl, size_t& bytes) { return SSL_read_ex(ssl, span.data(), wanted, &bytes); });
    sink.commitWrite(result.error == SSL_ERROR_NONE ? result.bytes : 0);
    if (result.error != SSL_ERROR_NONE) break;  // The next read() reports it (call() kept it).
    total += static_cast<int64_t>(result.bytes);
  }
  return total;
}

void TlsSocket::TlsSink::write(Buffer& source, int64_t byteCount) {
  if (byteCount < 0 || byteCount > source.size()) {
    throw std::invalid_argument("TLS write: byteCount " + std::to_string(byteCount) +
                                " out of range [0, " + std::to_string(source.size()) + "]");
  }
  if (!socket_.handshakeDone_) throw std::logic_error("TLS write before the handshake");
  socket_.transport_.checkOpen();
  socket_.throwIfFailed();
  while (byteCount > 0) {
    // One record's worth (full-size records: fewer headers, MACs and syscalls per byte), taken
    // straight from the first segment when it holds all of it, else gathered from the segments
    // into this thread's staging area (one per thread rather than 16 KiB per connection).
    const size_t recordSize = std::min(kMaxRecordSize, static_cast<size_t>(byteCount));
    std::unique_ptr<std::byte[]> fiberStaging;  // Outlives the write of `record`.
    const std::byte* record = source.readableSegment(0).data();
    if (source.readableSegment(0).size() < recordSize) {
      // A fiber may park in the write below and resume on another thread, where another
      // fiber may have used the thread's area meanwhile: it gathers into a buffer of its own.
      thread_local std::byte threadStaging[kMaxRecordSize];
      std::byte* staging = threadStaging;
      if (Fiber::parkable() != nullptr) {
        fiberStaging = std::make_unique<std::byte[]>(kMaxRecordSize);
        staging = fiberStaging.get();
      }
      size_t gathered = 0;
      for (size_t i = 0; i < source.segmentCount() && gathered < recordSize; ++i) {
        std::span<const std::byte> segment = source.readableSegment(i);
        const size_t n = std::min(segment.size(), recordSize - gathered);
        std::memcpy(staging + gathered, segment.data(), n);
        gathered += n;
      }
      record = staging;
    }
    // Without SSL_MODE_ENABLE_PARTIAL_WRITE a write succeeds only once all of it is sent.
    while (true) {
      TlsCallResult result = socket_.call(
          [&](SSL* ssl, size_t& bytes) { return SSL_write_ex(ssl, record, recordSize, &bytes); });
      if (result.error == SSL_ERROR_NONE) break;
      if (result.error == SSL_ERROR_WANT_READ || result.error == SSL_ERROR_WANT_WRITE) {
        socket_.await(result, timeout_);
        continue;
      }
      socket_.transport_.checkOpen();
      if (result.error == SSL_ERROR_SYSCALL) {
        // The peer closed the connection. An alert it sent first says why better than "Broken
        // pipe": a TLS 1.3 server refuses the client's certificate after the client's side of
        // the handshake is done, so the refusal arrives while the client writes its request.
        char byte;
        socket_.call([&](SSL* ssl, size_t& bytes) { return SSL_peek_ex(ssl, &byte, 1, &bytes); });
        socket_.throwIfFailed();  // call() kept the alert, this peek's or the reader's.
      }
      throwStreamFailure(socket_.ssl(), result, socket_.transport_.peerName(), false);
    }
    source.skip(static_cast<int64_t>(recordSize));
    byteCount -= static_cast<int64_t>(recordSize);
  }
}

void TlsSocket::rememberFailureLocked(const TlsCallResult& result) {
  if (!fatalMessage_.empty()) return;
  // A close without close_notify is not remembered: the socket's own error (a reset, a broken
  // pipe) says more to a writer than "truncated" does.
  if (ERR_GET_LIB(result.code) == ERR_LIB_SSL &&
      ERR_GET_REASON(result.code) == SSL_R_UNEXPECTED_EOF_WHILE_READING) {
    return;
  }
  try {
    throwStreamFailure(ssl_.get(), result, transport_.peerName(), true);
  } catch (const IOException& e) {
    fatalMessage_ = e.what();
    fatalKind_ = dynamic_cast<const SSLHandshakeException*>(&e) ? FatalKind::kHandshake
                 : dynamic_cast<const SSLException*>(&e)        ? FatalKind::kSsl
                                                                : FatalKind::kIo;
  }
}

void TlsSocket::throwIfFailed() const {
  std::lock_guard lock(sslMutex_);
  if (fatalMessage_.empty()) return;
  // A fresh exception per throw: threads never share one.
  switch (fatalKind_) {
    case FatalKind::kHandshake:
      throw SSLHandshakeException(fatalMessage_);
    case FatalKind::kSsl:
      throw SSLException(fatalMessage_);
    case FatalKind::kIo:
      break;
  }
  throw IOException(fatalMessage_);
}

std::optional<std::string> TlsSocket::selectedAlpnProtocol() const {
  std::lock_guard lock(sslMutex_);
  const unsigned char* data = nullptr;
  unsigned int length = 0;
  SSL_get0_alpn_selected(ssl_.get(), &data, &length);
  if (data == nullptr || length == 0) return std::nullopt;
  return std::string(reinterpret_cast<const char*>(data), length);
}

bool TlsSocket::sessionReused() const {
  std::lock_guard lock(sslMutex_);
  return SSL_session_reused(ssl_.get()) == 1;
}

bool TlsSocket::isPeerOpen() {
  if (!handshakeDone_ || inputEnded_) return false;
  // Bytes waiting may be a close_notify alert or data; a non-blocking peek tells which. Nothing
  // waiting reads as WANT_READ: the connection is quiet and open.
  char byte;
  TlsCallResult result =
      call([&](SSL* ssl, size_t& bytes) { return SSL_peek_ex(ssl, &byte, 1, &bytes); });
  return result.error == SSL_ERROR_NONE || result.error == SSL_ERROR_WANT_READ ||
         result.error == SSL_ERROR_WANT_WRITE;
}

void TlsSocket::sendCloseNotify() noexcept {
  if (!handshakeDone_) return;
  {
    std::lock_guard lock(sslMutex_);
    // One attempt: SSL_shutdown() sends our close_notify and returns 0 without waiting for the
    // peer's (we are closing anyway). If the socket cannot take it right now, the peer sees a
    // plain close, which is what it would see from a process that died.
    ERR_clear_error();
    if (SSL_get_shutdown(ssl_.get()) & SSL_SENT_SHUTDOWN) return;
    SSL_shutdown(ssl_.get());
    ERR_clear_error();
  }
  try {
    transport_.flush();
  } catch (const IOException&) {
    // Best effort, as above: the peer then sees a plain close.
  }
}

}  // namespace tern::internal
