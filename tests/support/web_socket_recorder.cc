// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#include "support/web_socket_recorder.h"

#include <gtest/gtest.h>

#include <utility>

#include "ws/real_web_socket.h"

namespace tern::testing {

std::string WebSocketRecorder::Event::toString() const {
  switch (kind) {
    case Kind::kOpen:
      return "Open";
    case Kind::kText:
      return "Text[" + text + "]";
    case Kind::kBytes:
      return "Bytes[" + std::to_string(bytes.size()) + " bytes]";
    case Kind::kClosing:
      return "Closing[" + std::to_string(code) + " " + text + "]";
    case Kind::kClosed:
      return "Closed[" + std::to_string(code) + " " + text + "]";
    case Kind::kFailure:
      return "Failure[" + failure + "]";
  }
  return "?";
}

void WebSocketRecorder::setNextEventDelegate(std::function<void(WebSocket&)> action) {
  std::lock_guard lock(mutex_);
  delegate_ = std::move(action);
}

void WebSocketRecorder::record(WebSocket& webSocket, Event event) {
  std::function<void(WebSocket&)> delegate;
  {
    std::lock_guard lock(mutex_);
    EXPECT_FALSE(inCallback_) << name_ << ": two callbacks at once";
    EXPECT_FALSE(final_) << name_ << ": " << event.toString() << " after the final event";
    inCallback_ = true;
    // Weakly: the socket's owner (MockWebServer's serving thread, for a server) may end it
    // before the test is done with the recorder.
    if (auto* real = dynamic_cast<internal::RealWebSocket*>(&webSocket)) {
      webSocket_ = real->weak_from_this();
    }
    event.thread = std::this_thread::get_id();
    threads_.insert(event.thread);
    if (event.kind == Event::Kind::kClosed || event.kind == Event::Kind::kFailure) final_ = true;
    events_.push_back(std::move(event));
    delegate = std::exchange(delegate_, nullptr);
  }
  condition_.notify_all();
  struct EndCallback {
    WebSocketRecorder& recorder;
    ~EndCallback() {
      std::lock_guard lock(recorder.mutex_);
      recorder.inCallback_ = false;
    }
  } endCallback{*this};
  if (delegate) delegate(webSocket);  // May throw, as an application's listener may.
}

void WebSocketRecorder::onOpen(WebSocket& webSocket, const Response& response) {
  Event event;
  event.kind = Event::Kind::kOpen;
  event.responseCode = response.code();
  event.responseProtocol = response.protocol();
  record(webSocket, std::move(event));
}

void WebSocketRecorder::onMessage(WebSocket& webSocket, const std::string& text) {
  Event event;
  event.kind = Event::Kind::kText;
  event.text = text;
  record(webSocket, std::move(event));
}

void WebSocketRecorder::onMessage(WebSocket& webSocket, const std::vector<std::byte>& bytes) {
  Event event;
  event.kind = Event::Kind::kBytes;
  event.bytes = bytes;
  record(webSocket, std::move(event));
}

void WebSocketRecorder::onClosing(WebSocket& webSocket, int code, const std::string& reason) {
  Event event;
  event.kind = Event::Kind::kClosing;
  event.code = code;
  event.text = reason;
  record(webSocket, std::move(event));
}

void WebSocketRecorder::onClosed(WebSocket& webSocket, int code, const std::string& reason) {
  Event event;
  event.kind = Event::Kind::kClosed;
  event.code = code;
  event.text = reason;
  record(webSocket, std::move(event));
}

void WebSocketRecorder::onFailure(WebSocket& webSocket, const IOException& error,
                                  const Response* response) {
  Event event;
  event.kind = Event::Kind::kFailure;
  event.failure = error.what();
  event.failureIsInterrupted = dynamic_cast<const InterruptedIOException*>(&error) != nullptr;
  event.failureIsTimeout = dynamic_cast<const SocketTimeoutException*>(&error) != nullptr;
  if (response) {
    event.responseCode = response->code();
    // The body of a refused handshake is the listener's to read.
    auto* body = const_cast<Response*>(response)->body();
    if (body) {
      try {
        event.responseBody = body->string();
      } catch (const std::exception&) {
        event.responseBody = "<unreadable>";
      }
    }
  }
  record(webSocket, std::move(event));
}

std::optional<WebSocketRecorder::Event> WebSocketRecorder::next(std::chrono::milliseconds timeout) {
  std::unique_lock lock(mutex_);
  if (!condition_.wait_for(lock, timeout, [this] { return !events_.empty(); })) {
    return std::nullopt;
  }
  Event event = std::move(events_.front());
  events_.pop_front();
  return event;
}

namespace {

bool expectKind(const std::string& name, const std::optional<WebSocketRecorder::Event>& event,
                WebSocketRecorder::Event::Kind kind, const std::string& expected) {
  if (!event) {
    ADD_FAILURE() << name << ": timed out waiting for " << expected;
    return false;
  }
  if (event->kind != kind) {
    ADD_FAILURE() << name << ": expected " << expected << " but was " << event->toString();
    return false;
  }
  return true;
}

}  // namespace

Protocol WebSocketRecorder::assertOpen() {
  std::optional<Event> event = next();
  if (!expectKind(name_, event, Event::Kind::kOpen, "Open")) return Protocol::HTTP_1_1;
  return event->responseProtocol;
}

void WebSocketRecorder::assertTextMessage(const std::string& text) {
  std::optional<Event> event = next();
  if (expectKind(name_, event, Event::Kind::kText, "Text[" + text + "]")) {
    EXPECT_EQ(event->text, text) << name_;
  }
}

void WebSocketRecorder::assertBinaryMessage(const std::vector<std::byte>& bytes) {
  std::optional<Event> event = next();
  if (expectKind(name_, event, Event::Kind::kBytes, "Bytes")) {
    EXPECT_TRUE(event->bytes == bytes)
        << name_ << ": " << event->bytes.size() << " bytes, not " << bytes.size() << " as expected";
  }
}

void WebSocketRecorder::assertClosing(int code, const std::string& reason) {
  std::optional<Event> event = next();
  if (expectKind(name_, event, Event::Kind::kClosing, "Closing")) {
    EXPECT_EQ(event->code, code) << name_;
    EXPECT_EQ(event->text, reason) << name_;
  }
}

void WebSocketRecorder::assertClosed(int code, const std::string& reason) {
  std::optional<Event> event = next();
  if (expectKind(name_, event, Event::Kind::kClosed, "Closed")) {
    EXPECT_EQ(event->code, code) << name_;
    EXPECT_EQ(event->text, reason) << name_;
  }
}

void WebSocketRecorder::assertFailure(const std::string& messagePart) {
  std::optional<Event> event = next();
  if (expectKind(name_, event, Event::Kind::kFailure, "Failure[" + messagePart + "]")) {
    EXPECT_NE(event->failure.find(messagePart), std::string::npos)
        << name_ << ": " << event->failure;
  }
}

void WebSocketRecorder::assertFailure(int code, const std::string& messagePart) {
  std::optional<Event> event = next();
  if (expectKind(name_, event, Event::Kind::kFailure, "Failure[" + messagePart + "]")) {
    EXPECT_EQ(event->responseCode, std::optional<int>(code)) << name_;
    EXPECT_NE(event->failure.find(messagePart), std::string::npos)
        << name_ << ": " << event->failure;
  }
}

void WebSocketRecorder::assertExhausted(std::chrono::milliseconds wait) {
  std::optional<Event> event = next(wait);
  EXPECT_FALSE(event) << name_ << ": unexpected " << event->toString();
}

std::set<std::thread::id> WebSocketRecorder::threads() const {
  std::lock_guard lock(mutex_);
  return threads_;
}

std::shared_ptr<WebSocket> WebSocketRecorder::webSocket() const {
  std::lock_guard lock(mutex_);
  std::shared_ptr<WebSocket> webSocket = webSocket_.lock();
  EXPECT_TRUE(webSocket) << name_ << ": no WebSocket, or its owner has ended it";
  return webSocket;
}

}  // namespace tern::testing
