// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#include "http3/http3_stream.h"

#include <nghttp3/nghttp3.h>

#include <algorithm>
#include <cassert>
#include <stdexcept>
#include <string>

#include "http/exception_copy.h"
#include "http/interim_responses.h"
#include "http3/http3_connection.h"
#include "net/socket.h"

namespace tern::internal {
namespace {

// The request body is kept in chunks of at most this many bytes: nghttp3 sends from them and
// they go when acknowledged.
constexpr int64_t kSendChunkBytes = 16 * 1024;

// How many response bytes the application reads before the reader is woken to announce the
// freed window (MAX_STREAM_DATA). The reader writes after every datagram batch anyway; this only
// matters for a stream whose window ran out while nothing else arrives.
constexpr uint64_t kCreditAnnouncement = 256 * 1024;

constexpr uint64_t kRequestCancelled = static_cast<uint64_t>(Http3ErrorCode::H3_REQUEST_CANCELLED);

}  // namespace

Http3Stream::Http3Stream(Http3Connection& connection, int64_t id, bool hasRequestBody)
    : connection_(connection), mutex_(connection.mutex_), id_(id), sendClosed_(!hasRequestBody) {}

void Http3Stream::assertLockIs(const Mutex& held) const {
  assert(&held == &mutex_);
  (void)held;
}

HeaderBlock Http3Stream::takeHeaders() {
  MutexLock lock(mutex_);
  while (headerBlocks_.empty()) {
    if (failure_) std::rethrow_exception(copyOf(failure_));
    if (finished_) {
      throw ProtocolException("HTTP/3 stream " + std::to_string(id_) + " to " +
                              connection_.peerName() + " ended without a response");
    }
    waitLocked(lock, readTimeout_);
  }
  HeaderBlock result = std::move(headerBlocks_.front());
  headerBlocks_.pop_front();
  return result;
}

HeaderBlock Http3Stream::trailers() {
  MutexLock lock(mutex_);
  if (!sourceExhausted_) {
    throw std::logic_error("Http3Stream: trailers before the response body was read to its end");
  }
  return trailers_ ? *trailers_ : HeaderBlock();
}

bool Http3Stream::isSourceExhausted() {
  MutexLock lock(mutex_);
  return sourceExhausted_;
}

void Http3Stream::closeLater(Http3ErrorCode code) {
  {
    MutexLock lock(mutex_);
    if (closedInSession_ || (finished_ && sendClosed_ && sendChunks_.empty())) return;
    if (code == Http3ErrorCode::H3_REQUEST_CANCELLED) {
      if (canceled_) return;
      canceled_ = true;
      // A local cancel wins over any other failure: the caller asked for it.
      failure_ = std::make_exception_ptr(InterruptedIOException("Canceled"));
    } else if (!failure_) {
      failure_ = std::make_exception_ptr(http3StreamResetException(static_cast<uint64_t>(code)));
    }
    connection_.assertLockIs(mutex_);
    connection_.resetStreamLocked(*this, static_cast<uint64_t>(code));
    changed_.notify_all();
  }
  connection_.wakeReader();
}

void Http3Stream::abandonLocked(std::exception_ptr e) {
  if (!failure_) failure_ = std::move(e);
  connection_.assertLockIs(mutex_);
  connection_.resetStreamLocked(*this, kRequestCancelled);
  changed_.notify_all();
}

void Http3Stream::waitLocked(MutexLock& lock, Timeout& timeout) {
  // On a fiber (an enqueued call) this parks, holding no thread (concurrent/condition.h).
  const std::optional<Timeout::Clock::time_point> until = timeout.waitDeadline();
  if (!until) {
    changed_.wait(lock.native());
    return;
  }
  if (changed_.wait_until(lock.native(), *until) != std::cv_status::timeout) return;
  // As HTTP/2: the stream is abandoned (RESET_STREAM and STOP_SENDING, H3_REQUEST_CANCELLED),
  // and the connection checks the peer is still there. The reset is ack-eliciting, so it serves
  // as HTTP/2's ping: a connection that hears nothing back takes no new calls (kDegradedTimeout),
  // rather than handing them to a peer that went silent until QUIC's 30 s idle timeout.
  connection_.assertLockIs(mutex_);
  connection_.streamTimedOutLocked();
  abandonLocked(std::make_exception_ptr(http3StreamResetException(kRequestCancelled)));
  connection_.wakeReader();  // Never blocks: fine under the lock.
  throw timeoutException(&timeout == &writeTimeout_ ? "Write" : "Read", timeout.timeoutNanos(),
                         "HTTP/3 stream " + std::to_string(id_) + " to " + connection_.peerName());
}

// Reader side ---------------------------------------------------------------------------------

void Http3Stream::signalLocked() {
  connection_.assertLockIs(mutex_);
  if (!connection_.deferWakeups_) {
    changed_.notify_all();
  } else if (!wakeupPending_) {
    wakeupPending_ = true;
    connection_.wakeups_.push_back(shared_from_this());
  }
}

void Http3Stream::beginHeadersLocked() {
  headersInProgress_.clear();
  headerListSize_ = 0;
}

bool Http3Stream::addHeaderLocked(std::string name, std::string value) {
  if (headersRefused_) return true;  // Already refused and reset; ignore the rest.
  if (!finalHeadersReceived_ && name == ":status" && value.starts_with('1') &&
      interimResponses_ == kMaxInterimResponses) {
    return refuseHeadersLocked(tooManyInterimResponses(connection_.peerName() +
                                                       " on HTTP/3 stream " + std::to_string(id_)));
  }
  headerListSize_ += static_cast<int64_t>(name.size() + value.size()) + 32;  // RFC 9114 §4.2.2.
  if (interimHeaderBytes_ + headerListSize_ > Http3Connection::kMaxHeaderListSize) {
    return refuseHeadersLocked(
        "HTTP/3 header section from " + connection_.peerName() + " on stream " +
        std::to_string(id_) + " exceeds " + std::to_string(Http3Connection::kMaxHeaderListSize) +
        " bytes" +
        (interimResponses_ > 0
             ? " (with its " + std::to_string(interimResponses_) + " interim responses)"
             : ""));
  }
  headersInProgress_.emplace_back(std::move(name), std::move(value));
  return true;
}

bool Http3Stream::refuseHeadersLocked(const std::string& message) {
  headersRefused_ = true;
  headersInProgress_.clear();
  failLocked(std::make_exception_ptr(ProtocolException(message)));
  return false;
}

void Http3Stream::endHeadersLocked(bool trailers, bool endStream) {
  if (headersRefused_) return;
  if (trailers) {
    trailers_ = std::move(headersInProgress_);  // RFC 9114 §4.1: the trailer section.
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

bool Http3Stream::receiveDataLocked(const uint8_t* data, size_t length) {
  if (sourceClosed_ || canceled_) return false;  // Nobody will read it.
  readBuffer_.write(data, length);
  signalLocked();
  return true;
}

void Http3Stream::receiveEndStreamLocked() {
  finished_ = true;
  signalLocked();
}

void Http3Stream::resetByPeerLocked(uint64_t code) {
  // RESET_STREAM: the response will not be completed (RFC 9114 §4.1.1).
  if (!finished_) failLocked(std::make_exception_ptr(http3StreamResetException(code)));
  signalLocked();
}

void Http3Stream::stopSendingByPeerLocked(uint64_t code) {
  if (code == static_cast<uint64_t>(Http3ErrorCode::H3_NO_ERROR)) {
    // RFC 9114 §4.1: the server answered without the rest of the request body. Stop sending,
    // without error; the response stands.
    sendAborted_ = true;
  } else {
    failLocked(std::make_exception_ptr(http3StreamResetException(code)));
  }
  signalLocked();
}

void Http3Stream::closedLocked(uint64_t code) {
  closedInSession_ = true;
  sendChunks_.clear();
  sendHanded_ = 0;
  frontAcked_ = 0;
  sendBufferedBytes_ = 0;
  if (!finished_ || code != static_cast<uint64_t>(Http3ErrorCode::H3_NO_ERROR)) {
    // Reset by either side, or closed before the response ended.
    failLocked(std::make_exception_ptr(http3StreamResetException(code)));
  }
  signalLocked();
}

void Http3Stream::failLocked(std::exception_ptr e) {
  if (!failure_) failure_ = copyOf(e);  // This stream's own copy (see copyOf()).
  signalLocked();
}

int64_t Http3Stream::readRequestBodyLocked(nghttp3_vec* vec, size_t count, bool& eof) {
  size_t filled = 0;
  while (sendHanded_ < sendChunks_.size() && filled < count) {
    std::vector<uint8_t>& chunk = sendChunks_[sendHanded_++];
    vec[filled].base = chunk.data();  // Stays put until acknowledged (a deque keeps elements).
    vec[filled].len = chunk.size();
    ++filled;
  }
  if (filled == 0 && !sendClosed_ && !sendAborted_) {
    sendDeferred_ = true;
    return -1;
  }
  eof = (sendClosed_ || sendAborted_) && sendHanded_ == sendChunks_.size();
  return static_cast<int64_t>(filled);
}

void Http3Stream::ackRequestBodyLocked(uint64_t count) {
  while (count > 0 && !sendChunks_.empty() && sendHanded_ > 0) {
    std::vector<uint8_t>& front = sendChunks_.front();
    const uint64_t take = std::min<uint64_t>(front.size() - frontAcked_, count);
    frontAcked_ += take;
    count -= take;
    sendBufferedBytes_ -= static_cast<int64_t>(take);
    if (frontAcked_ == front.size()) {
      sendChunks_.pop_front();
      --sendHanded_;
      frontAcked_ = 0;
    }
  }
  signalLocked();  // Room for a blocked writer.
}

// Source ---------------------------------------------------------------------------------------

int64_t Http3Stream::StreamSource::read(Buffer& sink, int64_t byteCount) {
  if (byteCount < 0) {
    throw std::invalid_argument("read: byteCount < 0: " + std::to_string(byteCount));
  }
  Http3Stream& s = stream_;
  MutexLock lock(s.mutex_);
  if (s.sourceClosed_) throw std::logic_error("Http3Stream: source closed");
  while (true) {
    if (s.canceled_) std::rethrow_exception(copyOf(s.failure_));
    if (s.readBuffer_.size() > 0) {
      int64_t count = std::min(byteCount, s.readBuffer_.size());
      sink.write(s.readBuffer_, count);
      // What the application read frees the stream's window (the connection's was freed on
      // arrival).
      s.connection_.assertLockIs(s.mutex_);
      s.connection_.consumeLocked(s, static_cast<uint64_t>(count));
      s.unannouncedCredit_ += static_cast<uint64_t>(count);
      const bool announce = s.unannouncedCredit_ >= kCreditAnnouncement;
      if (announce) s.unannouncedCredit_ = 0;
      lock.unlock();
      if (announce) s.connection_.wakeReader();
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

void Http3Stream::StreamSource::close() {
  Http3Stream& s = stream_;
  {
    MutexLock lock(s.mutex_);
    if (s.sourceClosed_) return;
    s.sourceClosed_ = true;
    s.readBuffer_.clear();
    // Abandoning the response: tell the peer to stop sending it. A duplex request still being
    // written keeps the stream open.
    if (s.finished_ || s.closedInSession_ || !s.sendClosed_) return;
    s.abandonLocked(std::make_exception_ptr(http3StreamResetException(kRequestCancelled)));
  }
  s.connection_.wakeReader();
}

// Sink -----------------------------------------------------------------------------------------

void Http3Stream::StreamSink::write(Buffer& source, int64_t byteCount) {
  if (byteCount < 0 || byteCount > source.size()) {
    throw std::invalid_argument("write: byteCount " + std::to_string(byteCount) + " out of range");
  }
  Http3Stream& s = stream_;
  while (byteCount > 0) {
    {
      MutexLock lock(s.mutex_);
      while (true) {
        if (s.sendClosed_) throw std::logic_error("Http3Stream: sink closed");
        if (s.failure_) std::rethrow_exception(copyOf(s.failure_));
        // The peer asked for no more (see sendAborted_), or the stream closed without error
        // after a complete response: with ngtcp2 0.12 a peer's STOP_SENDING shows only so (its
        // stream_stop_sending callback is for the local side's), as the RESET_STREAM ngtcp2 sent
        // in answer is acknowledged. What is left of the body goes nowhere.
        if (s.sendAborted_ || s.closedInSession_) {
          source.skip(byteCount);
          return;
        }
        if (s.sendBufferedBytes_ < kMaxBufferedRequestBytes) break;
        s.waitLocked(lock, s.writeTimeout_);
      }
      while (byteCount > 0 && s.sendBufferedBytes_ < kMaxBufferedRequestBytes) {
        const int64_t count = std::min(byteCount, kSendChunkBytes);
        std::vector<uint8_t> chunk(static_cast<size_t>(count));
        source.readFully(
            std::span<std::byte>(reinterpret_cast<std::byte*>(chunk.data()), chunk.size()));
        s.sendChunks_.push_back(std::move(chunk));
        s.sendBufferedBytes_ += count;
        byteCount -= count;
      }
      s.connection_.assertLockIs(s.mutex_);
      s.connection_.resumeDataLocked(s);
    }
    s.connection_.wakeReader();
  }
}

void Http3Stream::StreamSink::flush() {
  {
    MutexLock lock(stream_.mutex_);
    if (stream_.failure_) std::rethrow_exception(copyOf(stream_.failure_));
  }
  stream_.connection_.wakeReader();  // The reader writes what is buffered; nothing to wait for.
}

void Http3Stream::StreamSink::close() {
  Http3Stream& s = stream_;
  {
    MutexLock lock(s.mutex_);
    if (s.sendClosed_) return;
    s.sendClosed_ = true;
    if (s.closedInSession_) return;  // Reset already; nothing more to send.
    if (s.failure_ && s.canceled_) std::rethrow_exception(copyOf(s.failure_));
    s.connection_.assertLockIs(s.mutex_);
    s.connection_.resumeDataLocked(s);
  }
  s.connection_.wakeReader();
}

}  // namespace tern::internal
