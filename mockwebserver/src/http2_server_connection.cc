// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#include "http2_server_connection.h"

#include <nghttp2/nghttp2.h>

#include <algorithm>
#include <cstdio>
#include <span>

#include "http2_header_block.h"
#include "tern/exceptions.h"

namespace tern::mockwebserver::internal {
namespace {

constexpr int32_t kServerWindowSize = 16 * 1024 * 1024;
constexpr int64_t kMaxBufferedResponseBytes = 256 * 1024;
constexpr int64_t kMaxWriteBatch = 256 * 1024;

}  // namespace

struct Http2ServerConnection::Callbacks {
  static Http2ServerConnection& self(void* userData) {
    return *static_cast<Http2ServerConnection*>(userData);
  }

  static Stream* stream(Http2ServerConnection& c, int32_t id) {
    auto it = c.streams_.find(id);
    return it == c.streams_.end() ? nullptr : it->second.get();
  }

  static int onBeginHeaders(nghttp2_session* session, const nghttp2_frame* frame, void* userData) {
    Http2ServerConnection& c = self(userData);
    if (frame->hd.type != NGHTTP2_HEADERS || frame->headers.cat != NGHTTP2_HCAT_REQUEST) return 0;
    auto s = std::make_shared<Stream>();
    s->id = frame->hd.stream_id;
    s->body = std::make_unique<TruncatingSink>(c.server_.bodyLimit());
    ++c.streamsSeen_;
    if (c.goAwayAfterStreams_ > 0 && c.streamsSeen_ > c.goAwayAfterStreams_) {
      // RFC 9113 §6.8: the client retries the streams above last-stream-id elsewhere.
      s->refused = true;
      if (!c.goAwaySent_) {
        c.goAwaySent_ = true;
        nghttp2_submit_goaway(session, NGHTTP2_FLAG_NONE, c.lastServedStreamId_, NGHTTP2_NO_ERROR,
                              nullptr, 0);
      }
    } else {
      s->sequenceNumber = c.nextSequenceNumber_++;
      c.lastServedStreamId_ = s->id;
    }
    c.streams_[s->id] = std::move(s);
    return 0;
  }

  static int onHeader(nghttp2_session*, const nghttp2_frame* frame, const uint8_t* name,
                      size_t nameLength, const uint8_t* value, size_t valueLength, uint8_t,
                      void* userData) {
    if (frame->hd.type != NGHTTP2_HEADERS || frame->headers.cat != NGHTTP2_HCAT_REQUEST) return 0;
    if (Stream* s = stream(self(userData), frame->hd.stream_id)) {
      s->headers.emplace_back(std::string(reinterpret_cast<const char*>(name), nameLength),
                              std::string(reinterpret_cast<const char*>(value), valueLength));
    }
    return 0;
  }

  static int onDataChunkRecv(nghttp2_session*, uint8_t, int32_t streamId, const uint8_t* data,
                             size_t length, void* userData) {
    Stream* s = stream(self(userData), streamId);
    if (s && s->connect) {
      if (!s->inDiscarded) s->in.write(data, length);
      s->changed.notify_all();
    } else if (s) {
      Buffer bytes;
      bytes.write(data, length);
      s->body->write(bytes, static_cast<int64_t>(length));
    }
    return 0;
  }

  static int onFrameRecv(nghttp2_session*, const nghttp2_frame* frame, void* userData) {
    Http2ServerConnection& c = self(userData);
    if (frame->hd.type != NGHTTP2_HEADERS && frame->hd.type != NGHTTP2_DATA) return 0;
    auto it = c.streams_.find(frame->hd.stream_id);
    if (it == c.streams_.end()) return 0;
    std::shared_ptr<Stream>& s = it->second;
    const bool endStream = frame->hd.flags & NGHTTP2_FLAG_END_STREAM;
    if (frame->hd.type == NGHTTP2_HEADERS && !s->dispatched) {
      for (const auto& [name, value] : s->headers) {
        if (name == ":method" && value == "CONNECT") s->connect = true;
      }
    }
    if (s->connect && endStream) {
      s->inEnd = true;
      s->changed.notify_all();
    }
    if (s->refused || s->dispatched) return 0;
    if (endStream) {
      c.startResponder(s, false);
    } else if (s->connect) {
      // A tunnel (RFC 9113 §8.5, RFC 8441 §4): the request never ends while it is open.
      c.startResponder(s, true);
    } else if (frame->hd.type == NGHTTP2_HEADERS) {
      // Policies that answer before the request body: decide on the response to come.
      const SocketPolicy policy = c.server_.dispatcher()->peek().socketPolicy();
      if (policy.is<SocketPolicy::ResetStreamAtStart>() ||
          policy.is<SocketPolicy::DoNotReadRequestBody>()) {
        c.startResponder(s, true);
      }
    }
    return 0;
  }

  static int onFrameSend(nghttp2_session* session, const nghttp2_frame* frame, void* userData) {
    if (frame->hd.type != NGHTTP2_HEADERS && frame->hd.type != NGHTTP2_DATA) return 0;
    if (!(frame->hd.flags & NGHTTP2_FLAG_END_STREAM)) return 0;
    Stream* s = stream(self(userData), frame->hd.stream_id);
    if (!s) return 0;
    s->endSent = true;
    // The client's END_STREAM came already: the stream closes now, with nothing to stop.
    if (s->resetAfterEnd && !nghttp2_session_get_stream_remote_close(session, s->id)) {
      nghttp2_submit_rst_stream(session, NGHTTP2_FLAG_NONE, s->id, *s->resetAfterEnd);
    }
    s->resetAfterEnd.reset();
    return 0;
  }

  static int onStreamClose(nghttp2_session*, int32_t streamId, uint32_t errorCode, void* userData) {
    Http2ServerConnection& c = self(userData);
    auto it = c.streams_.find(streamId);
    if (it == c.streams_.end()) return 0;
    it->second->closed = true;
    it->second->closeErrorCode = errorCode;
    it->second->changed.notify_all();
    c.streams_.erase(it);
    return 0;
  }

  static ssize_t readResponseBody(nghttp2_session* session, int32_t streamId, uint8_t* buffer,
                                  size_t length, uint32_t* flags, nghttp2_data_source*,
                                  void* userData) {
    Stream* s = stream(self(userData), streamId);
    if (!s) return NGHTTP2_ERR_TEMPORAL_CALLBACK_FAILURE;
    if (s->out.size() == 0 && !s->outEnd) {
      s->outDeferred = true;
      return NGHTTP2_ERR_DEFERRED;
    }
    size_t count = std::min(length, static_cast<size_t>(s->out.size()));
    s->out.readFully(std::span<std::byte>(reinterpret_cast<std::byte*>(buffer), count));
    if (s->out.size() == 0 && s->outEnd) {
      *flags |= NGHTTP2_DATA_FLAG_EOF;
      if (s->trailers.size() > 0) {
        // A trailing HEADERS frame ends the stream instead (RFC 9113 §8.1).
        *flags |= NGHTTP2_DATA_FLAG_NO_END_STREAM;
        NameValues trailers;
        for (const auto& [name, value] : s->trailers) trailers.add(toLower(name), value);
        nghttp2_submit_trailer(session, streamId, trailers.build(), trailers.storage.size());
      }
    }
    s->changed.notify_all();
    return static_cast<ssize_t>(count);
  }
};

Http2ServerConnection::Http2ServerConnection(ServerState& server, ConnectionSocket& socket,
                                             int connectionIndex,
                                             std::optional<Handshake> handshake,
                                             std::vector<std::string> handshakeServerNames)
    : server_(server),
      socket_(socket),
      connectionIndex_(connectionIndex),
      handshake_(std::move(handshake)),
      handshakeServerNames_(std::move(handshakeServerNames)),
      goAwayAfterStreams_(server.goAwayAfterStreams()) {
  nghttp2_session_callbacks* callbacks = nullptr;
  if (nghttp2_session_callbacks_new(&callbacks) != 0) throw std::bad_alloc();
  nghttp2_session_callbacks_set_on_begin_headers_callback(callbacks, &Callbacks::onBeginHeaders);
  nghttp2_session_callbacks_set_on_header_callback(callbacks, &Callbacks::onHeader);
  nghttp2_session_callbacks_set_on_data_chunk_recv_callback(callbacks, &Callbacks::onDataChunkRecv);
  nghttp2_session_callbacks_set_on_frame_recv_callback(callbacks, &Callbacks::onFrameRecv);
  nghttp2_session_callbacks_set_on_stream_close_callback(callbacks, &Callbacks::onStreamClose);
  nghttp2_session_callbacks_set_on_frame_send_callback(callbacks, &Callbacks::onFrameSend);
  nghttp2_option* option = nullptr;
  if (nghttp2_option_new(&option) != 0) {
    nghttp2_session_callbacks_del(callbacks);
    throw std::bad_alloc();
  }
  // Scripted responses may carry header lists beyond nghttp2's default 64 KiB block, to test a
  // client's limits.
  nghttp2_option_set_max_send_header_block_length(option, 1024 * 1024);
  int result = nghttp2_session_server_new2(&session_, callbacks, this, option);
  nghttp2_session_callbacks_del(callbacks);
  nghttp2_option_del(option);
  if (result != 0) throw std::bad_alloc();
}

Http2ServerConnection::~Http2ServerConnection() {
  joinFinishedResponders(true);
  nghttp2_session_del(session_);
}

void Http2ServerConnection::serve() noexcept {
  try {
    if (server_.dispatcher()->peek().socketPolicy().is<SocketPolicy::StallSocketAtStart>()) {
      server_.dispatchBookkeepingRequest(0, connectionIndex_);
      server_.closing().awaitClose();  // Ignore the socket until the server closes.
    }
    {
      std::lock_guard lock(mutex_);
      std::vector<nghttp2_settings_entry> settings = {
          {NGHTTP2_SETTINGS_INITIAL_WINDOW_SIZE, static_cast<uint32_t>(kServerWindowSize)}};
      // RFC 8441 §3. nghttp2 accepts a :protocol pseudo-header only once this is submitted, and
      // refuses such a stream (RST_STREAM PROTOCOL_ERROR) without it.
      if (server_.extendedConnect()) {
        settings.push_back({NGHTTP2_SETTINGS_ENABLE_CONNECT_PROTOCOL, 1});
      }
      nghttp2_submit_settings(session_, NGHTTP2_FLAG_NONE, settings.data(), settings.size());
      nghttp2_session_set_local_window_size(session_, NGHTTP2_FLAG_NONE, 0, kServerWindowSize);
    }
    flush();
    Buffer buffer;
    while (socket_.source().read(buffer, 64 * 1024) != -1) {
      {
        std::lock_guard lock(mutex_);
        if (failed_) break;
        while (buffer.size() > 0) {
          std::span<const std::byte> segment = buffer.readableSegment(0);
          ssize_t result = nghttp2_session_mem_recv(
              session_, reinterpret_cast<const uint8_t*>(segment.data()), segment.size());
          if (result < 0) throw ProtocolException("MockWebServer: HTTP/2 protocol error");
          buffer.skip(static_cast<int64_t>(segment.size()));
        }
      }
      flush();
      joinFinishedResponders(false);
    }
  } catch (const IOException&) {
    // The client went away, broke HTTP/2 (nghttp2 queued a GOAWAY), or the server is closing.
  } catch (const std::exception& e) {
    std::fprintf(stderr, "MockWebServer[%d] HTTP/2 connection %d failed: %s\n", server_.port(),
                 connectionIndex_, e.what());
  }
  try {
    flush();  // A GOAWAY for a protocol error, if the socket still takes it.
  } catch (const std::exception&) {
    // The connection is over either way.
  }
  {
    std::lock_guard lock(mutex_);
    failed_ = true;
    for (auto& [id, stream] : streams_) stream->changed.notify_all();
  }
  disconnect();
  joinFinishedResponders(true);
  socket_.close();
}

void Http2ServerConnection::startResponder(const std::shared_ptr<Stream>& stream, bool bodyUnread) {
  stream->dispatched = true;
  auto responder = std::make_unique<ResponderThread>();
  ResponderThread* raw = responder.get();
  responders_.push_back(std::move(responder));
  raw->thread = std::thread([this, raw, stream, bodyUnread] {
    respond(stream, bodyUnread);
    raw->done.store(true, std::memory_order_release);
  });
}

void Http2ServerConnection::joinFinishedResponders(bool all) {
  std::list<std::unique_ptr<ResponderThread>> finished;
  {
    std::lock_guard lock(mutex_);
    for (auto it = responders_.begin(); it != responders_.end();) {
      auto next = std::next(it);
      if (all || (*it)->done.load(std::memory_order_acquire)) {
        finished.splice(finished.end(), responders_, it);
      }
      it = next;
    }
  }
  for (auto& responder : finished) responder->thread.join();
}

RecordedRequest Http2ServerConnection::recordedRequest(Stream& stream) {
  std::lock_guard lock(mutex_);
  RequestHead head = requestHead(stream.headers, "http",
                                 server_.hostAddress() + ":" + std::to_string(server_.port()));
  return RecordedRequest(head.method + " " + head.target + " HTTP/2", std::move(head.headers), {},
                         stream.body->receivedByteCount(), stream.body->kept().copy().readUtf8(),
                         stream.sequenceNumber, connectionIndex_,
                         head.url ? *head.url : server_.rootUrl(), nullptr, handshake_,
                         handshakeServerNames_, stream.id);
}

void Http2ServerConnection::respond(const std::shared_ptr<Stream>& stream, bool bodyUnread) {
  try {
    RecordedRequest request = recordedRequest(*stream);
    server_.record(request);
    MockResponse response = server_.dispatch(request);
    if (server_.closing().fired()) return;
    const SocketPolicy& policy = response.socketPolicy();
    // The policies that answer nothing come first, as over HTTP/1.1: a WebSocket's handshake
    // meets them too.
    const bool unanswered = policy.is<SocketPolicy::ResetStreamAtStart>() ||
                            policy.is<SocketPolicy::NoResponse>() ||
                            policy.is<SocketPolicy::DisconnectAfterRequest>() ||
                            policy.is<SocketPolicy::HalfCloseAfterRequest>();
    if (!unanswered && response.webSocketListener() && isWebSocketConnect(request)) {
      respondWebSocket(stream, request, response);
      return;
    }
    if (bodyUnread) {
      std::lock_guard lock(mutex_);
      stream->inDiscarded = true;  // An ordinary response: the tunnel has no reader.
      stream->in.clear();
    }
    if (const auto* reset = policy.getIf<SocketPolicy::ResetStreamAtStart>()) {
      {
        std::lock_guard lock(mutex_);
        nghttp2_submit_rst_stream(session_, NGHTTP2_FLAG_NONE, stream->id, reset->http2ErrorCode);
      }
      flush();
      return;
    }
    if (policy.is<SocketPolicy::NoResponse>()) return;  // This stream only; the rest go on.
    if (policy.is<SocketPolicy::DisconnectAfterRequest>() ||
        policy.is<SocketPolicy::HalfCloseAfterRequest>()) {
      disconnect();
      return;
    }
    if (!response.settings().empty()) {
      const Http2Settings& s = response.settings();
      std::vector<nghttp2_settings_entry> entries;
      if (s.headerTableSize)
        entries.push_back({NGHTTP2_SETTINGS_HEADER_TABLE_SIZE, *s.headerTableSize});
      if (s.maxConcurrentStreams) {
        entries.push_back({NGHTTP2_SETTINGS_MAX_CONCURRENT_STREAMS, *s.maxConcurrentStreams});
      }
      if (s.initialWindowSize) {
        entries.push_back({NGHTTP2_SETTINGS_INITIAL_WINDOW_SIZE, *s.initialWindowSize});
      }
      if (s.maxFrameSize) entries.push_back({NGHTTP2_SETTINGS_MAX_FRAME_SIZE, *s.maxFrameSize});
      if (s.maxHeaderListSize) {
        entries.push_back({NGHTTP2_SETTINGS_MAX_HEADER_LIST_SIZE, *s.maxHeaderListSize});
      }
      std::lock_guard lock(mutex_);
      nghttp2_submit_settings(session_, NGHTTP2_FLAG_NONE, entries.data(), entries.size());
    }
    for (const MockResponse& informational : response.informationalResponses()) {
      server_.closing().sleep(informational.headersDelay());
      NameValues headers = responseHeaders(informational, true);
      std::lock_guard lock(mutex_);
      nghttp2_submit_headers(session_, NGHTTP2_FLAG_NONE, stream->id, nullptr, headers.build(),
                             headers.storage.size(), nullptr);
    }
    server_.closing().sleep(response.headersDelay());
    const bool hasBody = response.hasBody() || response.trailers().size() > 0;
    {
      NameValues headers = responseHeaders(response, false);
      std::lock_guard lock(mutex_);
      if (stream->closed || failed_) return;
      stream->trailers = response.trailers();
      submitResponseLocked(*stream, headers, hasBody);
    }
    flush();
    if (hasBody) {
      server_.closing().sleep(response.bodyDelay());
      if (!writeBody(stream, response)) return;
    }
    if (const auto* doNotRead = policy.getIf<SocketPolicy::DoNotReadRequestBody>()) {
      {
        std::lock_guard lock(mutex_);
        resetAfterEndLocked(*stream, doNotRead->http2ErrorCode);
      }
      flush();
    } else if (bodyUnread) {
      // The response is complete: the client may stop sending, without error (RFC 9113 §8.1).
      std::lock_guard lock(mutex_);
      resetAfterEndLocked(*stream, NGHTTP2_NO_ERROR);
    }
    if (policy.is<SocketPolicy::DisconnectAtEnd>() ||
        policy.is<SocketPolicy::ShutdownServerAfterResponse>() ||
        policy.is<SocketPolicy::ShutdownOutputAtEnd>() ||
        policy.is<SocketPolicy::ShutdownInputAtEnd>()) {
      awaitDrained(stream);
      flush();
      if (policy.is<SocketPolicy::DisconnectAtEnd>()) disconnect();
      if (policy.is<SocketPolicy::ShutdownOutputAtEnd>()) socket_.shutdownOutput();
      if (policy.is<SocketPolicy::ShutdownInputAtEnd>()) socket_.shutdownInput();
      if (policy.is<SocketPolicy::ShutdownServerAfterResponse>()) server_.beginShutdown();
    }
  } catch (const IOException&) {
    // The client went away or the server is closing: the stream ends with the connection.
  } catch (const std::exception& e) {
    std::fprintf(stderr, "MockWebServer[%d] HTTP/2 stream %d failed: %s\n", server_.port(),
                 stream->id, e.what());
  }
  try {
    flush();
  } catch (const std::exception&) {
    // Nothing left to tell: the connection failed, and the reader ends it.
  }
}

bool Http2ServerConnection::writeBody(const std::shared_ptr<Stream>& stream,
                                      const MockResponse& response) {
  Buffer body = unchunkedBody(response);
  const int64_t total = body.size();
  const int64_t bytesPerPeriod = response.throttleBytesPerPeriod();
  const bool disconnectHalfway =
      response.socketPolicy().is<SocketPolicy::DisconnectDuringResponseBody>();
  int64_t sent = 0;
  int64_t sincePause = 0;
  while (body.size() > 0) {
    if (disconnectHalfway && sent >= total / 2) {
      awaitDrained(stream);
      disconnect();
      return false;
    }
    if (sincePause >= bytesPerPeriod) {
      if (!awaitDrained(stream)) return false;
      server_.closing().sleep(response.throttlePeriod());
      sincePause = 0;
    }
    int64_t count = std::min({body.size(), bytesPerPeriod - sincePause, int64_t{64 * 1024}});
    if (disconnectHalfway) count = std::min(count, std::max<int64_t>(total / 2 - sent, 1));
    if (!writeOut(*stream, body, count)) return false;
    sent += count;
    sincePause += count;
  }
  return endOut(*stream);
}

bool Http2ServerConnection::writeOut(
    Stream& stream, Buffer& source, int64_t byteCount,
    std::optional<std::chrono::steady_clock::time_point> deadline) {
  {
    std::unique_lock lock(mutex_);
    while (stream.out.size() >= kMaxBufferedResponseBytes && !stream.closed && !stream.canceled &&
           !failed_) {
      auto wait = std::chrono::steady_clock::now() + std::chrono::milliseconds(50);
      if (deadline && *deadline <= std::chrono::steady_clock::now()) {
        throw SocketTimeoutException("MockWebServer: timeout writing HTTP/2 stream " +
                                     std::to_string(stream.id));
      }
      stream.changed.wait_until(lock, deadline ? std::min(wait, *deadline) : wait);
      if (server_.closing().fired()) throw ServerClosedException();
    }
    if (stream.closed || stream.canceled || failed_) return false;
    stream.out.write(source, byteCount);
    if (stream.outDeferred) {
      stream.outDeferred = false;
      nghttp2_session_resume_data(session_, stream.id);
    }
  }
  flush();
  return true;
}

bool Http2ServerConnection::endOut(Stream& stream) {
  {
    std::lock_guard lock(mutex_);
    if (stream.closed || stream.canceled || failed_) return false;
    stream.outEnd = true;
    if (stream.outDeferred) {
      stream.outDeferred = false;
      nghttp2_session_resume_data(session_, stream.id);
    }
  }
  flush();
  return true;
}

bool Http2ServerConnection::awaitDrained(const std::shared_ptr<Stream>& stream) {
  std::unique_lock lock(mutex_);
  while (stream->out.size() > 0 && !stream->closed && !failed_) {
    stream->changed.wait_for(lock, std::chrono::milliseconds(50));
    if (server_.closing().fired()) throw ServerClosedException();
  }
  return !failed_;
}

void Http2ServerConnection::submitResponseLocked(Stream& stream, NameValues& headers,
                                                 bool hasBody) {
  nghttp2_data_provider provider{};
  provider.read_callback = &Callbacks::readResponseBody;
  nghttp2_submit_response(session_, stream.id, headers.build(), headers.storage.size(),
                          hasBody ? &provider : nullptr);
}

void Http2ServerConnection::resetAfterEndLocked(Stream& stream, uint32_t errorCode) {
  if (stream.closed || failed_) return;
  if (stream.endSent) {
    nghttp2_submit_rst_stream(session_, NGHTTP2_FLAG_NONE, stream.id, errorCode);
  } else {
    stream.resetAfterEnd = errorCode;  // Callbacks::onFrameSend sends it.
  }
}

void Http2ServerConnection::disconnect() {
  socket_.shutdownInput();
  socket_.shutdownOutput();
}

void Http2ServerConnection::flush() {
  std::unique_lock lock(mutex_);
  if (writing_) return;
  writing_ = true;
  while (true) {
    Buffer out;
    while (!failed_ && out.size() < kMaxWriteBatch) {
      const uint8_t* data = nullptr;
      ssize_t count = nghttp2_session_mem_send(session_, &data);
      if (count <= 0) break;
      out.write(data, static_cast<size_t>(count));
    }
    if (out.size() == 0) {
      writing_ = false;
      return;
    }
    lock.unlock();
    try {
      socket_.sink().write(out, out.size());
    } catch (const IOException&) {
      lock.lock();
      writing_ = false;
      failed_ = true;
      for (auto& [id, stream] : streams_) stream->changed.notify_all();
      throw;
    }
    lock.lock();
  }
}

}  // namespace tern::mockwebserver::internal
