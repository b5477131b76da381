// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#pragma once

#include <chrono>
#include <cstdint>
#include <map>
#include <mutex>
#include <optional>
#include <ostream>
#include <string>
#include <utility>
#include <vector>

#include "tern/connection.h"
#include "tern/interceptor.h"

namespace tern::tool {

// What the NetworkObserver saw of one transfer's exchanges (each redirect hop and retry).
struct ExchangeLog {
  // Connections this transfer made (%{num_connects}): 0 when it reused a pooled one.
  int newConnections = 0;
  // Redirects the client followed or is about to follow.
  int redirects = 0;
  // Each network response's head as received (status line, headers, blank line), in order: -i
  // prints them all, as curl -L -i does, and their bytes are %{size_header}.
  std::vector<std::string> responseHeads;
  // From the transfer's start until the first new TLS connection was ready (its handshake and
  // checks done), for %{time_appconnect}; zero if the transfer made none.
  std::chrono::nanoseconds timeAppConnect{0};
  // The IP address and port of the last connection used (%{remote_ip}, %{remote_port}).
  std::string remoteIp;
  int remotePort = 0;
  // When the transfer began, for timeAppConnect.
  std::chrono::steady_clock::time_point start;
};

// The tool's network interceptor: it sees every exchange the client makes, on its connection.
//
// - It notes when a transfer's first new TLS connection is ready, for %{time_appconnect}: network
//   interceptors run once the connection (and its handshake) is made, so the time it first sees
//   a new https connection is when that connection became usable. (An EventListener will time
//   this more finely once tern has one.)
// - It counts new connections for %{num_connects}. tern has no EventListener yet, so a connection
//   is recognised by the Connection object's address together with its local socket address
//   (the ephemeral port): the pair is new exactly when the client opened a new connection, and
//   the local address guards against a new connection allocated where an old one was freed.
//   The pool's connectionCount() is not used because it cannot tell a new connection from an
//   old one that was evicted meanwhile.
// - With -v it prints curl's "* Connected to ..." / "* Re-using existing connection ..." line
//   and the request and response heads, prefixed "> " and "< ", to the verbose stream.
// - It removes headers the client adds by itself (Host, User-Agent, ...) that -H "Name:" drops.
// - With --max-redirs N it fails the call with TooManyRedirectsException when a response asks
//   for the redirect after the Nth; the Client has no redirect limit of its own to set (it stops
//   after 20 follow-ups).
//
// Thread-safe: with -Z many calls run at once, each with its own log, keyed by the call.
// begin(call) starts a transfer's log and take(call) ends it.
class NetworkObserver final : public Interceptor {
 public:
  // `verbose` is where -v writes, or null without -v; it must outlive the observer.
  // `maxRedirects` is --max-redirs (nullopt or -1: the client's own limit).
  NetworkObserver(std::ostream* verbose, std::vector<std::string> droppedHeaders,
                  std::optional<int64_t> maxRedirects);

  // Starts a new transfer's log for `call`, which began at `start` (the connections seen stay
  // known).
  void begin(const Call& call,
             std::chrono::steady_clock::time_point start = std::chrono::steady_clock::now());
  // Ends `call`'s log and returns it.
  ExchangeLog take(const Call& call);

  Response intercept(Chain& chain) override;

 private:
  // Returns the connection's number ("#0" is the first), counting it if it is new. Lock held.
  int connectionNumber(const Connection& connection, bool& isNew);

  std::ostream* verbose_;
  std::vector<std::string> droppedHeaders_;
  std::optional<int64_t> maxRedirects_;
  std::mutex mutex_;  // Guards the maps below and writes to verbose_.
  std::map<std::pair<const Connection*, std::string>, int> connections_;
  std::map<const Call*, ExchangeLog> logs_;
};

}  // namespace tern::tool
