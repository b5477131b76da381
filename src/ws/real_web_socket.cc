// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#include "ws/real_web_socket.h"

#include <stdexcept>
#include <thread>
#include <utility>

#include "concurrent/task.h"
#include "concurrent/task_runner.h"
#include "tern/buffered_sink.h"
#include "tern/buffered_source.h"
#include "tern/call.h"
#include "tern/exceptions.h"
#include "ws/utf8_validator.h"
#include "ws/web_socket_protocol.h"

namespace tern::internal {

RealWebSocket::RealWebSocket(Request request, std::shared_ptr<WebSocketListener> listener,
                             Options options)
    : request_(std::move(request)), listener_(std::move(listener)), options_(std::move(options)) {}

RealWebSocket::~RealWebSocket() {
  std::unique_ptr<TaskQueue> writerQueue;
  std::unique_ptr<TaskQueue> readerQueue;
  {
    MutexLock lock(mutex_);
    writerQueue = std::move(writerQueue_);
    readerQueue = std::move(readerQueue_);
  }
  // Each task holds the socket while it runs, so none runs now, unless this destructor runs
  // inside it (its last reference went there), which TaskQueue's destructor allows.
  writerQueue.reset();
  readerQueue.reset();
}

int64_t RealWebSocket::queueSize() const {
  MutexLock lock(mutex_);
  return queueSize_;
}

bool RealWebSocket::send(std::string_view text) {
  // RFC 6455 §5.6: text frames carry UTF-8, and a peer fails the socket (1007) on anything else.
  if (!isStrictUtf8(text)) throw std::invalid_argument("text is not valid UTF-8");
  Buffer data;
  data.writeUtf8(text);
  return enqueue(ws::kOpcodeText, std::move(data));
}

bool RealWebSocket::send(std::span<const std::byte> bytes) {
  Buffer data;
  data.write(bytes);
  return enqueue(ws::kOpcodeBinary, std::move(data));
}

bool RealWebSocket::enqueue(int opcode, Buffer data) {
  {
    MutexLock lock(mutex_);
    // Don't send new frames after we've failed or enqueued a close frame.
    if (failed_ || enqueuedClose_) return false;
    if (queueSize_ + data.size() > kMaxQueueSize) {
      // The reader is far behind: give up gracefully rather than buffer without bound.
      lock.unlock();
      close(ws::kCloseGoingAway, "");
      return false;
    }
    queueSize_ += data.size();
    messageAndCloseQueue_.push_back(Outgoing{opcode, std::move(data), 0, {}});
  }
  runWriter();
  return true;
}

bool RealWebSocket::close(int code, std::string_view reason) {
  if (std::optional<std::string> message = ws::closeCodeExceptionMessage(code)) {
    throw std::invalid_argument(*message);
  }
  if (static_cast<int64_t>(reason.size()) > ws::kCloseMessageMax) {
    throw std::invalid_argument("reason.size() > " + std::to_string(ws::kCloseMessageMax) + ": " +
                                std::to_string(reason.size()));
  }
  if (!isStrictUtf8(reason)) throw std::invalid_argument("reason is not valid UTF-8");
  {
    MutexLock lock(mutex_);
    if (failed_ || enqueuedClose_) return false;
    enqueuedClose_ = true;
    Outgoing close{ws::kOpcodeControlClose, Buffer(), 0, {}};
    close.closeCode = code;
    close.closeReason = std::string(reason);
    messageAndCloseQueue_.push_back(std::move(close));
  }
  runWriter();
  return true;
}

void RealWebSocket::cancel() {
  std::shared_ptr<Call> call;
  bool opened;
  {
    MutexLock lock(mutex_);
    if (failed_ || canceled_) return;
    canceled_ = true;
    call = call_;
    opened = socket_ != nullptr;
  }
  if (!opened && call) {
    // Still in the handshake: canceling its call makes the handshake's callback report it (and
    // the call's event listener hear why the call failed).
    call->cancel();
    return;
  }
  failWebSocket(std::make_exception_ptr(InterruptedIOException("canceled")), nullptr);
}

void RealWebSocket::setCall(std::shared_ptr<Call> call) {
  MutexLock lock(mutex_);
  call_ = std::move(call);
}

void RealWebSocket::initReaderAndWriter(const std::string& name,
                                        std::shared_ptr<UpgradedSocket> socket,
                                        const WebSocketExtensions& extensions) {
  // No read timeout: a WebSocket may be quiet for hours; pings find a dead peer.
  socket->source().timeout().timeout(std::chrono::nanoseconds(0));
  source_ = buffer(socket->source());
  WebSocketReader::Options readerOptions;
  readerOptions.isClient = options_.isClient;
  readerOptions.perMessageDeflate = extensions.perMessageDeflate;
  readerOptions.noContextTakeover = extensions.noContextTakeover(!options_.isClient);
  readerOptions.maxMessageSize = options_.maxMessageSize;
  reader_ = std::make_unique<WebSocketReader>(readerOptions, *source_,
                                              static_cast<WebSocketReader::FrameCallback&>(*this));
  {
    std::lock_guard writerLock(writerMutex_);
    sink_ = buffer(socket->sink());
    WebSocketWriter::Options writerOptions;
    writerOptions.isClient = options_.isClient;
    writerOptions.perMessageDeflate = extensions.perMessageDeflate;
    writerOptions.noContextTakeover = extensions.noContextTakeover(options_.isClient);
    writerOptions.minimumDeflateSize = options_.minimumDeflateSize;
    writerOptions.random = options_.random;
    writer_ = std::make_unique<WebSocketWriter>(writerOptions, *sink_);
  }
  bool canceled;
  {
    MutexLock lock(mutex_);
    socket_ = socket;
    writerQueue_ = TaskRunner::instance()->newQueue("tern WebSocket writer " + name);
    canceled = canceled_;
    if (options_.pingInterval > std::chrono::milliseconds(0)) {
      std::weak_ptr<RealWebSocket> weakSelf = weak_from_this();
      writerQueue_->schedule("ping " + name, options_.pingInterval, [weakSelf] {
        std::shared_ptr<RealWebSocket> self = weakSelf.lock();
        std::chrono::nanoseconds next = self ? self->writePingFrame() : Task::kNoRepeat;
        return next;
      });
    }
  }
  if (canceled) {
    failWebSocket(std::make_exception_ptr(InterruptedIOException("canceled")), nullptr);
    return;
  }
  runWriter();  // Messages sent before the socket opened.
}

void RealWebSocket::startReading(std::shared_ptr<const Response> response) {
  MutexLock lock(mutex_);
  readerRunning_ = true;
  readerQueue_ = TaskRunner::instance()->newQueue("tern WebSocket reader");
  // Not cancelable: the loop must run to close the socket's source, even on failure.
  readerQueue_->execute("reader", std::chrono::nanoseconds(0), false,
                        [self = shared_from_this(), response = std::move(response)]() mutable {
                          self->deliverOpen(*response);
                          self->loopReader();
                          // Lets go of the socket here, not when the runner drops the task
                          // (under its lock): the last reference may be this one, and the
                          // destructor destroys task queues.
                          response.reset();
                          self.reset();
                        });
}

void RealWebSocket::deliverOpen(const Response& response) {
  {
    MutexLock lock(mutex_);
    if (failed_) return;  // Canceled or failed before it opened: onFailure comes instead.
  }
  deliver([&](WebSocketListener& listener) { listener.onOpen(*this, response); }, false);
}

void RealWebSocket::loopReader() {
  {
    MutexLock lock(mutex_);
    readerRunning_ = true;
    readerThread_ = std::this_thread::get_id();
  }
  try {
    while (true) {
      {
        MutexLock lock(mutex_);
        if (receivedCloseCode_ != -1 || failed_) break;
      }
      reader_->processNextFrame();
    }
  } catch (const WebSocketProtocolException& e) {
    // RFC 6455 §7.1.7: tell the peer why, in as much of the message as a close frame holds.
    std::string reason = e.what();
    if (static_cast<int64_t>(reason.size()) > ws::kCloseMessageMax || !isStrictUtf8(reason)) {
      reason.clear();
    }
    closeAndFail(e.closeCode(), reason, std::current_exception(), nullptr);
  } catch (const IOException&) {
    failWebSocket(std::current_exception(), nullptr);
  }
  try {
    source_->close();
  } catch (...) {
    // Safe to drop: closing the raw source of an upgraded connection releases no resource that
    // can fail; the connection itself is closed when both halves are.
  }
  // The final callback comes on this thread too: onFailure for a failure another thread found
  // (it broke the connection to wake this one), or onClosed once our close frame is out as well.
  int code = -1;
  std::string reason;
  bool failed;
  {
    MutexLock lock(mutex_);
    stateChanged_.wait(lock.native(),
                       [this]() TERN_REQUIRES(mutex_) { return failed_ || closeSent_; });
    readerRunning_ = false;
    failed = failed_;
    code = receivedCloseCode_;
    reason = receivedCloseReason_;
    if (!failed && writerQueue_) writerQueue_->cancelAll();  // The close timeout and the pings.
  }
  if (failed) {
    deliverFailure(nullptr);
  } else {
    deliver([&](WebSocketListener& listener) { listener.onClosed(*this, code, reason); }, true);
  }
}

void RealWebSocket::onReadMessage(std::string text) {
  deliver([&](WebSocketListener& listener) { listener.onMessage(*this, text); }, false);
}

void RealWebSocket::onReadMessage(std::vector<std::byte> bytes) {
  deliver([&](WebSocketListener& listener) { listener.onMessage(*this, bytes); }, false);
}

void RealWebSocket::onReadPing(std::string payload) {
  {
    MutexLock lock(mutex_);
    ++receivedPingCount_;
    // Don't respond to pings after we've failed or sent the close frame.
    if (failed_ || closeSent_ || (enqueuedClose_ && messageAndCloseQueue_.empty())) return;
    pongQueue_.push_back(std::move(payload));
  }
  runWriter();
}

void RealWebSocket::onReadPong(std::string) {
  MutexLock lock(mutex_);
  ++receivedPongCount_;
  awaitingPong_ = false;
}

void RealWebSocket::onReadClose(int code, std::string reason) {
  {
    MutexLock lock(mutex_);
    if (receivedCloseCode_ != -1) throw std::logic_error("already closed");
    receivedCloseCode_ = code;
    receivedCloseReason_ = reason;
  }
  deliver([&](WebSocketListener& listener) { listener.onClosing(*this, code, reason); }, false);
  bool answer;
  {
    MutexLock lock(mutex_);
    answer = !enqueuedClose_ && !failed_;
  }
  if (answer) {
    // The listener did not close: answer with the same code (RFC 6455 §5.5.1).
    int echo = ws::closeCodeExceptionMessage(code) ? ws::kCloseNormal : code;
    close(echo, "");
  }
  // loopReader() ends now, and delivers onClosed once our close frame is out.
}

void RealWebSocket::runWriter() {
  MutexLock lock(mutex_);
  if (!writerQueue_) return;  // Not open yet: initReaderAndWriter() runs it.
  std::weak_ptr<RealWebSocket> weakSelf = weak_from_this();
  writerQueue_->execute("writer", std::chrono::nanoseconds(0), true, [weakSelf] {
    std::shared_ptr<RealWebSocket> self = weakSelf.lock();
    if (!self) return;
    while (self->writeOneFrame()) {
    }
  });
}

bool RealWebSocket::writeOneFrame() {
  std::optional<std::string> pong;
  std::optional<Outgoing> frame;
  {
    MutexLock lock(mutex_);
    if (failed_ || closeSent_) return false;
    if (!pongQueue_.empty()) {
      pong = std::move(pongQueue_.front());
      pongQueue_.pop_front();
    } else if (!messageAndCloseQueue_.empty()) {
      frame = std::move(messageAndCloseQueue_.front());
      messageAndCloseQueue_.pop_front();
    } else {
      return false;
    }
  }
  std::unique_lock writerLock(writerMutex_);
  try {
    if (pong) {
      writer_->writePong(*pong);
      return true;
    }
    if (frame->opcode != ws::kOpcodeControlClose) {
      int64_t size = frame->data.size();
      writer_->writeMessageFrame(frame->opcode, frame->data);
      MutexLock lock(mutex_);
      queueSize_ -= size;
      return true;
    }
    writer_->writeClose(frame->closeCode, frame->closeReason);
    // Nothing follows a close frame (RFC 6455 §5.5.1): this half of the connection is done.
    sinkClosed_ = true;
    sink_->close();
  } catch (const IOException&) {
    writerLock.unlock();
    failWebSocket(std::current_exception(), nullptr);
    return false;
  }
  writerLock.unlock();
  {
    MutexLock lock(mutex_);
    closeSent_ = true;
    stateChanged_.notify_all();  // The reader delivers onClosed once the peer's close came too.
    if (receivedCloseCode_ == -1 && writerQueue_) {
      // Wait this long for the peer's close frame, then drop the connection.
      std::weak_ptr<RealWebSocket> weakSelf = weak_from_this();
      auto timeout = options_.closeTimeout;
      writerQueue_->execute("close timeout", timeout, true, [weakSelf, timeout] {
        if (std::shared_ptr<RealWebSocket> self = weakSelf.lock()) {
          self->failWebSocket(std::make_exception_ptr(SocketTimeoutException(
                                  "the peer did not answer the close frame within " +
                                  std::to_string(timeout.count()) + " ms")),
                              nullptr);
        }
      });
    }
  }
  return false;
}

std::chrono::nanoseconds RealWebSocket::writePingFrame() {
  int failedPing;
  {
    MutexLock lock(mutex_);
    if (failed_ || closeSent_) return Task::kNoRepeat;
    failedPing = awaitingPong_ ? sentPingCount_ : -1;
    ++sentPingCount_;
    awaitingPong_ = true;
  }
  if (failedPing != -1) {
    failWebSocket(std::make_exception_ptr(SocketTimeoutException(
                      "sent ping but didn't receive pong within " +
                      std::to_string(options_.pingInterval.count()) + "ms (after " +
                      std::to_string(failedPing - 1) + " successful ping/pongs)")),
                  nullptr);
    return Task::kNoRepeat;
  }
  std::unique_lock writerLock(writerMutex_);
  try {
    if (sinkClosed_) return Task::kNoRepeat;
    writer_->writePing("");
  } catch (const IOException&) {
    writerLock.unlock();
    failWebSocket(std::current_exception(), nullptr);
    return Task::kNoRepeat;
  }
  return options_.pingInterval;
}

void RealWebSocket::closeAndFail(int code, const std::string& reason, std::exception_ptr e,
                                 const Response* response) {
  {
    MutexLock lock(mutex_);
    if (failed_) return;
    closeSent_ = true;  // Nothing else is written after this close frame.
  }
  {
    std::lock_guard writerLock(writerMutex_);
    if (writer_ && !sinkClosed_) {
      try {
        writer_->writeClose(code, reason);
      } catch (const IOException&) {
        // Safe to drop: the socket fails below for the reason that matters, `e`.
      }
    }
  }
  failWebSocket(std::move(e), response);
}

void RealWebSocket::failWebSocket(std::exception_ptr e, const Response* response) {
  std::shared_ptr<UpgradedSocket> socket;
  std::shared_ptr<Call> call;
  bool readerElsewhere;
  {
    MutexLock lock(mutex_);
    if (failed_) return;
    failed_ = true;
    // After cancel() the listener hears that, whatever broke as a consequence.
    failure_ = canceled_ ? std::make_exception_ptr(InterruptedIOException("canceled")) : e;
    socket = socket_;
    call = call_;
    messageAndCloseQueue_.clear();
    pongQueue_.clear();
    queueSize_ = 0;
    if (writerQueue_) writerQueue_->cancelAll();
    readerElsewhere = readerRunning_ && readerThread_ != std::this_thread::get_id();
    stateChanged_.notify_all();
  }
  // Breaks the connection, waking a reader or writer blocked on it: through the call when there
  // is one (its listener then hears it was canceled). Not for a refused handshake, whose
  // response the listener may still read; its owner closes it afterwards.
  if (call && (socket || !response)) call->cancel();
  if (socket) {
    socket->cancel();
    std::lock_guard writerLock(writerMutex_);
    if (!sinkClosed_) {
      sinkClosed_ = true;
      try {
        socket->sink().close();
      } catch (const IOException&) {
        // Safe to drop: the connection was just broken on purpose.
      }
    }
  }
  // The reader, woken by the broken connection, delivers onFailure on its own thread.
  if (!readerElsewhere) deliverFailure(response);
}

void RealWebSocket::deliverFailure(const Response* response) {
  std::exception_ptr failure;
  {
    MutexLock lock(mutex_);
    failure = failure_;
  }
  try {
    std::rethrow_exception(failure);
  } catch (const IOException& e) {
    deliver([&](WebSocketListener& listener) { listener.onFailure(*this, e, response); }, true);
  } catch (const std::exception& e) {
    IOException wrapped(e.what());
    deliver([&](WebSocketListener& listener) { listener.onFailure(*this, wrapped, response); },
            true);
  }
}

void RealWebSocket::deliver(const std::function<void(WebSocketListener&)>& callback, bool final) {
  std::string thrown;
  {
    std::unique_lock lock(listenerMutex_);
    if (finalDelivered_) return;
    if (final) finalDelivered_ = true;
    try {
      callback(*listener_);
    } catch (const std::exception& e) {
      thrown = e.what();
    } catch (...) {
      thrown = "an exception that is not a std::exception";
    }
  }
  if (!thrown.empty() && !final) {
    failWebSocket(std::make_exception_ptr(IOException("WebSocketListener threw: " + thrown)),
                  nullptr);
  }
}

int RealWebSocket::sentPingCount() const {
  MutexLock lock(mutex_);
  return sentPingCount_;
}

int RealWebSocket::receivedPingCount() const {
  MutexLock lock(mutex_);
  return receivedPingCount_;
}

int RealWebSocket::receivedPongCount() const {
  MutexLock lock(mutex_);
  return receivedPongCount_;
}

}  // namespace tern::internal
