// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#pragma once

#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <exception>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <thread>

#include "concurrent/mutex.h"
#include "concurrent/task_queue.h"
#include "tern/buffer.h"
#include "tern/export.h"
#include "tern/request.h"
#include "tern/response.h"
#include "tern/upgraded_socket.h"
#include "tern/web_socket.h"
#include "ws/web_socket_extensions.h"
#include "ws/web_socket_reader.h"
#include "ws/web_socket_writer.h"

namespace tern {
class Call;  // tern/call.h: the client's handshake call.
}  // namespace tern

namespace tern::internal {

// The WebSocket engine, as OkHttp's RealWebSocket: a queue of outgoing messages drained by a
// writer task, a reader loop that delivers frames to the listener, pings, and the close
// handshake with its timeout. It runs over any UpgradedSocket, for the client (Client::
// newWebSocket(), src/ws/web_socket_client.cc, which makes the handshake) and for
// MockWebServer's server side alike; it knows nothing of calls or connections.
//
// Threads:
//  - the reader: loopReader(), on a TaskRunner queue of its own for the client (startReading())
//    or on the caller's thread for a server. It delivers every listener call once the socket is
//    open: onOpen, the messages, onClosing, and the final onClosed or onFailure (a failure
//    another thread finds is recorded, the connection broken to wake the reader, and the reader
//    reports it). Only a failure before the reader starts (a refused handshake, a cancel during
//    it) is delivered on the thread that found it;
//  - the writer: a TaskRunner queue ("tern WebSocket writer …") that writes queued frames one at
//    a time, pings, and fires the close timeout;
//  - any thread: the WebSocket methods.
// Listener calls are serialized by listenerMutex_ and never overlap; after the final one
// (onClosed or onFailure) none comes. Every write to the socket is made under writerMutex_.
// mutex_ guards the state below; it is never held while the socket is read or written, nor
// while the listener runs. Lock order: listenerMutex_, then writerMutex_, then mutex_.
//
// Shutdown of the connection: the reader closes socket.source() when its loop ends; the writer
// closes socket.sink() once its close frame is written, or on failure (after canceling the
// socket). The connection is released when both are closed.
class TERN_INTERNAL_API RealWebSocket final : public WebSocket,
                                              public WebSocketReader::FrameCallback,
                                              public std::enable_shared_from_this<RealWebSocket> {
 public:
  struct Options {
    bool isClient = true;
    std::chrono::milliseconds pingInterval{0};  // Zero: no pings.
    std::chrono::milliseconds closeTimeout{60'000};
    int64_t minimumDeflateSize = 1024;
    int64_t maxMessageSize = 16 * 1024 * 1024;
    // Fills mask keys (the client's); null: the kernel's CSPRNG.
    std::function<void(std::span<std::byte>)> random;
  };

  // The outgoing queue's bound, past which send() refuses and closes with 1001 (OkHttp's).
  static constexpr int64_t kMaxQueueSize = 16 * 1024 * 1024;

  RealWebSocket(Request request, std::shared_ptr<WebSocketListener> listener, Options options);
  ~RealWebSocket() override;
  RealWebSocket(const RealWebSocket&) = delete;
  RealWebSocket& operator=(const RealWebSocket&) = delete;

  // WebSocket.
  const Request& request() const override { return request_; }
  int64_t queueSize() const override;
  bool send(std::string_view text) override;
  bool send(std::span<const std::byte> bytes) override;
  bool close(int code, std::string_view reason) override;
  void cancel() override;

  // The client's handshake call, so that cancel() reaches it before the socket opens.
  void setCall(std::shared_ptr<Call> call);

  // The handshake succeeded: makes the reader and writer over `socket` with the negotiated
  // `extensions`, starts the writer (messages sent before this are written now) and the pings.
  // `name` names the task queues (the peer's "host:port").
  void initReaderAndWriter(const std::string& name, std::shared_ptr<UpgradedSocket> socket,
                           const WebSocketExtensions& extensions);

  // Client: on a TaskRunner queue of the socket's own, delivers onOpen(`response`) and then runs
  // loopReader().
  void startReading(std::shared_ptr<const Response> response);

  // Server: delivers onOpen(`response`) on this thread.
  void deliverOpen(const Response& response);

  // Reads frames until the peer's close frame or a failure, delivering each to the listener.
  // Blocks; returns once the final callback (onClosed or onFailure) was delivered, after this
  // side's close frame too is out.
  void loopReader();

  // Sends a close frame with `code` now, bypassing the queue, then fails the socket with `e`
  // (reporting `response`, if any, to onFailure). For a handshake the client refuses (1010) and a
  // peer that broke the protocol. Safe from any thread.
  void closeAndFail(int code, const std::string& reason, std::exception_ptr e,
                    const Response* response);

  // Fails the socket with `e` (an IOException; anything else is reported as one with its
  // message): breaks the connection (or the handshake call) and discards the queue; then
  // onFailure(`e`, `response`) comes, from the reader if it runs on another thread, else from
  // here, unless a final callback was delivered already. After cancel() the failure reported is
  // InterruptedIOException("canceled"). Safe from any thread, any number of times: the first
  // failure wins.
  void failWebSocket(std::exception_ptr e, const Response* response);

  // For tests and the tool: pings sent, pings and pongs received.
  int sentPingCount() const;
  int receivedPingCount() const;
  int receivedPongCount() const;

 private:
  struct Outgoing {
    int opcode;   // ws::kOpcodeText, kOpcodeBinary, or kOpcodeControlClose.
    Buffer data;  // The message.
    int closeCode = 0;
    std::string closeReason;
  };

  // FrameCallback, on the reader thread.
  void onReadMessage(std::string text) override;
  void onReadMessage(std::vector<std::byte> bytes) override;
  void onReadPing(std::string payload) override;
  void onReadPong(std::string payload) override;
  void onReadClose(int code, std::string reason) override;

  bool enqueue(int opcode, Buffer data);
  void runWriter();
  // Writes the next pong, message or close frame; false when there is none (or it failed).
  bool writeOneFrame();
  // Returns the delay until the next ping, or Task::kNoRepeat.
  std::chrono::nanoseconds writePingFrame();
  // Delivers onFailure with failure_.
  void deliverFailure(const Response* response);
  // Runs `callback` with the listener, serialized; `final` marks onClosed / onFailure. A
  // callback that throws fails the socket.
  void deliver(const std::function<void(WebSocketListener&)>& callback, bool final);

  const Request request_;
  const std::shared_ptr<WebSocketListener> listener_;
  const Options options_;

  std::mutex listenerMutex_;     // Serializes listener calls.
  bool finalDelivered_ = false;  // Guarded by listenerMutex_.

  std::mutex writerMutex_;                   // Every use of writer_ and of the socket's sink.
  std::unique_ptr<BufferedSink> sink_;       // Guarded by writerMutex_.
  std::unique_ptr<WebSocketWriter> writer_;  // Guarded by writerMutex_.
  bool sinkClosed_ = false;                  // Guarded by writerMutex_.

  // Reader thread only.
  std::unique_ptr<BufferedSource> source_;
  std::unique_ptr<WebSocketReader> reader_;

  mutable Mutex mutex_;
  std::shared_ptr<Call> call_ TERN_GUARDED_BY(mutex_);
  std::shared_ptr<UpgradedSocket> socket_ TERN_GUARDED_BY(mutex_);
  std::unique_ptr<TaskQueue> writerQueue_ TERN_GUARDED_BY(mutex_);
  std::unique_ptr<TaskQueue> readerQueue_ TERN_GUARDED_BY(mutex_);
  std::deque<std::string> pongQueue_ TERN_GUARDED_BY(mutex_);
  std::deque<Outgoing> messageAndCloseQueue_ TERN_GUARDED_BY(mutex_);
  int64_t queueSize_ TERN_GUARDED_BY(mutex_) = 0;
  bool enqueuedClose_ TERN_GUARDED_BY(mutex_) = false;
  bool closeSent_ TERN_GUARDED_BY(mutex_) = false;
  bool failed_ TERN_GUARDED_BY(mutex_) = false;
  bool canceled_ TERN_GUARDED_BY(mutex_) = false;
  bool readerRunning_ TERN_GUARDED_BY(mutex_) = false;
  std::thread::id readerThread_ TERN_GUARDED_BY(mutex_);
  std::exception_ptr failure_ TERN_GUARDED_BY(mutex_);  // What failed_ was set for.
  // Signaled (with mutex_) when failed_ or closeSent_ becomes true: the reader waits for them.
  std::condition_variable stateChanged_;
  int receivedCloseCode_ TERN_GUARDED_BY(mutex_) = -1;
  std::string receivedCloseReason_ TERN_GUARDED_BY(mutex_);
  int sentPingCount_ TERN_GUARDED_BY(mutex_) = 0;
  int receivedPingCount_ TERN_GUARDED_BY(mutex_) = 0;
  int receivedPongCount_ TERN_GUARDED_BY(mutex_) = 0;
  bool awaitingPong_ TERN_GUARDED_BY(mutex_) = false;
};

}  // namespace tern::internal
