// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <list>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "body_transfer.h"
#include "server_socket.h"
#include "server_state.h"
#include "tern/buffer.h"
#include "tern/handshake.h"
#include "tern/mockwebserver/mock_response.h"
#include "tern/mockwebserver/recorded_request.h"

struct nghttp2_session;

namespace tern::mockwebserver::internal {

struct NameValues;  // http2_header_block.h

// Serves HTTP/2 on one accepted connection, with prior knowledge (RFC 9113 §3.3) or over TLS
// when ALPN chose h2, on nghttp2's server API. The connection's thread reads frames and feeds
// nghttp2; each request, once complete, is recorded, dispatched and answered on a thread of its
// own, so delays, throttling and stalls of one response never hold up the other streams (nor the
// reading of the client's WINDOW_UPDATEs and pings).
//
// A CONNECT (RFC 9113 §8.5), and the extended CONNECT of RFC 8441 when the server offers it
// (ServerState::extendedConnect()), is dispatched as soon as its HEADERS arrive: its stream is a
// tunnel that stays open. If the response has a WebSocket listener and the request's :protocol
// is "websocket", the stream is answered 200 and becomes a WebSocket run on the stream's thread
// (RFC 8441 §5); any other response ends the stream as usual.
//
// Locks: mutex_ guards the nghttp2 session and every stream's state; it is never held while
// the socket is read or written or the dispatcher runs. Output goes out as in the client's
// Http2Connection: one thread at a time writes what nghttp2 has pending.
class Http2ServerConnection {
 public:
  // Serves on `socket`: cleartext with prior knowledge, or TLS once ALPN chose h2 (then
  // `handshake` and the SNI names go on every RecordedRequest). `socket` must outlive this.
  Http2ServerConnection(ServerState& server, ConnectionSocket& socket, int connectionIndex,
                        std::optional<Handshake> handshake = std::nullopt,
                        std::vector<std::string> handshakeServerNames = {});
  ~Http2ServerConnection();
  Http2ServerConnection(const Http2ServerConnection&) = delete;
  Http2ServerConnection& operator=(const Http2ServerConnection&) = delete;

  // Serves the connection until the client closes it, a policy ends it or the server closes,
  // then joins the stream threads and closes the socket. Never throws.
  void serve() noexcept;

 private:
  struct Callbacks;
  class StreamSocket;  // A tunnel stream as an UpgradedSocket.

  // One request stream and the response going out on it. Guarded by mutex_.
  struct Stream {
    int32_t id = 0;
    int sequenceNumber = 0;
    std::vector<std::pair<std::string, std::string>> headers;  // Pseudo-headers included.
    std::unique_ptr<TruncatingSink> body;
    bool refused = false;         // Above the GOAWAY: never served.
    bool dispatched = false;      // A responder thread owns it.
    bool closed = false;          // nghttp2 closed it.
    uint32_t closeErrorCode = 0;  // Once closed: the RST_STREAM code, or NO_ERROR.
    // A CONNECT: its DATA is the tunnel's, not a request body. Unread bytes wait in `in`, with
    // no bound: nghttp2 opens the window as they arrive (good enough for a test server).
    bool connect = false;
    Buffer in;
    bool inEnd = false;        // The client ended its side (END_STREAM).
    bool inDiscarded = false;  // No one reads the tunnel: its DATA is dropped.
    bool canceled = false;     // The tunnel's cancel() reset it.
    Buffer out;                // Response body bytes nghttp2 has not taken.
    bool outDeferred = false;  // nghttp2 waits for resume.
    bool outEnd = false;       // No more body.
    bool endSent = false;      // Our END_STREAM went out (on HEADERS, DATA or trailers).
    std::optional<uint32_t> resetAfterEnd;  // A RST_STREAM to follow it (resetAfterEndLocked()).
    Headers trailers;                       // Sent after the body, if any.
    std::condition_variable changed;
  };

  struct ResponderThread {
    std::thread thread;
    std::atomic<bool> done{false};
  };

  void startResponder(const std::shared_ptr<Stream>& stream, bool bodyUnread);
  // The responder thread's body: records, dispatches and answers one stream.
  void respond(const std::shared_ptr<Stream>& stream, bool bodyUnread);
  RecordedRequest recordedRequest(Stream& stream);
  // Answers an extended CONNECT for a WebSocket with 200 and serves the WebSocket on the stream
  // until it ends.
  void respondWebSocket(const std::shared_ptr<Stream>& stream, const RecordedRequest& request,
                        const MockResponse& response);
  // Writes the response's body through the data provider, paced as the response asks.
  // Returns false if a policy cut it short or the stream or connection went away.
  bool writeBody(const std::shared_ptr<Stream>& stream, const MockResponse& response);
  // Queues `byteCount` bytes of `source` on `stream`'s body, waiting while too much is queued
  // (until `deadline`, if any, then SocketTimeoutException), and writes them. Returns false if
  // the stream or connection went away (or the tunnel was canceled) first.
  bool writeOut(Stream& stream, Buffer& source, int64_t byteCount,
                std::optional<std::chrono::steady_clock::time_point> deadline = std::nullopt);
  // Ends `stream`'s body (END_STREAM, or the trailers, once the queued bytes are out).
  bool endOut(Stream& stream);
  // A tunnel's source: reads what the client sent on `stream`; -1 once it ended its side.
  int64_t readTunnel(Stream& stream, Buffer& sink, int64_t byteCount,
                     std::optional<std::chrono::steady_clock::time_point> deadline);
  // A tunnel's cancel(): resets the stream and wakes its reads and writes.
  void cancelTunnel(Stream& stream);
  // Waits until nghttp2 has taken every buffered byte of `stream`'s body.
  bool awaitDrained(const std::shared_ptr<Stream>& stream);
  // Resets `stream` with `errorCode` once its response is complete: at once if our END_STREAM
  // is out, else just after it (a RST_STREAM submitted earlier would overtake the response, and
  // nghttp2 would drop the rest of it). For a server that stops reading the request (RFC 9113
  // §8.1). `mutex_` held.
  void resetAfterEndLocked(Stream& stream, uint32_t errorCode);
  // Submits the response's `headers` on `stream`, with its body to come from stream.out (ended
  // by endOut()) if `hasBody`, else with END_STREAM. `mutex_` held.
  void submitResponseLocked(Stream& stream, NameValues& headers, bool hasBody);
  // An extended CONNECT for a WebSocket (RFC 8441 §4: :protocol "websocket").
  static bool isWebSocketConnect(const RecordedRequest& request);
  // Shuts the socket down both ways; the reader then sees end of stream.
  void disconnect();
  void flush();
  void joinFinishedResponders(bool all);

  ServerState& server_;
  ConnectionSocket& socket_;
  const int connectionIndex_;
  const std::optional<Handshake> handshake_;
  const std::vector<std::string> handshakeServerNames_;

  std::mutex mutex_;  // Guards everything below.
  nghttp2_session* session_ = nullptr;
  std::map<int32_t, std::shared_ptr<Stream>> streams_;
  bool writing_ = false;
  bool failed_ = false;  // The socket broke or the connection ended: responders stop.
  int nextSequenceNumber_ = 0;
  int streamsSeen_ = 0;
  int32_t lastServedStreamId_ = 0;
  int goAwayAfterStreams_ = 0;
  bool goAwaySent_ = false;
  std::list<std::unique_ptr<ResponderThread>> responders_;
};

}  // namespace tern::mockwebserver::internal
