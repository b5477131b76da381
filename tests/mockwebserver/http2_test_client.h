// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#pragma once

#include <nghttp2/nghttp2.h>
#include <poll.h>
#include <sys/socket.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "raw_client.h"

namespace tern::mockwebserver::testing {

// A plain HTTP/2 client (h2c with prior knowledge) on nghttp2's client API, for what tern's
// client does not send: extended CONNECT (RFC 8441), DATA on a request stream at will,
// RST_STREAM. Single-threaded: nothing moves until the test calls awaitUntil(), which writes
// what nghttp2 has pending and feeds it what arrives, so each test controls the order exactly.
class Http2TestClient {
 public:
  using Fields = std::vector<std::pair<std::string, std::string>>;

  // What the server sent on one stream.
  struct StreamState {
    std::optional<int> status;
    Fields headers;               // The response's, pseudo-headers included.
    std::string data;             // Every DATA payload, in order.
    bool endStream = false;       // The server ended its side.
    bool closed = false;          // nghttp2 closed the stream.
    uint32_t closeErrorCode = 0;  // Once closed: the RST_STREAM code, or NO_ERROR.
    std::optional<std::string> header(const std::string& name) const {
      for (const auto& [n, v] : headers) {
        if (n == name) return v;
      }
      return std::nullopt;
    }
  };

  // Connects to 127.0.0.1:`port` and queues the preface and an empty SETTINGS.
  explicit Http2TestClient(int port) : socket_(port) {
    nghttp2_session_callbacks* callbacks = nullptr;
    nghttp2_session_callbacks_new(&callbacks);
    nghttp2_session_callbacks_set_send_callback(callbacks, &sendCallback);
    nghttp2_session_callbacks_set_on_header_callback(callbacks, &onHeader);
    nghttp2_session_callbacks_set_on_data_chunk_recv_callback(callbacks, &onData);
    nghttp2_session_callbacks_set_on_frame_recv_callback(callbacks, &onFrame);
    nghttp2_session_callbacks_set_on_stream_close_callback(callbacks, &onClose);
    nghttp2_session_client_new(&session_, callbacks, this);
    nghttp2_session_callbacks_del(callbacks);
    nghttp2_submit_settings(session_, NGHTTP2_FLAG_NONE, nullptr, 0);
  }
  ~Http2TestClient() { nghttp2_session_del(session_); }
  Http2TestClient(const Http2TestClient&) = delete;
  Http2TestClient& operator=(const Http2TestClient&) = delete;

  // Opens a stream with `fields` (pseudo-headers first). With `endStream` the request has no
  // body; without, sendData() writes it. Returns the stream id.
  int32_t request(const Fields& fields, bool endStream) {
    std::vector<nghttp2_nv> nva;
    for (const auto& [name, value] : fields) {
      nva.push_back({const_cast<uint8_t*>(reinterpret_cast<const uint8_t*>(name.data())),
                     const_cast<uint8_t*>(reinterpret_cast<const uint8_t*>(value.data())),
                     name.size(), value.size(), NGHTTP2_NV_FLAG_NONE});
    }
    nghttp2_data_provider provider{};
    provider.read_callback = &readOut;
    int32_t id = nghttp2_submit_request(session_, nullptr, nva.data(), nva.size(),
                                        endStream ? nullptr : &provider, nullptr);
    if (id < 0) throw std::runtime_error(nghttp2_strerror(id));
    return id;
  }

  // Queues `bytes` on `streamId` (opened without endStream), then END_STREAM if `endStream`.
  void sendData(int32_t streamId, const std::string& bytes, bool endStream = false) {
    Outgoing& out = outgoing_[streamId];
    out.bytes += bytes;
    out.end = out.end || endStream;
    nghttp2_session_resume_data(session_, streamId);
  }

  void reset(int32_t streamId, uint32_t errorCode) {
    nghttp2_submit_rst_stream(session_, NGHTTP2_FLAG_NONE, streamId, errorCode);
  }

  // Exchanges frames until `done()` or `timeout`; false on timeout or if the server closed the
  // connection first.
  bool awaitUntil(const std::function<bool()>& done,
                  std::chrono::milliseconds timeout = std::chrono::seconds(10)) {
    const auto deadline = std::chrono::steady_clock::now() + timeout;
    while (true) {
      if (nghttp2_session_send(session_) != 0) return false;
      flushOut();
      if (done()) return true;
      if (disconnected_ || std::chrono::steady_clock::now() >= deadline) return false;
      if (!socket_.readableWithin(std::chrono::milliseconds(20))) continue;
      std::string bytes = socket_.readSome();
      if (bytes.empty()) {
        disconnected_ = true;
        continue;
      }
      if (nghttp2_session_mem_recv(session_, reinterpret_cast<const uint8_t*>(bytes.data()),
                                   bytes.size()) < 0) {
        return false;
      }
    }
  }

  // The server's SETTINGS value for `id`, once its SETTINGS arrived (awaitSettings()).
  uint32_t remoteSetting(nghttp2_settings_id id) const {
    return nghttp2_session_get_remote_settings(session_, id);
  }
  bool awaitSettings() {
    return awaitUntil([this] { return settingsReceived_; });
  }

  const StreamState& stream(int32_t id) { return streams_[id]; }
  // True once the server ended the connection (end of stream on the socket).
  bool disconnected() const { return disconnected_; }

 private:
  struct Outgoing {
    std::string bytes;
    bool end = false;
  };

  void flushOut() {
    if (!pendingWrite_.empty()) {
      socket_.send(pendingWrite_);
      pendingWrite_.clear();
    }
  }

  static Http2TestClient& self(void* userData) { return *static_cast<Http2TestClient*>(userData); }

  static ssize_t sendCallback(nghttp2_session*, const uint8_t* data, size_t length, int,
                              void* userData) {
    self(userData).pendingWrite_.append(reinterpret_cast<const char*>(data), length);
    return static_cast<ssize_t>(length);
  }

  static int onHeader(nghttp2_session*, const nghttp2_frame* frame, const uint8_t* name,
                      size_t nameLength, const uint8_t* value, size_t valueLength, uint8_t,
                      void* userData) {
    StreamState& s = self(userData).streams_[frame->hd.stream_id];
    std::string n(reinterpret_cast<const char*>(name), nameLength);
    std::string v(reinterpret_cast<const char*>(value), valueLength);
    if (n == ":status") s.status = std::stoi(v);
    s.headers.emplace_back(std::move(n), std::move(v));
    return 0;
  }

  static int onData(nghttp2_session*, uint8_t, int32_t streamId, const uint8_t* data, size_t length,
                    void* userData) {
    self(userData).streams_[streamId].data.append(reinterpret_cast<const char*>(data), length);
    return 0;
  }

  static int onFrame(nghttp2_session*, const nghttp2_frame* frame, void* userData) {
    Http2TestClient& c = self(userData);
    if (frame->hd.type == NGHTTP2_SETTINGS && !(frame->hd.flags & NGHTTP2_FLAG_ACK)) {
      c.settingsReceived_ = true;
    }
    if ((frame->hd.type == NGHTTP2_DATA || frame->hd.type == NGHTTP2_HEADERS) &&
        (frame->hd.flags & NGHTTP2_FLAG_END_STREAM)) {
      c.streams_[frame->hd.stream_id].endStream = true;
    }
    return 0;
  }

  static int onClose(nghttp2_session*, int32_t streamId, uint32_t errorCode, void* userData) {
    StreamState& s = self(userData).streams_[streamId];
    s.closed = true;
    s.closeErrorCode = errorCode;
    return 0;
  }

  static ssize_t readOut(nghttp2_session*, int32_t streamId, uint8_t* buffer, size_t length,
                         uint32_t* flags, nghttp2_data_source*, void* userData) {
    Outgoing& out = self(userData).outgoing_[streamId];
    if (out.bytes.empty() && !out.end) return NGHTTP2_ERR_DEFERRED;
    size_t count = std::min(length, out.bytes.size());
    out.bytes.copy(reinterpret_cast<char*>(buffer), count);
    out.bytes.erase(0, count);
    if (out.bytes.empty() && out.end) *flags |= NGHTTP2_DATA_FLAG_EOF;
    return static_cast<ssize_t>(count);
  }

  RawClient socket_;
  nghttp2_session* session_ = nullptr;
  std::string pendingWrite_;
  std::map<int32_t, StreamState> streams_;
  std::map<int32_t, Outgoing> outgoing_;
  bool settingsReceived_ = false;
  bool disconnected_ = false;
};

}  // namespace tern::mockwebserver::testing
