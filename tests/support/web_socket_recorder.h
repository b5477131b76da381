// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#pragma once

#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "tern/web_socket.h"

namespace tern::testing {

// A WebSocketListener that records what it hears, in order, for tests to take and check (as
// OkHttp's WebSocketRecorder). Each assert*() takes the next event, waiting up to 10 s for it,
// and fails the test (ADD_FAILURE, then returns) if it is not the one expected. It also checks
// the listener's contract on every event: no event after onClosed or onFailure, and never two
// callbacks at once.
class WebSocketRecorder : public WebSocketListener {
 public:
  struct Event {
    enum class Kind { kOpen, kText, kBytes, kClosing, kClosed, kFailure };
    Kind kind = Kind::kOpen;
    std::string text;              // kText; the reason for kClosing / kClosed.
    std::vector<std::byte> bytes;  // kBytes.
    int code = 0;                  // kClosing / kClosed; the 101's code for kOpen.
    std::string failure;           // kFailure: the exception's what().
    bool failureIsInterrupted = false;
    bool failureIsTimeout = false;
    std::optional<int> responseCode;  // kOpen, kFailure: the response's code, if any.
    Protocol responseProtocol = Protocol::HTTP_1_1;  // kOpen: the handshake's protocol.
    std::string responseBody;                        // kFailure: the refused response's body.
    std::thread::id thread;
    std::string toString() const;
  };

  explicit WebSocketRecorder(std::string name) : name_(std::move(name)) {}

  // Runs `action` inside the next callback (any kind), after recording it: to send or close from
  // the listener's thread, as an application would.
  void setNextEventDelegate(std::function<void(WebSocket&)> action);

  void onOpen(WebSocket& webSocket, const Response& response) override;
  void onMessage(WebSocket& webSocket, const std::string& text) override;
  void onMessage(WebSocket& webSocket, const std::vector<std::byte>& bytes) override;
  void onClosing(WebSocket& webSocket, int code, const std::string& reason) override;
  void onClosed(WebSocket& webSocket, int code, const std::string& reason) override;
  void onFailure(WebSocket& webSocket, const IOException& error, const Response* response) override;

  // The next event, or nullopt after `timeout`.
  std::optional<Event> next(std::chrono::milliseconds timeout = std::chrono::seconds(10));

  // onOpen, with the handshake's protocol (HTTP/2 for RFC 8441), returned.
  Protocol assertOpen();
  void assertTextMessage(const std::string& text);
  void assertBinaryMessage(const std::vector<std::byte>& bytes);
  void assertClosing(int code, const std::string& reason);
  void assertClosed(int code, const std::string& reason);
  // A failure whose message contains `messagePart`.
  void assertFailure(const std::string& messagePart);
  // A failure with a response of `code` whose message contains `messagePart`.
  void assertFailure(int code, const std::string& messagePart);
  // Nothing more comes within `wait`.
  void assertExhausted(std::chrono::milliseconds wait = std::chrono::milliseconds(100));

  // The WebSocket the listener saw, while its owner keeps it (null, and a failed expectation,
  // once the owner has ended it).
  std::shared_ptr<WebSocket> webSocket() const;

  // The threads the callbacks came on, so far.
  std::set<std::thread::id> threads() const;

 private:
  void record(WebSocket& webSocket, Event event);

  std::string name_;
  mutable std::mutex mutex_;
  std::condition_variable condition_;
  std::deque<Event> events_;
  std::function<void(WebSocket&)> delegate_;
  std::weak_ptr<WebSocket> webSocket_;
  bool final_ = false;
  bool inCallback_ = false;
  std::set<std::thread::id> threads_;
};

}  // namespace tern::testing
