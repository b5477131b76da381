// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#include "http2/http2_stream.h"

#include <algorithm>
#include <cassert>
#include <span>
#include <stdexcept>
#include <string>

#include "http/interim_responses.h"
#include "http2/http2_connection.h"
#include "net/socket.h"

namespace tern::internal {

Http2Stream::Http2Stream(Http2Connection& connection, int32_t id, bool hasRequestBody)
    : connection_(connection), mutex_(connection.mutex_), id_(id), sendClosed_(!hasRequestBody) {}

void Http2Stream::assertLockIs(const Mutex& held) const {
  assert(&held == &mutex_);
  (void)held;
}

HeaderBlock Http2Stream::takeHeaders() {
  MutexLock lock(mutex_);
  while (headerBlocks_.empty()) {
    if (failure_) std::rethrow_exception(copyOf(failure_));
    waitLocked(lock, readTimeout_);
  }
  HeaderBlock result = std::move(headerBlocks_.front());
  headerBlocks_.pop_front();
  return result;
}

void Http2Stream::awaitBodyEnd(std::chrono::steady_clock::duration quiet,
                               std::chrono::steady_clock::duration longest) {
  const auto start = std::chrono::steady_clock::now();
  const auto limit = start + longest;
  auto until = std::min(start + quiet, limit);
  MutexLock lock(mutex_);
  while (!finished_ && !failure_ && !sourceClosed_) {
    if (changed_.wait_until(lock.native(), until) != std::cv_status::timeout) continue;
    // A burst of responses (an nghttp2 server sends every stream's HEADERS before any DATA) can
    // put this body far behind its headers: wait on while the connection is still receiving.
    connection_.assertLockIs(mutex_);
    const auto next = std::min(connection_.lastReceivedAt_ + quiet, limit);
    if (next <= until) return;
    until = next;
  }
}

HeaderBlock Http2Stream::trailers() {
  MutexLock lock(mutex_);
  if (!sourceExhausted_) {
    throw std::logic_error("Http2Stream: trailers before the response body was read to its end");
  }
  return trailers_ ? *trailers_ : HeaderBlock();
}

bool Http2Stream::isSourceExhausted() {
  MutexLock lock(mutex_);
  return sourceExhausted_;
}

void Http2Stream::closeLater(ErrorCode code) {
  {
    MutexLock lock(mutex_);
    if (closedInSession_ || (finished_ && sendClosed_)) return;  // Nothing left to stop.
    if (code == ErrorCode::CANCEL) {
      if (canceled_) return;
      canceled_ = true;
      // A local cancel wins over any other failure: the caller asked for it.
      failure_ = std::make_exception_ptr(InterruptedIOException("Canceled"));
    } else if (!failure_) {
      failure_ = std::make_exception_ptr(streamResetException(static_cast<uint32_t>(code)));
    }
    connection_.assertLockIs(mutex_);
    connection_.resetStreamLocked(*this, static_cast<uint32_t>(code));
    changed_.notify_all();
  }
  connection_.flushLater();
}

void Http2Stream::waitLocked(MutexLock& lock, Timeout& timeout) {
  try {
    // On a fiber (an enqueued call) this parks, holding no thread (concurrent/condition.h).
    const std::optional<Timeout::Clock::time_point> until = timeout.waitDeadline();
    if (!until) {
      changed_.wait(lock.native());
    } else if (changed_.wait_until(lock.native(), *until) == std::cv_status::timeout) {
      throw SocketTimeoutException("timeout");
    }
  } catch (const SocketTimeoutException&) {
    // As OkHttp: the stream is abandoned (RST_STREAM CANCEL), and the connection pings itself,
    // since a silent peer (no data, or no WINDOW_UPDATE for a writer) may mean a dead connection.
    if (!failure_) {
      failure_ =
          std::make_exception_ptr(streamResetException(static_cast<uint32_t>(ErrorCode::CANCEL)));
    }
    connection_.assertLockIs(mutex_);
    connection_.resetStreamLocked(*this, static_cast<uint32_t>(ErrorCode::CANCEL));
    connection_.sendDegradedPingLocked();
    lock.unlock();
    connection_.flushLater();
    // OkHttp says only "timeout"; this names the wait and the peer, as an HTTP/1.1 socket does.
    throw timeoutException(
        &timeout == &writeTimeout_ ? "Write" : "Read", timeout.timeoutNanos(),
        "HTTP/2 stream " + std::to_string(id_) + " to " + connection_.peerName());
  }
}

// Reader side ---------------------------------------------------------------------------------

void Http2Stream::signalLocked() {
  connection_.assertLockIs(mutex_);
  if (!connection_.deferWakeups_) {
    changed_.notify_all();
  } else if (!wakeupPending_) {
    wakeupPending_ = true;
    connection_.wakeups_.push_back(shared_from_this());
  }
}

void Http2Stream::beginHeadersLocked() {
  headersInProgress_.clear();
  headerListSize_ = 0;
}

bool Http2Stream::addHeaderLocked(std::string name, std::string value) {
  if (headersRefused_) return false;
  if (!finalHeadersReceived_ && name == ":status" && value.starts_with('1') &&
      interimResponses_ == kMaxInterimResponses) {
    return refuseHeadersLocked(tooManyInterimResponses(connection_.peerName() +
                                                       " on HTTP/2 stream " + std::to_string(id_)));
  }
  headerListSize_ += static_cast<int64_t>(name.size() + value.size()) + 32;
  // The interim blocks before this one count too: a flood of small 1xx blocks (or of blocks that
  // HPACK's dynamic table makes large) would otherwise stay each under the limit.
  if (interimHeaderBytes_ + headerListSize_ > Http2Connection::kMaxHeaderListSize) {
    return refuseHeadersLocked(
        "HTTP/2 header list from " + connection_.peerName() + " on stream " + std::to_string(id_) +
        " exceeds " + std::to_string(Http2Connection::kMaxHeaderListSize) + " bytes" +
        (interimResponses_ > 0
             ? " (with its " + std::to_string(interimResponses_) + " interim responses)"
             : ""));
  }
  headersInProgress_.emplace_back(std::move(name), std::move(value));
  return true;
}

bool Http2Stream::refuseHeadersLocked(const std::string& message) {
  headersRefused_ = true;
  headersInProgress_.clear();
  failLocked(std::make_exception_ptr(ProtocolException(message)));
  return false;
}

void Http2Stream::endHeadersLocked(bool endStream) {
  if (headersRefused_) return;
  if (finalHeadersReceived_) {
    trailers_ = std::move(headersInProgress_);  // RFC 9113 §8.1: a trailer section ends the stream.
  } else {
    bool interim = false;
    for (const auto& [name, value] : headersInProgress_) {
      if (name == ":status") interim = value.size() == 3 && value[0] == '1';
    }
    finalHeadersReceived_ = !interim;
    if (interim) {
      ++interimResponses_;
      interimHeaderBytes_ += headerListSize_;
    }
    headerBlocks_.push_back(std::move(headersInProgress_));
  }
  headersInProgress_.clear();
  if (endStream) finished_ = true;
  signalLocked();
}

void Http2Stream::receiveDataLocked(const uint8_t* data, size_t length) {
  if (sourceClosed_ || canceled_) return;  // Nobody will read it; the stream is being reset.
  readBuffer_.write(data, length);
  signalLocked();
}

void Http2Stream::receiveEndStreamLocked() {
  finished_ = true;
  signalLocked();
}

void Http2Stream::closedLocked(uint32_t errorCode) {
  closedInSession_ = true;
  sendBuffer_.clear();
  if (!finished_ || errorCode != 0) {
    // Reset by either side (RFC 9113 §6.4), refused by GOAWAY (nghttp2 reports REFUSED_STREAM
    // for streams above the last stream id), or closed before the response ended.
    failLocked(std::make_exception_ptr(streamResetException(errorCode)));
  } else if (!sendClosed_) {
    // RFC 9113 §8.1: after a complete response, RST_STREAM(NO_ERROR) asks the client to stop
    // sending without error (a server that did not want the rest of a body, a tunnel's end).
    sendAborted_ = true;
  }
  signalLocked();
}

void Http2Stream::failLocked(std::exception_ptr e) {
  if (!failure_) failure_ = copyOf(e);  // This stream's own copy (see copyOf()).
  signalLocked();
}

int64_t Http2Stream::readRequestBodyLocked(uint8_t* out, size_t length, bool& eof) {
  if (sendBuffer_.size() == 0) {
    if (sendClosed_) {
      eof = true;
      return 0;
    }
    sendDeferred_ = true;
    return -1;
  }
  size_t count = std::min(length, static_cast<size_t>(sendBuffer_.size()));
  sendBuffer_.readFully(std::span<std::byte>(reinterpret_cast<std::byte*>(out), count));
  eof = sendBuffer_.size() == 0 && sendClosed_;
  changed_.notify_all();  // Room for a blocked writer.
  return static_cast<int64_t>(count);
}

// Source ---------------------------------------------------------------------------------------

int64_t Http2Stream::StreamSource::read(Buffer& sink, int64_t byteCount) {
  if (byteCount < 0) {
    throw std::invalid_argument("read: byteCount < 0: " + std::to_string(byteCount));
  }
  Http2Stream& s = stream_;
  MutexLock lock(s.mutex_);
  if (s.sourceClosed_) throw std::logic_error("Http2Stream: source closed");
  while (true) {
    if (s.canceled_) std::rethrow_exception(copyOf(s.failure_));
    if (s.readBuffer_.size() > 0) {
      int64_t count = std::min(byteCount, s.readBuffer_.size());
      sink.write(s.readBuffer_, count);
      // What the application read frees the stream's window (the connection's was freed on
      // arrival); nghttp2 sends WINDOW_UPDATE once half of it is consumed.
      s.connection_.assertLockIs(s.mutex_);
      bool update = s.connection_.consumeLocked(s, count);
      lock.unlock();
      if (update) s.connection_.flushLater();
      return count;
    }
    if (s.finished_) {
      s.sourceExhausted_ = true;
      return -1;
    }
    if (s.failure_) std::rethrow_exception(copyOf(s.failure_));
    s.waitLocked(lock, s.readTimeout_);
  }
}

void Http2Stream::StreamSource::close() {
  Http2Stream& s = stream_;
  {
    MutexLock lock(s.mutex_);
    if (s.sourceClosed_) return;
    s.sourceClosed_ = true;
    s.readBuffer_.clear();
    // Abandoning the response: tell the peer to stop sending it (OkHttp's
    // cancelStreamIfNecessary). A duplex request still being written keeps the stream open.
    if (s.finished_ || s.closedInSession_ || !s.sendClosed_) return;
    if (!s.failure_) s.failure_ = std::make_exception_ptr(streamResetException(8));
    s.connection_.assertLockIs(s.mutex_);
    s.connection_.resetStreamLocked(s, static_cast<uint32_t>(ErrorCode::CANCEL));
    s.changed_.notify_all();
  }
  s.connection_.flushLater();
}

// Sink -----------------------------------------------------------------------------------------

void Http2Stream::StreamSink::write(Buffer& source, int64_t byteCount) {
  if (byteCount < 0 || byteCount > source.size()) {
    throw std::invalid_argument("write: byteCount " + std::to_string(byteCount) + " out of range");
  }
  Http2Stream& s = stream_;
  while (byteCount > 0) {
    {
      MutexLock lock(s.mutex_);
      while (true) {
        if (s.sendClosed_) throw std::logic_error("Http2Stream: sink closed");
        if (s.failure_) std::rethrow_exception(copyOf(s.failure_));
        if (s.sendAborted_) {
          source.skip(byteCount);  // The peer asked for no more (see sendAborted_).
          return;
        }
        if (s.sendBuffer_.size() < kMaxBufferedRequestBytes) break;
        s.waitLocked(lock, s.writeTimeout_);
      }
      int64_t count = std::min(byteCount, kMaxBufferedRequestBytes - s.sendBuffer_.size());
      s.sendBuffer_.write(source, count);
      byteCount -= count;
      s.connection_.assertLockIs(s.mutex_);
      s.connection_.resumeDataLocked(s);
    }
    s.connection_.flush();
  }
}

void Http2Stream::StreamSink::flush() {
  {
    MutexLock lock(stream_.mutex_);
    if (stream_.failure_) std::rethrow_exception(copyOf(stream_.failure_));
  }
  stream_.connection_.flush();
}

void Http2Stream::StreamSink::close() {
  Http2Stream& s = stream_;
  {
    MutexLock lock(s.mutex_);
    if (s.sendClosed_) return;
    s.sendClosed_ = true;
    if (s.closedInSession_) return;  // Reset already; nothing more to send.
    if (s.failure_ && s.canceled_) std::rethrow_exception(copyOf(s.failure_));
    s.connection_.assertLockIs(s.mutex_);
    s.connection_.resumeDataLocked(s);
  }
  s.connection_.flush();
  // Nobody reads the rest of the response any more (source() was closed while this duplex
  // half was open, as a WebSocket's reader does): once END_STREAM is out, stop the peer too,
  // or the stream would stay open until the peer chose to end it.
  {
    MutexLock lock(s.mutex_);
    if (!s.sourceClosed_ || s.finished_ || s.closedInSession_) return;
    if (!s.failure_) s.failure_ = std::make_exception_ptr(streamResetException(8));
    s.connection_.assertLockIs(s.mutex_);
    s.connection_.resetStreamLocked(s, static_cast<uint32_t>(ErrorCode::CANCEL));
    s.changed_.notify_all();
  }
  s.connection_.flushLater();
}

}  // namespace tern::internal
