// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
// Http2ServerConnection's tunnels: CONNECT streams that stay open, and the WebSockets of RFC 8441
// that run on them.
#include <nghttp2/nghttp2.h>

#include <algorithm>
#include <memory>
#include <string>

#include "http2_header_block.h"
#include "http2_server_connection.h"
#include "io/ascii.h"
#include "tern/exceptions.h"
#include "tern/timeout.h"
#include "tern/upgraded_socket.h"
#include "web_socket_server.h"

namespace tern::mockwebserver::internal {
namespace {

// "MockWebServer: HTTP/2 stream 3 was reset (CANCEL)".
std::string resetMessage(int32_t streamId, uint32_t errorCode) {
  return "MockWebServer: HTTP/2 stream " + std::to_string(streamId) + " was reset (" +
         nghttp2_http2_strerror(errorCode) + ")";
}

}  // namespace

bool Http2ServerConnection::isWebSocketConnect(const RecordedRequest& request) {
  std::optional<std::string> protocol = request.headers().get(":protocol");
  return request.method() == "CONNECT" && protocol &&
         tern::internal::equalsIgnoreCase(*protocol, "websocket");
}

// A tunnel stream's two directions as an UpgradedSocket: reads take the client's DATA, each
// write goes out as DATA at once, closing the sink ends the stream (END_STREAM), cancel() resets
// it. Only runWebSocket()'s detach guard reaches the connection through it, never after
// respondWebSocket() returns.
class Http2ServerConnection::StreamSocket final : public UpgradedSocket {
 public:
  StreamSocket(Http2ServerConnection& connection, const std::shared_ptr<Stream>& stream)
      : connection_(connection), stream_(stream), source_(*this), sink_(*this) {}

  Source& source() override { return source_; }
  Sink& sink() override { return sink_; }
  void cancel() override { connection_.cancelTunnel(*stream_); }

 private:
  class StreamSource final : public Source {
   public:
    explicit StreamSource(StreamSocket& socket) : socket_(socket) {}
    int64_t read(Buffer& sink, int64_t byteCount) override {
      return socket_.connection_.readTunnel(*socket_.stream_, sink, byteCount,
                                            timeout_.waitDeadline());
    }
    Timeout& timeout() override { return timeout_; }
    void close() override {
      std::lock_guard lock(socket_.connection_.mutex_);
      socket_.stream_->inDiscarded = true;
      socket_.stream_->in.clear();
    }

   private:
    StreamSocket& socket_;
    Timeout timeout_;
  };

  class StreamSink final : public Sink {
   public:
    explicit StreamSink(StreamSocket& socket) : socket_(socket) {}
    void write(Buffer& source, int64_t byteCount) override {
      Stream& stream = *socket_.stream_;
      if (!socket_.connection_.writeOut(stream, source, byteCount, timeout_.waitDeadline())) {
        throw IOException("MockWebServer: HTTP/2 stream " + std::to_string(stream.id) +
                          " is closed");
      }
    }
    void flush() override {}  // Each write is flushed.
    Timeout& timeout() override { return timeout_; }
    void close() override {
      socket_.connection_.endOut(*socket_.stream_);
    }  // Gone: nothing to end.

   private:
    StreamSocket& socket_;
    Timeout timeout_;
  };

  Http2ServerConnection& connection_;
  const std::shared_ptr<Stream> stream_;
  StreamSource source_;
  StreamSink sink_;
};

void Http2ServerConnection::respondWebSocket(const std::shared_ptr<Stream>& stream,
                                             const RecordedRequest& request,
                                             const MockResponse& response) {
  server_.closing().sleep(response.headersDelay());
  const Headers headers = webSocketHeaders(response);
  {
    NameValues block = responseHeaders(200, headers, false);
    std::lock_guard lock(mutex_);
    if (stream->closed || failed_) return;
    // No END_STREAM: the stream carries the WebSocket from here on (RFC 8441 §5).
    submitResponseLocked(*stream, block, true);
  }
  flush();
  const Protocol protocol = handshake_ ? Protocol::HTTP_2 : Protocol::H2_PRIOR_KNOWLEDGE;
  runWebSocket(std::make_unique<StreamSocket>(*this, stream),
               webSocketHandshake(request, protocol, 200, "", headers), response);
}

int64_t Http2ServerConnection::readTunnel(
    Stream& stream, Buffer& sink, int64_t byteCount,
    std::optional<std::chrono::steady_clock::time_point> deadline) {
  std::unique_lock lock(mutex_);
  while (stream.in.size() == 0 && !stream.inEnd && !stream.closed && !stream.canceled && !failed_) {
    if (deadline && *deadline <= std::chrono::steady_clock::now()) {
      throw SocketTimeoutException("MockWebServer: timeout reading HTTP/2 stream " +
                                   std::to_string(stream.id));
    }
    auto wait = std::chrono::steady_clock::now() + std::chrono::milliseconds(50);
    stream.changed.wait_until(lock, deadline ? std::min(wait, *deadline) : wait);
    if (server_.closing().fired()) throw ServerClosedException();
  }
  if (stream.in.size() > 0) {
    int64_t count = std::min(byteCount, stream.in.size());
    sink.write(stream.in, count);
    return count;
  }
  if (stream.inEnd) return -1;
  if (stream.canceled) throw InterruptedIOException("canceled");
  if (stream.closed)
    throw StreamResetException(stream.closeErrorCode,
                               resetMessage(stream.id, stream.closeErrorCode));
  throw IOException("MockWebServer: the HTTP/2 connection of stream " + std::to_string(stream.id) +
                    " closed");
}

void Http2ServerConnection::cancelTunnel(Stream& stream) {
  {
    std::lock_guard lock(mutex_);
    stream.canceled = true;
    stream.changed.notify_all();
    stream.inDiscarded = true;
    stream.in.clear();
    if (stream.closed || failed_) return;
    if (stream.outEnd) {
      // Our side is complete (the WebSocket's close frame is queued or out): the client need
      // only stop sending, which is no error (RFC 9113 §8.1).
      resetAfterEndLocked(stream, NGHTTP2_NO_ERROR);
    } else {
      nghttp2_submit_rst_stream(session_, NGHTTP2_FLAG_NONE, stream.id, NGHTTP2_CANCEL);
    }
  }
  try {
    flush();
  } catch (const IOException&) {
    // The connection broke: the stream is gone with it, which is what cancel() asked for.
  }
}

}  // namespace tern::mockwebserver::internal
