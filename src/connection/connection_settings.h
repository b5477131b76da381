// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#pragma once

#include <chrono>
#include <memory>
#include <string>
#include <vector>

#include "http/alt_svc_cache.h"

namespace tern::internal {

// Client::Builder::addQuicHint(): the https origins at host:port also serve HTTP/3 over QUIC at
// UDP alternatePort of the same host. "*" matches every host, 0 every port; an alternatePort of
// 0 is the origin's own port.
struct QuicHint {
  std::string host;
  int port = 0;
  int alternatePort = 0;
};

// The client's settings the connection layer reads, as a value handed to it when a call plans
// its routes (the layer never sees the Client). A call's own connect, read and write timeouts
// come with each find(), as an interceptor chain may change them.
struct ConnectionSettings {
  // Bounds each write of an HTTP/2 connection's frames (its reader has no timeout: streams
  // time out on their own). Zero: none.
  std::chrono::milliseconds http2WriteTimeout{0};
  // How often an HTTP/2 connection pings the server to check it is alive. Zero: never.
  std::chrono::milliseconds pingInterval{0};
  // Whether a failed TLS handshake is tried again with the next connection spec (and other
  // connection failures on the next route).
  bool retryOnConnectionFailure = true;
  // Whether connects to a host's addresses race (RFC 8305), and how long each attempt has
  // before the next one starts beside it.
  bool fastFallback = true;
  std::chrono::milliseconds fastFallbackDelay{250};
  // The client's Alt-Svc cache when its protocols include HTTP/3, else null: an origin with a
  // fresh "h3" alternative there is connected to over QUIC, raced against TCP.
  std::shared_ptr<AltSvcCache> altSvc;
  // The client's QUIC hints (null: none), looked up after altSvc.
  std::shared_ptr<const std::vector<QuicHint>> quicHints;
};

}  // namespace tern::internal
