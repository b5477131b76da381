// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#include "http2/http2_connection.h"

#include <pthread.h>

#include <nghttp2/nghttp2.h>
#include <cassert>

#include <algorithm>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "concurrent/adaptive_mutex.h"
#include "http/connection_shutdown_exception.h"
#include "http2/error_code.h"

namespace tern::internal {
namespace {

// Ping payloads, so each pong is matched to why its ping went out (OkHttp's INTERVAL_PING,
// DEGRADED_PING and AWAIT_PING).
constexpr uint64_t kIntervalPing = 1;
constexpr uint64_t kDegradedPing = 2;
constexpr uint64_t kAwaitPing = 3;

// How many bytes of output one write gathers at most.
constexpr int64_t kMaxWriteBatch = 256 * 1024;

uint64_t pingPayload(const uint8_t* data) {
  uint64_t result = 0;
  for (int i = 0; i < 8; ++i) result = (result << 8) | data[i];
  return result;
}

}  // namespace

// nghttp2's callbacks. nghttp2 calls them from nghttp2_session_mem_recv() and _mem_send(), which
// run only under the connection's lock. The analysis cannot follow a lock through a C library's
// callback, so each is TERN_NO_THREAD_SAFETY_ANALYSIS: the one place in http2 that is unchecked.
struct Http2Callbacks {
  static Http2Connection& self(void* userData) { return *static_cast<Http2Connection*>(userData); }

  static int onBeginHeaders(nghttp2_session*, const nghttp2_frame* frame,
                            void* userData) TERN_NO_THREAD_SAFETY_ANALYSIS {
    if (frame->hd.type != NGHTTP2_HEADERS) return 0;
    if (Http2Stream* stream = self(userData).streamLocked(frame->hd.stream_id)) {
      stream->beginHeadersLocked();
    }
    return 0;
  }

  static int onHeader(nghttp2_session*, const nghttp2_frame* frame, const uint8_t* name,
                      size_t nameLength, const uint8_t* value, size_t valueLength, uint8_t,
                      void* userData) TERN_NO_THREAD_SAFETY_ANALYSIS {
    if (frame->hd.type != NGHTTP2_HEADERS) return 0;
    Http2Stream* stream = self(userData).streamLocked(frame->hd.stream_id);
    if (!stream) return 0;
    bool accepted =
        stream->addHeaderLocked(std::string(reinterpret_cast<const char*>(name), nameLength),
                                std::string(reinterpret_cast<const char*>(value), valueLength));
    // Over the limit: nghttp2 resets the stream and skips the rest of the block.
    return accepted ? 0 : NGHTTP2_ERR_TEMPORAL_CALLBACK_FAILURE;
  }

  static int onFrameRecv(nghttp2_session* session, const nghttp2_frame* frame,
                         void* userData) TERN_NO_THREAD_SAFETY_ANALYSIS {
    Http2Connection& connection = self(userData);
    switch (frame->hd.type) {
      case NGHTTP2_HEADERS:
        if (Http2Stream* stream = connection.streamLocked(frame->hd.stream_id)) {
          stream->endHeadersLocked((frame->hd.flags & NGHTTP2_FLAG_END_STREAM) != 0);
        }
        break;
      case NGHTTP2_DATA:
        if (frame->hd.flags & NGHTTP2_FLAG_END_STREAM) {
          if (Http2Stream* stream = connection.streamLocked(frame->hd.stream_id)) {
            stream->receiveEndStreamLocked();
          }
        }
        break;
      case NGHTTP2_SETTINGS:
        if (!(frame->hd.flags & NGHTTP2_FLAG_ACK)) {
          uint32_t max =
              nghttp2_session_get_remote_settings(session, NGHTTP2_SETTINGS_MAX_CONCURRENT_STREAMS);
          connection.maxConcurrentStreams_ = static_cast<int>(std::min<uint32_t>(max, INT32_MAX));
          connection.settingsChanged_ = true;
          connection.peerSettingsReceived_ = true;
          connection.peerExtendedConnect_ =
              nghttp2_session_get_remote_settings(session,
                                                  NGHTTP2_SETTINGS_ENABLE_CONNECT_PROTOCOL) == 1;
          connection.peerSettingsChanged_.notify_all();
        }
        break;
      case NGHTTP2_GOAWAY:
        // nghttp2 closes the streams above last-stream-id with REFUSED_STREAM (RFC 9113 §6.8);
        // those below it finish normally. No new streams either way.
        if (!connection.shutdown_) {
          connection.shutdown_ = true;
          connection.shutdownToReport_ = true;
        }
        connection.goawayReceived_ =
            Http2Connection::GoawayReceived{frame->goaway.last_stream_id, frame->goaway.error_code};
        break;
      case NGHTTP2_PING:
        if (frame->hd.flags & NGHTTP2_FLAG_ACK) {
          switch (pingPayload(frame->ping.opaque_data)) {
            case kIntervalPing:
              ++connection.intervalPongsReceived_;
              break;
            case kDegradedPing:
              ++connection.degradedPongsReceived_;
              break;
            case kAwaitPing:
              ++connection.awaitPongsReceived_;
              connection.pongReceived_.notify_all();
              break;
            default:
              break;
          }
        }
        break;
      default:
        break;
    }
    return 0;
  }

  static int onDataChunkRecv(nghttp2_session* session, uint8_t, int32_t streamId,
                             const uint8_t* data, size_t length,
                             void* userData) TERN_NO_THREAD_SAFETY_ANALYSIS {
    // The connection window is freed at once: buffering is per stream (see Http2Stream).
    nghttp2_session_consume_connection(session, length);
    if (Http2Stream* stream = self(userData).streamLocked(streamId)) {
      stream->receiveDataLocked(data, length);
    }
    return 0;
  }

  static int onStreamClose(nghttp2_session*, int32_t streamId, uint32_t errorCode,
                           void* userData) TERN_NO_THREAD_SAFETY_ANALYSIS {
    Http2Connection& connection = self(userData);
    auto it = connection.streams_.find(streamId);
    if (it == connection.streams_.end()) return 0;
    if (errorCode == NGHTTP2_REFUSED_STREAM && connection.goawayReceived_ &&
        streamId > connection.goawayReceived_->lastStreamId) {
      // Refused by the peer's GOAWAY rather than by its RST_STREAM: say so, as the tool tells
      // the two apart (curl's exit codes 16 and 56).
      it->second->failLocked(std::make_exception_ptr(
          StreamResetException(errorCode, "stream was reset: REFUSED_STREAM (GOAWAY " +
                                              errorCodeName(connection.goawayReceived_->errorCode) +
                                              " received from " + connection.peerName_ + ")")));
    }
    it->second->closedLocked(errorCode);
    connection.streams_.erase(it);
    return 0;
  }

  static int onFrameSend(nghttp2_session*, const nghttp2_frame* frame,
                         void* userData) TERN_NO_THREAD_SAFETY_ANALYSIS {
    // A GOAWAY with an error is nghttp2's answer to a connection error of the peer (RFC 9113
    // §5.4.1); tern's own close() sends NO_ERROR.
    if (frame->hd.type == NGHTTP2_GOAWAY && frame->goaway.error_code != NGHTTP2_NO_ERROR) {
      self(userData).goawayErrorSent_ = frame->goaway.error_code;
    }
    return 0;
  }

  static int onError(nghttp2_session*, int, const char* message, size_t length,
                     void* userData) TERN_NO_THREAD_SAFETY_ANALYSIS {
    self(userData).lastPeerError_.assign(message, length);
    return 0;
  }

  static int onInvalidFrameRecv(nghttp2_session*, const nghttp2_frame* frame, int errorCode,
                                void* userData) TERN_NO_THREAD_SAFETY_ANALYSIS {
    static constexpr const char* kNames[] = {
        "DATA",         "HEADERS", "PRIORITY", "RST_STREAM",    "SETTINGS",
        "PUSH_PROMISE", "PING",    "GOAWAY",   "WINDOW_UPDATE", "CONTINUATION"};
    std::string type = frame->hd.type < std::size(kNames) ? kNames[frame->hd.type] : "frame";
    self(userData).lastPeerError_ = "invalid " + type + " on stream " +
                                    std::to_string(frame->hd.stream_id) + ": " +
                                    nghttp2_strerror(errorCode);
    return 0;
  }

  static int onFrameNotSend(nghttp2_session*, const nghttp2_frame* frame, int errorCode,
                            void* userData) TERN_NO_THREAD_SAFETY_ANALYSIS {
    Http2Connection& connection = self(userData);
    if (frame->hd.type != NGHTTP2_HEADERS) return 0;
    if (Http2Stream* stream = connection.streamLocked(frame->hd.stream_id)) {
      stream->failLocked(std::make_exception_ptr(IOException(
          "HTTP/2 request headers for stream " + std::to_string(frame->hd.stream_id) + " to " +
          connection.peerName_ + " not sent: " + nghttp2_strerror(errorCode))));
    }
    return 0;
  }

  static ssize_t readRequestBody(nghttp2_session*, int32_t streamId, uint8_t* buffer, size_t length,
                                 uint32_t* dataFlags, nghttp2_data_source*,
                                 void* userData) TERN_NO_THREAD_SAFETY_ANALYSIS {
    Http2Stream* stream = self(userData).streamLocked(streamId);
    if (!stream) return NGHTTP2_ERR_TEMPORAL_CALLBACK_FAILURE;
    bool eof = false;
    int64_t count = stream->readRequestBodyLocked(buffer, length, eof);
    if (count < 0) return NGHTTP2_ERR_DEFERRED;
    if (eof) *dataFlags |= NGHTTP2_DATA_FLAG_EOF;
    return static_cast<ssize_t>(count);
  }
};

Http2Connection::Http2Connection(Source& source, Sink& sink, std::function<void()> breakSocket,
                                 Listener& listener, TaskRunner& taskRunner, std::string peerName,
                                 std::chrono::milliseconds pingInterval)
    : source_(source),
      sink_(sink),
      breakSocket_(std::move(breakSocket)),
      listener_(listener),
      peerName_(std::move(peerName)),
      pingInterval_(pingInterval),
      writerQueue_(taskRunner.newQueue("tern Http2Connection writer " + peerName_)) {
  nghttp2_session_callbacks* callbacks = nullptr;
  nghttp2_option* option = nullptr;
  if (nghttp2_session_callbacks_new(&callbacks) != 0 || nghttp2_option_new(&option) != 0) {
    nghttp2_session_callbacks_del(callbacks);
    throw std::bad_alloc();
  }
  nghttp2_session_callbacks_set_on_begin_headers_callback(callbacks,
                                                          &Http2Callbacks::onBeginHeaders);
  nghttp2_session_callbacks_set_on_header_callback(callbacks, &Http2Callbacks::onHeader);
  nghttp2_session_callbacks_set_on_frame_recv_callback(callbacks, &Http2Callbacks::onFrameRecv);
  nghttp2_session_callbacks_set_on_data_chunk_recv_callback(callbacks,
                                                            &Http2Callbacks::onDataChunkRecv);
  nghttp2_session_callbacks_set_on_stream_close_callback(callbacks, &Http2Callbacks::onStreamClose);
  nghttp2_session_callbacks_set_on_frame_not_send_callback(callbacks,
                                                           &Http2Callbacks::onFrameNotSend);
  nghttp2_session_callbacks_set_on_frame_send_callback(callbacks, &Http2Callbacks::onFrameSend);
  nghttp2_session_callbacks_set_error_callback2(callbacks, &Http2Callbacks::onError);
  nghttp2_session_callbacks_set_on_invalid_frame_recv_callback(callbacks,
                                                               &Http2Callbacks::onInvalidFrameRecv);
  // Windows are updated as the application reads, not as frames arrive (see Http2Stream).
  nghttp2_option_set_no_auto_window_update(option, 1);
  // Request header blocks may be as large as the response header lists we accept.
  nghttp2_option_set_max_send_header_block_length(option, kMaxHeaderListSize + 1024);
  int result = nghttp2_session_client_new2(&session_, callbacks, this, option);
  nghttp2_session_callbacks_del(callbacks);
  nghttp2_option_del(option);
  if (result != 0) throw std::bad_alloc();
}

Http2Connection::~Http2Connection() {
  close();
  writerQueue_.reset();  // Waits for a running task; none can start any more.
  MutexLock lock(mutex_);
  releaseSessionLocked();
}

void Http2Connection::releaseSessionLocked() noexcept {
  if (session_) nghttp2_session_del(session_);
  session_ = nullptr;
}

void Http2Connection::start() {
  {
    MutexLock lock(mutex_);
    // RFC 9113 §6.5.2. Push is refused (ENABLE_PUSH 0), so a PUSH_PROMISE is a connection error.
    nghttp2_settings_entry settings[] = {
        {NGHTTP2_SETTINGS_ENABLE_PUSH, 0},
        {NGHTTP2_SETTINGS_INITIAL_WINDOW_SIZE, static_cast<uint32_t>(kClientWindowSize)},
        {NGHTTP2_SETTINGS_MAX_HEADER_LIST_SIZE, static_cast<uint32_t>(kMaxHeaderListSize)},
    };
    nghttp2_submit_settings(session_, NGHTTP2_FLAG_NONE, settings, std::size(settings));
    // The connection window starts at 65,535 whatever SETTINGS say (§6.9.2): grow it.
    nghttp2_session_set_local_window_size(session_, NGHTTP2_FLAG_NONE, 0, kClientWindowSize);
  }
  flush();  // The preface (nghttp2 adds it), SETTINGS and WINDOW_UPDATE.
  reader_ = std::thread(&Http2Connection::readerLoop, this);
  if (pingInterval_ > std::chrono::milliseconds(0)) {
    writerQueue_->schedule("ping " + peerName_, pingInterval_,
                           [this] { return pingIntervalTask(); });
  }
}

std::shared_ptr<Http2Stream> Http2Connection::newStream(const HeaderBlock& headers,
                                                        bool hasRequestBody) {
  std::shared_ptr<Http2Stream> stream;
  {
    MutexLock lock(mutex_);
    // A failed connection says why (a TLS alert, a reset): a copy, as each stream's failure is.
    if (failure_) std::rethrow_exception(copyOf(failure_));
    if (shutdown_ || !session_) {
      throw ConnectionShutdownException("HTTP/2 connection to " + peerName_ + " is shut down");
    }
    if (static_cast<int>(streams_.size()) >= maxConcurrentStreams_) {
      // The peer lowered its limit after this call was allocated here (RFC 9113 §5.1.2).
      throw ConnectionShutdownException("HTTP/2 connection to " + peerName_ +
                                            " is at its limit of " +
                                            std::to_string(maxConcurrentStreams_) + " streams",
                                        true);
    }
    std::vector<nghttp2_nv> nva;
    nva.reserve(headers.size());
    for (const auto& [name, value] : headers) {
      nva.push_back({reinterpret_cast<uint8_t*>(const_cast<char*>(name.data())),
                     reinterpret_cast<uint8_t*>(const_cast<char*>(value.data())), name.size(),
                     value.size(), NGHTTP2_NV_FLAG_NONE});
    }
    nghttp2_data_provider provider{};
    provider.read_callback = &Http2Callbacks::readRequestBody;
    int32_t id = nghttp2_submit_request(session_, nullptr, nva.data(), nva.size(),
                                        hasRequestBody ? &provider : nullptr, nullptr);
    if (id < 0) {
      if (id == NGHTTP2_ERR_STREAM_ID_NOT_AVAILABLE) {
        shutdown_ = true;
        shutdownToReport_ = true;
      }
      throw ConnectionShutdownException("HTTP/2 connection to " + peerName_ +
                                        " cannot open a stream: " + nghttp2_strerror(id));
    }
    stream = std::make_shared<Http2Stream>(*this, id, hasRequestBody);
    streams_[id] = stream;
  }
  deliverEvents();
  try {
    flush();
  } catch (const IOException&) {
    // The write failed the connection and with it this stream, which now holds the failure:
    // the caller hears it from the stream, as it would from any later write or read.
  }
  return stream;
}

bool Http2Connection::isHealthy() {
  MutexLock lock(mutex_);
  if (shutdown_ || failure_) return false;
  // A ping after a read timeout that is still unanswered after a second: degraded.
  return !(degradedPongsReceived_ < degradedPingsSent_ &&
           std::chrono::steady_clock::now() >= degradedPongDeadline_);
}

std::exception_ptr Http2Connection::failure() {
  MutexLock lock(mutex_);
  return failure_ ? copyOf(failure_) : nullptr;
}

bool Http2Connection::isShutdown() {
  MutexLock lock(mutex_);
  return shutdown_ || failure_;
}

int Http2Connection::maxConcurrentStreams() {
  MutexLock lock(mutex_);
  return maxConcurrentStreams_;
}

int Http2Connection::openStreamCount() {
  MutexLock lock(mutex_);
  return static_cast<int>(streams_.size());
}

void Http2Connection::sendDegradedPingLater() {
  {
    MutexLock lock(mutex_);
    sendDegradedPingLocked();
  }
  flushLater();
}

void Http2Connection::sendDegradedPingLocked() {
  if (failure_ || degradedPongsReceived_ < degradedPingsSent_) return;  // One at a time.
  ++degradedPingsSent_;
  degradedPongDeadline_ = std::chrono::steady_clock::now() + kDegradedPongTimeout;
  sendPingLocked(kDegradedPing);
}

bool Http2Connection::awaitPeerSettings(std::chrono::milliseconds timeout) {
  MutexLock lock(mutex_);
  auto done = [&]() TERN_REQUIRES(mutex_) { return peerSettingsReceived_ || failure_; };
  if (timeout.count() == 0) {
    peerSettingsChanged_.wait(lock.native(), done);
  } else {
    peerSettingsChanged_.wait_for(lock.native(), timeout, done);
  }
  return peerSettingsReceived_ && !failure_;
}

bool Http2Connection::peerAcceptsExtendedConnect() {
  MutexLock lock(mutex_);
  return peerExtendedConnect_ && !failure_;
}

bool Http2Connection::awaitPong(std::chrono::milliseconds timeout) {
  int64_t target;
  {
    MutexLock lock(mutex_);
    if (failure_) return false;
    target = ++awaitPingsSent_;
    sendPingLocked(kAwaitPing);
  }
  flush();
  MutexLock lock(mutex_);
  return pongReceived_.wait_for(lock.native(), timeout, [&]() TERN_REQUIRES(mutex_) {
    return awaitPongsReceived_ >= target || failure_;
  }) && !failure_;
}

void Http2Connection::sendPingLocked(uint64_t payload) {
  if (!session_ || failure_) return;
  uint8_t opaque[8];
  for (int i = 7; i >= 0; --i, payload >>= 8) opaque[i] = static_cast<uint8_t>(payload);
  nghttp2_submit_ping(session_, NGHTTP2_FLAG_NONE, opaque);
}

std::chrono::nanoseconds Http2Connection::pingIntervalTask() {
  bool failed = false;
  {
    MutexLock lock(mutex_);
    if (failure_) return Task::kNoRepeat;
    if (intervalPongsReceived_ < intervalPingsSent_) {
      // The last interval's ping is unanswered: the connection is dead (OkHttp fails it with
      // PROTOCOL_ERROR, and so its streams with "stream was reset: PROTOCOL_ERROR").
      failConnectionLocked(std::make_exception_ptr(
          streamResetException(static_cast<uint32_t>(ErrorCode::PROTOCOL_ERROR))));
      failed = true;
    } else {
      ++intervalPingsSent_;
      sendPingLocked(kIntervalPing);
    }
  }
  if (failed) {
    breakSocket_();
    deliverEvents();
    return Task::kNoRepeat;
  }
  try {
    flush();
  } catch (const IOException&) {
    return Task::kNoRepeat;  // flush() failed the connection; its streams hear of it.
  }
  return pingInterval_;
}

void Http2Connection::assertLockIs(const Mutex& held) const {
  assert(&held == &mutex_);
  (void)held;
}

Http2Stream* Http2Connection::streamLocked(int32_t id) {
  auto it = streams_.find(id);
  return it == streams_.end() ? nullptr : it->second.get();
}

bool Http2Connection::consumeLocked(Http2Stream& stream, int64_t count) {
  stream.assertLockIs(mutex_);
  if (!session_ || failure_ || stream.closedInSession_) return false;
  nghttp2_session_consume_stream(session_, stream.id_, static_cast<size_t>(count));
  return nghttp2_session_want_write(session_) != 0;
}

void Http2Connection::resumeDataLocked(Http2Stream& stream) {
  stream.assertLockIs(mutex_);
  if (!stream.sendDeferred_ || !session_ || failure_ || stream.closedInSession_) return;
  stream.sendDeferred_ = false;
  nghttp2_session_resume_data(session_, stream.id_);
}

void Http2Connection::resetStreamLocked(Http2Stream& stream, uint32_t code) {
  stream.assertLockIs(mutex_);
  if (!session_ || failure_ || stream.closedInSession_) return;
  nghttp2_submit_rst_stream(session_, NGHTTP2_FLAG_NONE, stream.id_, code);
}

void Http2Connection::flush() {
  MutexLock lock(mutex_);
  if (writing_) return;  // That thread writes our frames too, before it stops.
  writing_ = true;
  while (true) {
    Buffer out;
    if (session_ && !failure_) {
      while (out.size() < kMaxWriteBatch) {
        const uint8_t* data = nullptr;
        ssize_t count = nghttp2_session_mem_send(session_, &data);
        if (count < 0) {
          failConnectionLocked(std::make_exception_ptr(
              IOException("HTTP/2 session to " + peerName_ +
                          " failed: " + nghttp2_strerror(static_cast<int>(count)))));
          break;
        }
        if (count == 0) break;
        out.write(data, static_cast<size_t>(count));  // Valid only until the next call.
      }
    }
    if (out.size() == 0) {
      // Once nghttp2's GOAWAY for a peer's connection error is out, the session reads no more
      // frames: the streams would wait for responses that can never come. Fail them now.
      bool terminated = goawayErrorSent_ && !failure_;
      if (terminated) {
        std::string reason = lastPeerError_.empty() ? "" : ": " + lastPeerError_;
        failConnectionLocked(std::make_exception_ptr(
            ProtocolException("HTTP/2 protocol error from " + peerName_ + reason + " (GOAWAY " +
                              errorCodeName(*goawayErrorSent_) + " sent)")));
      }
      writing_ = false;
      writerIdle_.notify_all();
      if (terminated) {
        lock.unlock();
        breakSocket_();
        deliverEvents();
      }
      return;
    }
    lock.unlock();
    try {
      sink_.write(out, out.size());
      sink_.flush();
    } catch (const IOException&) {
      lock.lock();
      writing_ = false;
      writerIdle_.notify_all();
      failConnectionLocked(std::current_exception());
      lock.unlock();
      breakSocket_();
      deliverEvents();
      throw;
    }
    lock.lock();
  }
}

void Http2Connection::flushLater() {
  writerQueue_->execute("flush " + peerName_, std::chrono::nanoseconds(0), true, [this] {
    try {
      flush();
    } catch (const IOException&) {
      // flush() failed the connection; every stream has the failure to report.
    }
  });
}

void Http2Connection::readerLoop() {
  // Named, or it would carry its maker's name (a "tern Dispatcher" carrier's, say).
  ::pthread_setname_np(::pthread_self(), "tern H2 Reader");
  Buffer buffer;
  try {
    while (true) {
      if (source_.read(buffer, 64 * 1024) == -1) {
        throw IOException("unexpected end of stream on HTTP/2 connection to " + peerName_);
      }
      std::vector<std::shared_ptr<Http2Stream>> wake;
      std::exception_ptr protocolError;
      {
        MutexLock lock(mutex_);
        if (!session_ || failure_) return;
        lastReceivedAt_ = std::chrono::steady_clock::now();
        deferWakeups_ = true;
        try {
          while (buffer.size() > 0) {
            std::span<const std::byte> segment = buffer.readableSegment(0);
            receiveLocked(reinterpret_cast<const uint8_t*>(segment.data()), segment.size());
            buffer.skip(static_cast<int64_t>(segment.size()));
          }
        } catch (const IOException&) {
          protocolError = std::current_exception();
        }
        deferWakeups_ = false;
        wake.swap(wakeups_);
        for (const auto& stream : wake) {
          stream->assertLockIs(mutex_);
          stream->wakeupPending_ = false;
        }
      }
      for (const auto& stream : wake) stream->changed_.notify_all();
      if (protocolError) std::rethrow_exception(protocolError);
      deliverEvents();
      flush();
    }
  } catch (const IOException&) {
    failConnection(std::current_exception());
  }
  deliverEvents();
}

void Http2Connection::receiveLocked(const uint8_t* data, size_t length) {
  ssize_t result = nghttp2_session_mem_recv(session_, data, length);
  if (result < 0) {
    // The peer broke HTTP/2 (a bad frame, a PUSH_PROMISE after ENABLE_PUSH 0, a flood). nghttp2
    // has queued a GOAWAY; the reader's flush may still get it out before the socket breaks.
    throw ProtocolException("HTTP/2 protocol error from " + peerName_ + ": " +
                            nghttp2_strerror(static_cast<int>(result)));
  }
}

void Http2Connection::failConnection(std::exception_ptr e) {
  {
    MutexLock lock(mutex_);
    failConnectionLocked(std::move(e));
  }
  breakSocket_();
}

void Http2Connection::failConnectionLocked(std::exception_ptr e) {
  if (failure_) return;
  failure_ = copyOf(e);  // Not the object a failed writer is throwing (see copyOf()).
  if (!shutdown_) shutdownToReport_ = true;
  shutdown_ = true;
  for (auto& [id, stream] : streams_) {
    stream->assertLockIs(mutex_);
    stream->failLocked(failure_);
  }
  streams_.clear();
  pongReceived_.notify_all();
  peerSettingsChanged_.notify_all();
}

void Http2Connection::deliverEvents() {
  bool settings;
  bool shutdown;
  int maxConcurrentStreams;
  {
    MutexLock lock(mutex_);
    if (closed_) return;  // The owner is closing us; it needs no news.
    settings = std::exchange(settingsChanged_, false);
    shutdown = std::exchange(shutdownToReport_, false);
    maxConcurrentStreams = maxConcurrentStreams_;
  }
  if (settings) listener_.onSettings(maxConcurrentStreams);
  if (shutdown) listener_.onShutdown();
}

void Http2Connection::close() {
  {
    MutexLock lock(mutex_);
    if (closed_) return;
    closed_ = true;
    if (session_ && !failure_) {
      nghttp2_session_terminate_session(session_, NGHTTP2_NO_ERROR);  // GOAWAY (§6.8).
      shutdown_ = true;
    }
  }
  if (reader_.joinable()) {
    try {
      flush();
    } catch (const IOException&) {
      // The connection is going away anyway; the GOAWAY was a courtesy.
    }
  }
  failConnection(
      std::make_exception_ptr(IOException("HTTP/2 connection to " + peerName_ + " closed")));
  writerQueue_->shutdown();
  if (reader_.joinable()) reader_.join();
  // The owner closes the socket next: no write may still be in progress then. None starts
  // after the failure above, and one under way fails fast on the broken socket.
  MutexLock lock(mutex_);
  writerIdle_.wait(lock.native(), [this]() TERN_REQUIRES(mutex_) { return !writing_; });
}

}  // namespace tern::internal
