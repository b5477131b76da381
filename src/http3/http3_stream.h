// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstdint>
#include <deque>
#include <exception>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "concurrent/adaptive_mutex.h"
#include "concurrent/condition.h"
#include "concurrent/thread_annotations.h"
#include "http/header_block.h"
#include "http3/http3_error_code.h"
#include "tern/buffer.h"
#include "tern/sink.h"
#include "tern/source.h"
#include "tern/timeout.h"

struct nghttp3_vec;

namespace tern::internal {

class Http3Connection;

// One request stream of a client HTTP/3 connection (RFC 9114 §4.1: a client-initiated
// bidirectional QUIC stream), with Http2Stream's contract: the request body going out through
// sink(), the response's header sections, body and trailers coming in.
//
// Threads and locks: every field below is guarded by the connection's mutex (one lock per
// connection, shared with ngtcp2 and nghttp3), which the stream names mutex_. The connection's
// reader thread delivers what arrives and wakes this stream's condition; the call's thread waits
// on it in takeHeaders() and source().read() (parking on a fiber), and a request body writer
// (maybe another thread, for duplex bodies) waits on it for buffer space. closeLater() may come
// from any thread and never blocks.
//
// Flow control: received body bytes count against the connection's QUIC window at once (so a
// slow reader never holds up other streams), and against this stream's window only when the
// application reads them. So at most the stream window (16 MiB) waits here unread. Request body
// bytes stay here until the peer acknowledges them (nghttp3 sends from the application's
// memory); at most kMaxBufferedRequestBytes, so a writer waits while QUIC's flow control or
// congestion control holds them back.
class Http3Stream : public std::enable_shared_from_this<Http3Stream> {
 public:
  // Most request body bytes held here (written, not yet acknowledged by the peer) before
  // sink().write() blocks.
  static constexpr int64_t kMaxBufferedRequestBytes = 256 * 1024;

  Http3Stream(Http3Connection& connection, int64_t id, bool hasRequestBody);
  Http3Stream(const Http3Stream&) = delete;
  Http3Stream& operator=(const Http3Stream&) = delete;

  int64_t id() const noexcept { return id_; }
  Http3Connection& connection() noexcept { return connection_; }

  // Waits for the next response header section (interim 1xx sections come one by one, then the
  // final one) and returns it, pseudo-headers included. Bounded by readTimeout(): on timeout the
  // stream is reset with H3_REQUEST_CANCELLED and SocketTimeoutException("Read timed out after
  // 100 ms: HTTP/3 stream 0 to example.com:443") is thrown. Throws the stream's failure
  // (StreamResetException for the peer's RESET_STREAM, ProtocolException for an oversized
  // header section or more than kMaxInterimResponses interim ones, the connection's
  // IOException, InterruptedIOException("Canceled") after closeLater(H3_REQUEST_CANCELLED)).
  HeaderBlock takeHeaders();

  // The response body: DATA as it arrives, -1 at the end of the stream. Reads wait on
  // readTimeout() as takeHeaders() does. Closing it before the end resets the stream
  // (H3_REQUEST_CANCELLED).
  Source& source() noexcept { return source_; }

  // The request body: bytes go out as DATA frames as QUIC's flow control and congestion control
  // allow; close() ends the stream (FIN). write() waits on writeTimeout() for room.
  Sink& sink() noexcept { return sink_; }

  // The trailers after the body (RFC 9114 §4.1), empty if none. Throws std::logic_error if the
  // body has not been read to its end.
  HeaderBlock trailers();

  // True once source() has returned -1.
  bool isSourceExhausted();

  // Resets the stream both ways (RESET_STREAM and STOP_SENDING, RFC 9114 §4.1.1) with `code`
  // unless it is already closed: the frames go out from the reader thread, so this never
  // blocks. Waiters wake with InterruptedIOException("Canceled") for H3_REQUEST_CANCELLED, else
  // StreamResetException(code).
  void closeLater(Http3ErrorCode code);

  Timeout& readTimeout() noexcept { return readTimeout_; }
  Timeout& writeTimeout() noexcept { return writeTimeout_; }

 private:
  friend class Http3Connection;
  friend struct Http3Callbacks;

  class StreamSource final : public Source {
   public:
    explicit StreamSource(Http3Stream& stream) : stream_(stream) {}
    int64_t read(Buffer& sink, int64_t byteCount) override;
    Timeout& timeout() override { return stream_.readTimeout_; }
    void close() override;

   private:
    Http3Stream& stream_;
  };

  class StreamSink final : public Sink {
   public:
    explicit StreamSink(Http3Stream& stream) : stream_(stream) {}
    void write(Buffer& source, int64_t byteCount) override;
    void flush() override;
    Timeout& timeout() override { return stream_.writeTimeout_; }
    void close() override;

   private:
    Http3Stream& stream_;
  };

  // Reader side, connection lock held (called from nghttp3's and ngtcp2's callbacks).
  void beginHeadersLocked() TERN_REQUIRES(mutex_);
  // False: over a limit (the header section size, or too many interim responses); the stream has
  // failed and is reset.
  bool addHeaderLocked(std::string name, std::string value) TERN_REQUIRES(mutex_);
  bool refuseHeadersLocked(const std::string& message) TERN_REQUIRES(mutex_);
  void endHeadersLocked(bool trailers, bool endStream) TERN_REQUIRES(mutex_);
  // False if the bytes were dropped (nobody will read them): the caller frees their window.
  bool receiveDataLocked(const uint8_t* data, size_t length) TERN_REQUIRES(mutex_);
  void receiveEndStreamLocked() TERN_REQUIRES(mutex_);
  // The peer reset its half (RESET_STREAM) with `code`.
  void resetByPeerLocked(uint64_t code) TERN_REQUIRES(mutex_);
  // The peer asked us to stop sending (STOP_SENDING) with `code`.
  void stopSendingByPeerLocked(uint64_t code) TERN_REQUIRES(mutex_);
  // The stream is closed in ngtcp2 and nghttp3 (both halves done, or reset).
  void closedLocked(uint64_t code) TERN_REQUIRES(mutex_);
  // Fails the stream with `e` unless it already failed. Wakes every waiter.
  void failLocked(std::exception_ptr e) TERN_REQUIRES(mutex_);
  // For nghttp3's read_data callback: points `vec` at up to `count` chunks of request body not
  // handed out yet. Returns how many, with `eof` set once the body is closed and all handed out;
  // -1 if there is nothing yet (nghttp3 then waits for resumeDataLocked()).
  int64_t readRequestBodyLocked(nghttp3_vec* vec, size_t count, bool& eof) TERN_REQUIRES(mutex_);
  // The peer acknowledged `count` more bytes of the request body: their memory can go.
  void ackRequestBodyLocked(uint64_t count) TERN_REQUIRES(mutex_);

  // Wakes this stream's waiters: at once, or, while the reader is feeding datagrams to ngtcp2,
  // once after it lets go of the connection's lock. Lock held.
  void signalLocked() TERN_REQUIRES(mutex_);
  // The wait for readers and writers: readTimeout_ or writeTimeout_. Lock held. When it times
  // out, abandons the stream and throws SocketTimeoutException.
  void waitLocked(MutexLock& lock, Timeout& timeout) TERN_REQUIRES(mutex_);
  // Resets the stream with H3_REQUEST_CANCELLED, failing it with `e` if it has no failure yet.
  // Lock held; the caller wakes the reader.
  void abandonLocked(std::exception_ptr e) TERN_REQUIRES(mutex_);

  // For the connection, which holds its mutex and reaches this stream: tells the analysis that
  // `held` and this stream's mutex_ are one lock. Checks it in debug builds.
  void assertLockIs(const Mutex& held) const TERN_REQUIRES(held) TERN_ASSERT_CAPABILITY(mutex_);

  Http3Connection& connection_;
  AdaptiveMutex& mutex_;  // connection_.mutex_.
  const int64_t id_;
  Condition changed_;                                   // Notified whenever anything below changes.
  bool wakeupPending_ TERN_GUARDED_BY(mutex_) = false;  // In the connection's wakeups_.

  // Received, not yet taken: at most kMaxInterimResponses interim sections and the final one,
  // within kMaxHeaderListSize together (interimHeaderBytes_).
  std::deque<HeaderBlock> headerBlocks_ TERN_GUARDED_BY(mutex_);
  HeaderBlock headersInProgress_ TERN_GUARDED_BY(mutex_);
  int64_t headerListSize_ TERN_GUARDED_BY(mutex_) = 0;  // Of the section in progress (+32 each).
  int interimResponses_ TERN_GUARDED_BY(mutex_) = 0;
  int64_t interimHeaderBytes_ TERN_GUARDED_BY(mutex_) = 0;
  bool headersRefused_ TERN_GUARDED_BY(mutex_) = false;  // Over a limit: failed; ignore the rest.
  bool finalHeadersReceived_ TERN_GUARDED_BY(mutex_) = false;
  std::optional<HeaderBlock> trailers_ TERN_GUARDED_BY(mutex_);
  Buffer readBuffer_ TERN_GUARDED_BY(mutex_);      // Received DATA the application has not read.
  bool finished_ TERN_GUARDED_BY(mutex_) = false;  // The response ended (nghttp3's end_stream).
  bool sourceClosed_ TERN_GUARDED_BY(mutex_) = false;
  bool sourceExhausted_ TERN_GUARDED_BY(mutex_) = false;
  // The request body: chunks written, the first `sendHanded_` given to nghttp3, all kept until
  // acknowledged (the front one partly, `frontAcked_` bytes of it).
  std::deque<std::vector<uint8_t>> sendChunks_ TERN_GUARDED_BY(mutex_);
  size_t sendHanded_ TERN_GUARDED_BY(mutex_) = 0;
  uint64_t frontAcked_ TERN_GUARDED_BY(mutex_) = 0;
  int64_t sendBufferedBytes_ TERN_GUARDED_BY(mutex_) = 0;  // In sendChunks_, acked bytes off.
  bool sendClosed_ TERN_GUARDED_BY(mutex_);  // No more request body: none, or sink() closed.
  bool sendDeferred_ TERN_GUARDED_BY(mutex_) = false;  // nghttp3 waits for resumeData.
  // The peer asked for no more of the request (STOP_SENDING H3_NO_ERROR after its response,
  // RFC 9114 §4.1): what the sink is still given is dropped.
  bool sendAborted_ TERN_GUARDED_BY(mutex_) = false;
  bool resetSent_ TERN_GUARDED_BY(mutex_) = false;        // RESET_STREAM/STOP_SENDING queued.
  bool closedInSession_ TERN_GUARDED_BY(mutex_) = false;  // ngtcp2 closed the stream.
  std::exception_ptr failure_ TERN_GUARDED_BY(mutex_);    // Why the stream failed, or null.
  bool canceled_ TERN_GUARDED_BY(mutex_) = false;
  // Response bytes read since the reader was last woken to announce their window.
  uint64_t unannouncedCredit_ TERN_GUARDED_BY(mutex_) = 0;

  Timeout readTimeout_;   // Set by the codec before use; used by the call's thread.
  Timeout writeTimeout_;  // Likewise.
  StreamSource source_{*this};
  StreamSink sink_{*this};
};

}  // namespace tern::internal
