// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#pragma once

#include <atomic>
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

// Serves HTTP/2 on one accepted connection, with prior knowledge (RFC 9113 §3.3) or over TLS
// when ALPN chose h2, on nghttp2's server API. The connection's thread reads frames and feeds
// nghttp2; each request, once complete, is recorded, dispatched and answered on a thread of its
// own, so delays, throttling and stalls of one response never hold up the other streams (nor the
// reading of the client's WINDOW_UPDATEs and pings).
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

  // One request stream and the response going out on it. Guarded by mutex_.
  struct Stream {
    int32_t id = 0;
    int sequenceNumber = 0;
    std::vector<std::pair<std::string, std::string>> headers;  // Pseudo-headers included.
    std::unique_ptr<TruncatingSink> body;
    bool refused = false;      // Above the GOAWAY: never served.
    bool dispatched = false;   // A responder thread owns it.
    bool closed = false;       // nghttp2 closed it.
    Buffer out;                // Response body bytes nghttp2 has not taken.
    bool outDeferred = false;  // nghttp2 waits for resume.
    bool outEnd = false;       // No more body.
    Headers trailers;          // Sent after the body, if any.
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
  // Writes the response's body through the data provider, paced as the response asks.
  // Returns false if a policy cut it short or the stream or connection went away.
  bool writeBody(const std::shared_ptr<Stream>& stream, const MockResponse& response);
  // Waits until nghttp2 has taken every buffered byte of `stream`'s body.
  bool awaitDrained(const std::shared_ptr<Stream>& stream);
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
