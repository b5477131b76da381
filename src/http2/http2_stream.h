// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#pragma once

#include <condition_variable>
#include <cstdint>
#include <deque>
#include <exception>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "concurrent/adaptive_mutex.h"
#include "concurrent/condition.h"
#include "concurrent/thread_annotations.h"
#include "http/header_block.h"
#include "http2/error_code.h"
#include "tern/buffer.h"
#include "tern/sink.h"
#include "tern/source.h"
#include "tern/timeout.h"

namespace tern::internal {

class Http2Connection;

// One HTTP/2 stream of a client connection (RFC 9113 §5), as OkHttp's Http2Stream: the request
// body going out through sink(), the response's header blocks, body and trailers coming in.
//
// Threads and locks: every field below is guarded by the connection's mutex (one lock per
// connection, shared with nghttp2's session), which the stream names mutex_. The connection's
// reader thread delivers frames and wakes this stream's condition variable; the call's thread waits
// on it in takeHeaders() and source().read(), and a request body writer (maybe another thread, for
// duplex bodies) waits on it for buffer space. closeLater() may come from any thread and never
// blocks on the network.
//
// Flow control: received DATA counts against the connection window at once (so a slow reader
// never holds up other streams), and against this stream's window only when the application
// reads it; nghttp2 sends WINDOW_UPDATE once half the window is consumed. So at most the stream
// window (16 MiB) waits here unread.
class Http2Stream : public std::enable_shared_from_this<Http2Stream> {
 public:
  // Most request body bytes held here before sink().write() blocks for nghttp2 to take them.
  static constexpr int64_t kMaxBufferedRequestBytes = 64 * 1024;

  Http2Stream(Http2Connection& connection, int32_t id, bool hasRequestBody);
  Http2Stream(const Http2Stream&) = delete;
  Http2Stream& operator=(const Http2Stream&) = delete;

  int32_t id() const noexcept { return id_; }
  Http2Connection& connection() noexcept { return connection_; }

  // Waits for the next response header block (interim 1xx blocks come one by one, then the
  // final one) and returns it, pseudo-headers included. Bounded by readTimeout(): on timeout the
  // stream is reset with CANCEL, the connection sends a ping to check itself, and
  // SocketTimeoutException("Read timed out after 100 ms: HTTP/2 stream 3 to example.com:443") is
  // thrown. Throws the stream's failure (StreamResetException for RST_STREAM, ProtocolException
  // for an oversized header list or more than kMaxInterimResponses interim blocks, the
  // connection's IOException, InterruptedIOException("Canceled") after closeLater()).
  HeaderBlock takeHeaders();

  // The response body: DATA frames as they arrive, -1 after END_STREAM. Reads wait on
  // readTimeout() as takeHeaders() does. Closing it before the end resets the stream (CANCEL).
  Source& source() noexcept { return source_; }

  // Waits until the response body has ended (END_STREAM) or failed, without taking any of it:
  // so that a caller about to hand a small response to code that reads it can let that read find
  // the whole body in memory. Gives up once the connection has received nothing for `quiet`
  // (the body is late, not queued behind other streams' frames), or after `longest` in all. On
  // a fiber this parks. Never throws.
  void awaitBodyEnd(std::chrono::steady_clock::duration quiet,
                    std::chrono::steady_clock::duration longest);

  // The request body: bytes go out as DATA frames as the peer's flow-control windows allow;
  // close() ends the stream (END_STREAM). write() and flush() wait on writeTimeout() for room.
  Sink& sink() noexcept { return sink_; }

  // The trailers after the body (RFC 9113 §8.1), empty if none. Throws std::logic_error if the
  // body has not been read to its end.
  HeaderBlock trailers();

  // True once source() has returned -1.
  bool isSourceExhausted();

  // Resets the stream with `code` unless it is already closed: the RST_STREAM goes out on the
  // connection's writer queue, so this never blocks. Waiters wake with InterruptedIOException
  // ("Canceled") for CANCEL, else StreamResetException(code).
  void closeLater(ErrorCode code);

  Timeout& readTimeout() noexcept { return readTimeout_; }
  Timeout& writeTimeout() noexcept { return writeTimeout_; }

 private:
  friend class Http2Connection;
  friend struct Http2Callbacks;

  class StreamSource final : public Source {
   public:
    explicit StreamSource(Http2Stream& stream) : stream_(stream) {}
    int64_t read(Buffer& sink, int64_t byteCount) override;
    Timeout& timeout() override { return stream_.readTimeout_; }
    void close() override;

   private:
    Http2Stream& stream_;
  };

  class StreamSink final : public Sink {
   public:
    explicit StreamSink(Http2Stream& stream) : stream_(stream) {}
    void write(Buffer& source, int64_t byteCount) override;
    void flush() override;
    Timeout& timeout() override { return stream_.writeTimeout_; }
    void close() override;

   private:
    Http2Stream& stream_;
  };

  // Reader side, connection lock held (called from nghttp2 callbacks).
  void beginHeadersLocked() TERN_REQUIRES(mutex_);
  // False: over a limit (the header list size, or too many interim responses); the stream has
  // failed and nghttp2 resets it.
  bool addHeaderLocked(std::string name, std::string value) TERN_REQUIRES(mutex_);
  // Fails the stream with ProtocolException(message) and ignores the rest of its headers.
  // Returns false, for addHeaderLocked().
  bool refuseHeadersLocked(const std::string& message) TERN_REQUIRES(mutex_);
  void endHeadersLocked(bool endStream) TERN_REQUIRES(mutex_);
  void receiveDataLocked(const uint8_t* data, size_t length) TERN_REQUIRES(mutex_);
  void receiveEndStreamLocked() TERN_REQUIRES(mutex_);
  // The stream ended in nghttp2 (closed normally, reset by either side, or refused by GOAWAY).
  void closedLocked(uint32_t errorCode) TERN_REQUIRES(mutex_);
  // Fails the stream with `e` unless it already failed or completed. Wakes every waiter.
  void failLocked(std::exception_ptr e) TERN_REQUIRES(mutex_);
  // For nghttp2's data source callback: copies up to `length` request body bytes to `out`.
  // Returns the count, with `eof` set once the body is closed and drained; -1 if nothing is
  // buffered yet (nghttp2 then defers the stream until resumeDataLocked()).
  int64_t readRequestBodyLocked(uint8_t* out, size_t length, bool& eof) TERN_REQUIRES(mutex_);

  // Wakes this stream's waiters: at once, or, while the reader thread is feeding a batch of frames
  // to nghttp2, once after it lets go of the connection's lock (see Http2Connection). Lock held.
  void signalLocked() TERN_REQUIRES(mutex_);

  // Throws the failure to report to a reader or writer, if any. Lock held.
  void throwIfFailedLocked(bool forWriting) const TERN_REQUIRES(mutex_);
  // The wait for readers and writers: readTimeout_ or writeTimeout_. Lock held. When it times
  // out, abandons the stream and throws SocketTimeoutException("Read timed out after 100 ms:
  // HTTP/2 stream 3 to example.com:443"), or "Write ..." for writeTimeout_.
  void waitLocked(MutexLock& lock, Timeout& timeout) TERN_REQUIRES(mutex_);

  // For the connection, which holds its mutex and reaches this stream: tells the analysis that
  // `held` and this stream's mutex_ are one lock (it cannot see that a stream in a connection's
  // map belongs to that connection). Checks it in debug builds.
  void assertLockIs(const Mutex& held) const TERN_REQUIRES(held) TERN_ASSERT_CAPABILITY(mutex_);

  Http2Connection& connection_;
  AdaptiveMutex& mutex_;  // connection_.mutex_.
  const int32_t id_;
  Condition changed_;                                   // Notified whenever anything below changes.
  bool wakeupPending_ TERN_GUARDED_BY(mutex_) = false;  // In the connection's wakeups_.

  // Guarded by the connection's mutex.
  // Received, not yet taken: at most kMaxInterimResponses interim blocks and the final one, all
  // within kMaxHeaderListSize together (interimHeaderBytes_), since the reader may run far
  // ahead of the call taking them.
  std::deque<HeaderBlock> headerBlocks_ TERN_GUARDED_BY(mutex_);
  HeaderBlock headersInProgress_ TERN_GUARDED_BY(mutex_);
  int64_t headerListSize_ TERN_GUARDED_BY(mutex_) =
      0;  // Of the block in progress. RFC 9113 §6.5.2: names + values + 32.
  int interimResponses_ TERN_GUARDED_BY(mutex_) = 0;        // Interim (1xx) blocks received.
  int64_t interimHeaderBytes_ TERN_GUARDED_BY(mutex_) = 0;  // Their header list sizes, summed.
  bool headersRefused_ TERN_GUARDED_BY(mutex_) =
      false;  // Over a limit: the stream failed; ignore the rest.
  bool finalHeadersReceived_ TERN_GUARDED_BY(mutex_) = false;
  std::optional<HeaderBlock> trailers_ TERN_GUARDED_BY(mutex_);
  Buffer readBuffer_ TERN_GUARDED_BY(mutex_);      // Received DATA the application has not read.
  bool finished_ TERN_GUARDED_BY(mutex_) = false;  // END_STREAM received.
  bool sourceClosed_ TERN_GUARDED_BY(mutex_) = false;     // The application closed source().
  bool sourceExhausted_ TERN_GUARDED_BY(mutex_) = false;  // source() returned -1.
  Buffer sendBuffer_ TERN_GUARDED_BY(mutex_);  // Request body bytes nghttp2 has not taken.
  bool sendClosed_ TERN_GUARDED_BY(mutex_);    // No more request body: none, or sink() closed.
  bool sendDeferred_ TERN_GUARDED_BY(mutex_) = false;  // nghttp2 waits for resumeData.
  // The peer ended its response and then reset the stream with NO_ERROR: stop sending, without
  // error (RFC 9113 §8.1). What the sink is still given is dropped.
  bool sendAborted_ TERN_GUARDED_BY(mutex_) = false;
  bool closedInSession_ TERN_GUARDED_BY(mutex_) = false;  // nghttp2 closed the stream.
  std::exception_ptr failure_ TERN_GUARDED_BY(mutex_);    // Why the stream failed, or null.
  bool canceled_ TERN_GUARDED_BY(mutex_) = false;         // closeLater(CANCEL) ran.

  Timeout readTimeout_;   // Set by the codec before use; used by the call's thread.
  Timeout writeTimeout_;  // Likewise.
  StreamSource source_{*this};
  StreamSink sink_{*this};
};

}  // namespace tern::internal
