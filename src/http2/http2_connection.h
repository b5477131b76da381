// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#pragma once

#include <chrono>
#include <cstdint>
#include <exception>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "concurrent/adaptive_mutex.h"
#include "concurrent/condition.h"
#include "concurrent/task_queue.h"
#include "concurrent/task_runner.h"
#include "concurrent/thread_annotations.h"
#include "http2/http2_stream.h"
#include "tern/sink.h"
#include "tern/source.h"

struct nghttp2_session;

namespace tern::internal {

// A client HTTP/2 connection (RFC 9113) over a connected socket's streams, as OkHttp's
// Http2Connection. nghttp2 does the framing, HPACK and flow-control bookkeeping; this class owns
// the threads, the streams, settings, pings and GOAWAY.
//
// Threads and locks (DESIGN.md, Threads):
//  - One reader thread reads the socket (never holding the lock while it waits), feeds nghttp2
//    under the lock, and wakes the streams its frames concern.
//  - mutex_ guards the nghttp2 session and every stream's state; it is never held while the
//    socket is read or written. Output is written by one thread at a time: whoever finds nobody
//    writing takes nghttp2's pending frames under the lock and writes them without it, looping
//    until nothing is left; a thread that finds a writer at work leaves its frames to it. So the
//    reader never waits for a writer, and frames go out in nghttp2's order.
//  - Work that must not block its caller (RST_STREAM from Call::cancel(), pings) goes out on a
//    writer TaskQueue.
//  - The listener hears of settings and shutdown without the lock held.
class Http2Connection {
 public:
  // What the owner (RealConnection) learns. Called without the connection's lock, from the
  // reader thread or whichever thread noticed.
  class Listener {
   public:
    virtual ~Listener() = default;
    // The peer's SETTINGS now allow `maxConcurrentStreams` streams at once.
    virtual void onSettings(int maxConcurrentStreams) = 0;
    // The connection takes no new streams: GOAWAY went either way, or it failed or closed.
    virtual void onShutdown() = 0;
  };

  // The windows tern advertises for each stream and the connection (OkHttp's
  // OKHTTP_CLIENT_WINDOW_SIZE).
  static constexpr int32_t kClientWindowSize = 16 * 1024 * 1024;
  // The largest response header list accepted (SETTINGS_MAX_HEADER_LIST_SIZE): as HTTP/1.1's.
  static constexpr int64_t kMaxHeaderListSize = 256 * 1024;
  // How long a ping sent after a read timeout may wait for its pong before the connection is
  // considered degraded (not handed out again).
  static constexpr std::chrono::seconds kDegradedPongTimeout{1};

  // `source` and `sink` are the connected socket's streams (the sink's timeout bounds every
  // write); `breakSocket` makes a blocked read or write throw at once (Socket::cancel()). All must
  // outlive this connection. `peerName` ("example.com:443") goes in messages. `pingInterval`
  // zero sends no pings of its own.
  Http2Connection(Source& source, Sink& sink, std::function<void()> breakSocket, Listener& listener,
                  TaskRunner& taskRunner, std::string peerName,
                  std::chrono::milliseconds pingInterval);

  // close(), then frees the session.
  ~Http2Connection();
  Http2Connection(const Http2Connection&) = delete;
  Http2Connection& operator=(const Http2Connection&) = delete;

  // Sends the connection preface and SETTINGS (push disabled, 16 MiB initial window, 256 KiB
  // header lists), grows the connection window to 16 MiB, and starts the reader thread. Throws
  // IOException if that cannot be written.
  void start();

  // Opens a stream for a request with `headers` (pseudo-headers first, names lower-case); with
  // `hasRequestBody` false the HEADERS frame ends the stream. The frame is written before this
  // returns (with the connection's write timeout). Throws a copy of the connection's failure if
  // it failed, ConnectionShutdownException if it takes no new streams (shut down, or already at
  // the peer's MAX_CONCURRENT_STREAMS, which it may have lowered since the call was allocated
  // here).
  // If writing the frame fails, the stream is returned failed: its first write or read throws.
  std::shared_ptr<Http2Stream> newStream(const HeaderBlock& headers, bool hasRequestBody);

  // False once the connection is shut down or failed, or when a ping sent after a read timeout
  // went unanswered for kDegradedPongTimeout (OkHttp's isHealthy()).
  bool isHealthy();

  // True once the connection takes no new streams.
  bool isShutdown();

  // Why the connection failed (a copy of the reader's or writer's exception), or null.
  std::exception_ptr failure();

  // The peer's SETTINGS_MAX_CONCURRENT_STREAMS (INT32_MAX until it says).
  int maxConcurrentStreams();

  // Streams open now.
  int openStreamCount();

  // Waits for the peer's first SETTINGS frame, at most `timeout` (zero: no limit). Returns true
  // once they came; false if they did not in time or the connection failed first.
  bool awaitPeerSettings(std::chrono::milliseconds timeout);

  // True if the peer's SETTINGS so far allow extended CONNECT (SETTINGS_ENABLE_CONNECT_PROTOCOL
  // = 1, RFC 8441 §3): a stream may then carry another protocol, such as a WebSocket.
  bool peerAcceptsExtendedConnect();

  // Sends a ping unless one is already waiting, and counts the connection as degraded if its
  // pong is not back within kDegradedPongTimeout. A stream calls it after a read or write
  // timeout.
  void sendDegradedPingLater();

  // Sends a ping and waits for its pong, at most `timeout`. Returns true if it came. For tests.
  bool awaitPong(std::chrono::milliseconds timeout);

  // Sends GOAWAY(NO_ERROR) (best effort), fails the streams still open with
  // IOException("connection closed"), stops the reader thread and the writer queue. Idempotent.
  // Not from the reader thread.
  void close();

  const std::string& peerName() const noexcept { return peerName_; }

 private:
  friend class Http2Stream;
  friend struct Http2Callbacks;

  // Writes nghttp2's pending frames unless another thread is already doing so (see the class
  // comment). Throws the IOException of a failed write (after failing the connection).
  void flush();
  // flush() from the writer queue; a failure has already failed the connection.
  void flushLater();
  void readerLoop();
  // Feeds `data` to nghttp2. Lock held. Throws ProtocolException if the peer broke HTTP/2.
  void receiveLocked(const uint8_t* data, size_t length) TERN_REQUIRES(mutex_);
  // Fails the connection: every open stream gets `e`, no new streams, the socket is broken so
  // the reader wakes. Idempotent (the first failure wins).
  void failConnection(std::exception_ptr e);
  void failConnectionLocked(std::exception_ptr e) TERN_REQUIRES(mutex_);
  // Tells the listener what changed since last time, without the lock.
  void deliverEvents();
  void sendPingLocked(uint64_t payload) TERN_REQUIRES(mutex_);
  std::chrono::nanoseconds pingIntervalTask();
  // The stream with `id`, or null. Lock held.
  Http2Stream* streamLocked(int32_t id) TERN_REQUIRES(mutex_);
  // Counts `count` bytes of `stream` as read by the application (its flow-control window).
  // Returns true if nghttp2 now has a WINDOW_UPDATE to send. Lock held.
  bool consumeLocked(Http2Stream& stream, int64_t count) TERN_REQUIRES(mutex_);
  // sendDegradedPingLater() with the lock held; the caller flushes later.
  void sendDegradedPingLocked() TERN_REQUIRES(mutex_);
  // Resumes a deferred request body after new bytes or close(). Lock held.
  void resumeDataLocked(Http2Stream& stream) TERN_REQUIRES(mutex_);
  // Resets `stream` with `code` (queues RST_STREAM). Lock held.
  void resetStreamLocked(Http2Stream& stream, uint32_t code) TERN_REQUIRES(mutex_);
  // For a stream, which holds the lock under its own name: tells the analysis that `held` and
  // mutex_ are one lock. Checks it in debug builds.
  void assertLockIs(const Mutex& held) const TERN_REQUIRES(held) TERN_ASSERT_CAPABILITY(mutex_);
  // Frees the nghttp2 session. Lock held; session_ is null afterwards.
  void releaseSessionLocked() noexcept TERN_REQUIRES(mutex_);

  Source& source_;
  Sink& sink_;
  const std::function<void()> breakSocket_;
  Listener& listener_;
  const std::string peerName_;
  const std::chrono::milliseconds pingInterval_;
  std::unique_ptr<TaskQueue> writerQueue_;
  std::thread reader_;

  // Guards everything below and every stream's state. Every stream's thread and the reader take
  // it, each for a moment, so it spins before sleeping (docs/performance.md).
  AdaptiveMutex mutex_;
  nghttp2_session* session_ TERN_GUARDED_BY(mutex_) =
      nullptr;  // Owned; freed by releaseSessionLocked().
  std::map<int32_t, std::shared_ptr<Http2Stream>> streams_
      TERN_GUARDED_BY(mutex_);  // Open in the session.
  // While the reader feeds a batch of frames to nghttp2, the streams they concern are woken
  // once, after the lock is released: a stream thread woken while the reader still holds the
  // lock would only block on it again (two more context switches per response).
  bool deferWakeups_ TERN_GUARDED_BY(mutex_) = false;
  std::vector<std::shared_ptr<Http2Stream>> wakeups_ TERN_GUARDED_BY(mutex_);
  // When the reader last fed nghttp2 bytes from the peer (Http2Stream::awaitBodyEnd).
  std::chrono::steady_clock::time_point lastReceivedAt_ TERN_GUARDED_BY(mutex_){};
  bool writing_ TERN_GUARDED_BY(mutex_) = false;        // A thread is writing the session's output.
  Condition writerIdle_;                                // Notified when writing_ becomes false.
  bool shutdown_ TERN_GUARDED_BY(mutex_) = false;       // No new streams.
  bool closed_ TERN_GUARDED_BY(mutex_) = false;         // close() ran.
  std::exception_ptr failure_ TERN_GUARDED_BY(mutex_);  // Why the connection failed, or null.
  // The error code of the GOAWAY nghttp2 sent for a connection error of the peer: once it is
  // written, flush() fails the connection (nghttp2 reads nothing more).
  std::optional<uint32_t> goawayErrorSent_ TERN_GUARDED_BY(mutex_);
  std::string lastPeerError_
      TERN_GUARDED_BY(mutex_);  // nghttp2's last message about what the peer got wrong.
  // The peer's last GOAWAY: the streams above lastStreamId were refused (RFC 9113 §6.8).
  struct GoawayReceived {
    int32_t lastStreamId;
    uint32_t errorCode;
  };
  std::optional<GoawayReceived> goawayReceived_ TERN_GUARDED_BY(mutex_);
  int maxConcurrentStreams_ TERN_GUARDED_BY(mutex_) = INT32_MAX;
  bool peerSettingsReceived_ TERN_GUARDED_BY(mutex_) = false;  // Its first SETTINGS came.
  bool peerExtendedConnect_ TERN_GUARDED_BY(mutex_) = false;   // SETTINGS_ENABLE_CONNECT_PROTOCOL.
  Condition peerSettingsChanged_;                              // Notified by SETTINGS and failure.
  // Events for the listener, delivered by deliverEvents().
  bool settingsChanged_ TERN_GUARDED_BY(mutex_) = false;
  bool shutdownToReport_ TERN_GUARDED_BY(mutex_) = false;
  // Pings (OkHttp's counters): the interval ping, and the ping after a read timeout.
  int64_t intervalPingsSent_ TERN_GUARDED_BY(mutex_) = 0;
  int64_t intervalPongsReceived_ TERN_GUARDED_BY(mutex_) = 0;
  int64_t degradedPingsSent_ TERN_GUARDED_BY(mutex_) = 0;
  int64_t degradedPongsReceived_ TERN_GUARDED_BY(mutex_) = 0;
  std::chrono::steady_clock::time_point degradedPongDeadline_ TERN_GUARDED_BY(mutex_);
  int64_t awaitPingsSent_ TERN_GUARDED_BY(mutex_) = 0;
  int64_t awaitPongsReceived_ TERN_GUARDED_BY(mutex_) = 0;
  Condition pongReceived_;
};

}  // namespace tern::internal
