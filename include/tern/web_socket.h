// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "tern/exceptions.h"
#include "tern/export.h"
#include "tern/request.h"
#include "tern/response.h"

namespace tern {

// A WebSocket (RFC 6455), as OkHttp's WebSocket: a two-way channel of text and binary messages
// opened by Client::newWebSocket(). Messages are queued and sent in order by a writer of the
// socket's own, so send() never blocks; what arrives goes to the WebSocketListener.
//
// Lifecycle: connecting → open (onOpen) → closing (close() was called, or the peer sent a close
// frame: onClosing) → closed (both close frames exchanged: onClosed), or failed at any point
// (onFailure). Thread-safe: every method may be called from any thread, including from the
// listener's callbacks.
class TERN_API WebSocket {
 public:
  virtual ~WebSocket() = default;

  // The request that opened this socket (before the handshake's headers were added).
  virtual const Request& request() const = 0;

  // The bytes of messages queued but not yet handed to the network (frame overhead and
  // compression not counted): what a sender watches to avoid queueing without bound.
  virtual int64_t queueSize() const = 0;

  // Queues a text message (UTF-8) / a binary message. Returns false, queueing nothing, once the
  // socket is closing, closed, failed or canceled, and when the queue would pass 16 MiB, which
  // also starts a graceful close with 1001 (going away), as OkHttp does. Throws
  // std::invalid_argument("text is not valid UTF-8") for text that is not (RFC 6455 §5.6).
  virtual bool send(std::string_view text) = 0;
  virtual bool send(std::span<const std::byte> bytes) = 0;

  // Starts a graceful close: once the queued messages are sent, a close frame with `code` and
  // `reason` follows; the socket is closed when the server's close frame comes back, or canceled
  // after the client's webSocketCloseTimeout (60 s). Returns false if a close was already
  // started, or the socket failed or was canceled. Throws std::invalid_argument naming the bad
  // value for a code RFC 6455 §7.4 does not let an endpoint send ("Code must be in range
  // [1000,5000): 999", "Code 1005 is reserved and may not be used.") or a reason longer than 123
  // bytes ("reason.size() > 123: 200") or not UTF-8 ("reason is not valid UTF-8").
  virtual bool close(int code, std::string_view reason) = 0;

  // Drops the connection at once, with no close handshake, discarding queued messages. The
  // listener gets onFailure (unless the socket had already closed or failed). Idempotent.
  virtual void cancel() = 0;
};

// What a WebSocket reports, as OkHttp's WebSocketListener. Every callback has an empty default.
//
// Threads: the calls for one socket come in order on one thread, the socket's reader (a tern
// background thread), never two at once; only a failure before the socket opened (a refused
// handshake, a cancel() during it) comes on the dispatcher thread that ran the handshake. A
// callback may call the socket's methods; a slow callback delays the socket's reading. onClosed and
// onFailure are final: exactly one of them comes, and nothing after it. A callback that throws
// fails the socket (onFailure with an IOException naming what it threw).
class TERN_API WebSocketListener {
 public:
  virtual ~WebSocketListener() = default;

  // The server accepted the handshake; messages may flow. `response` is the 101 (its headers say
  // which subprotocol and extensions were agreed).
  virtual void onOpen(WebSocket& webSocket, const Response& response);

  // A text message arrived (checked to be UTF-8).
  virtual void onMessage(WebSocket& webSocket, const std::string& text);

  // A binary message arrived.
  virtual void onMessage(WebSocket& webSocket, const std::vector<std::byte>& bytes);

  // The server sent its close frame: no more messages will come. If this callback does not call
  // close() itself, tern answers with the same code (RFC 6455 §5.5.1).
  virtual void onClosing(WebSocket& webSocket, int code, const std::string& reason);

  // Both close frames were exchanged and the connection is closed: the socket's graceful end.
  virtual void onClosed(WebSocket& webSocket, int code, const std::string& reason);

  // The socket failed: the handshake was refused (then `response` is the server's answer, body
  // included, else null), the connection broke, the server broke the protocol (tern sent it a
  // close frame with 1002, 1007, 1009 or 1010 first), a ping went unanswered, the close timed out,
  // or cancel() was called. `error` says which. Queued messages may not have been sent.
  virtual void onFailure(WebSocket& webSocket, const IOException& error, const Response* response);
};

}  // namespace tern
