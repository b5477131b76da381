// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <thread>

namespace tern::testing {

// A frame header and payload (RFC 9113 §4.1).
std::string http2Frame(uint8_t type, uint8_t flags, uint32_t stream, std::string_view payload);

// HPACK fields (RFC 7541 §6.2.2, literals without indexing, no Huffman): ":status" by its static
// table index, and a field with a literal name. Values under 127 bytes.
std::string hpackStatus(int code);
std::string hpackLiteral(std::string_view name, std::string_view value);

// Frame types and flags the tests use.
inline constexpr uint8_t kData = 0, kHeaders = 1, kRstStream = 3, kSettings = 4, kPushPromise = 5,
                         kPing = 6, kGoaway = 7;
inline constexpr uint8_t kEndStream = 1, kAck = 1, kEndHeaders = 4;

// A hand-written HTTP/2 server (h2c, prior knowledge) for one connection, for what MockWebServer
// cannot be made to do: it reads the client's preface and frames up to its first HEADERS (so
// stream 1 is open), writes its SETTINGS and the ACK of the client's, runs `script`, and then
// ends the connection as `end` says. Loopback only; the thread ends by itself within 10 s.
class Http2Peer {
 public:
  enum class End {
    kHold,   // Keep the connection open (reading) until the client closes it or 10 s pass.
    kClose,  // Close it cleanly (FIN).
    kReset,  // Abort it (RST, SO_LINGER 0).
  };

  // What the script can do with the connection.
  class Connection {
   public:
    // Writes `bytes`; false once the client is gone.
    bool write(std::string_view bytes);
    // Sends a PING and reads the client's frames until its ACK, so everything written before it
    // has been processed by the client (RFC 9113 §6.7). Returns false if the connection ended, or
    // the client sent GOAWAY, first.
    bool pingPong();

   private:
    friend class Http2Peer;
    explicit Connection(int fd) : fd_(fd) {}
    bool readFully(char* out, size_t length);
    int fd_;
  };

  explicit Http2Peer(std::function<void(Connection&)> script, End end = End::kHold);
  ~Http2Peer();
  Http2Peer(const Http2Peer&) = delete;
  Http2Peer& operator=(const Http2Peer&) = delete;

  std::string url() const;

 private:
  void serve(const std::function<void(Connection&)>& script);

  int listener_ = -1;
  int port_ = 0;
  const End end_;
  std::thread thread_;
};

}  // namespace tern::testing
