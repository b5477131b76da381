// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>

#include "support/raw_peer.h"

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

// A hand-written HTTP/2 server for one connection, for what MockWebServer cannot be made to do:
// h2c with prior knowledge, or TLS with ALPN h2 (RawPeer's options). It reads the client's
// preface and frames up to its first HEADERS (so stream 1 is open), writes its SETTINGS and the
// ACK of the client's, runs `script`, and then ends the connection as the options say. Loopback
// only; the thread ends by itself within 10 s.
class Http2Peer {
 public:
  using End = RawPeer::End;
  using Options = RawPeer::Options;

  // What the script can do with the connection.
  class Connection {
   public:
    // Writes `bytes`; false once the client is gone.
    bool write(std::string_view bytes) { return raw_.write(bytes); }
    // Sends a PING and reads the client's frames until its ACK, so everything written before it
    // has been processed by the client (RFC 9113 §6.7). Returns false if the connection ended, or
    // the client sent GOAWAY, first.
    bool pingPong();
    // The connection beneath, for what is not HTTP/2 (a FIN, reading the rest).
    RawPeer::Connection& raw() { return raw_; }

   private:
    friend class Http2Peer;
    explicit Connection(RawPeer::Connection& raw) : raw_(raw) {}
    RawPeer::Connection& raw_;
  };

  explicit Http2Peer(std::function<void(Connection&)> script, End end = End::kHold);
  Http2Peer(std::function<void(Connection&)> script, Options options);

  std::string url() const { return peer_.url(); }

 private:
  RawPeer peer_;
};

}  // namespace tern::testing
