// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "debug_output.h"
#include "options.h"
#include "tern/interceptor.h"

namespace tern::tool {

// What the NetworkObserver saw of one transfer's exchanges (each redirect hop and retry).
struct ExchangeLog {
  // Each response's head as received (status line, headers, blank line), in order: -i prints
  // them all, as curl -L -i does, and their bytes are %{size_header}. With --cache, a hop the
  // cache answered has the head it served (the stored one; after a 304, the stored one with the
  // 304's headers) in place of what that hop's exchanges received.
  std::vector<std::string> responseHeads;
};

// The tool's network interceptor, for what only an interceptor can do (what a transfer's events
// show, connections, -v and timings, is TransferEvents' job):
// - It sends the request's headers as curl would (curlRequestHeaders(): curl's order, no
//   Accept-Encoding without --compressed, none that -H "Name:" drops).
// - It keeps every response head for -i and %{size_header}; with --cache, cacheSide() keeps the
//   heads of the responses the cache served, which never pass a network interceptor.
// - With -v, --trace or --trace-ascii, it shows the request body's bytes as they are sent
//   (the body is then held in memory while it is written).
//
// Thread-safe: with -Z many calls run at once, each with its own log, keyed by the call.
// begin(call) starts a transfer's log and take(call) ends it.
class NetworkObserver final : public Interceptor,
                              public std::enable_shared_from_this<NetworkObserver> {
 public:
  // `options` must outlive the observer; `debug` is null without -v or a trace.
  NetworkObserver(const Options& options, std::shared_ptr<DebugOutput> debug);

  // Starts a new transfer's log for `call`.
  void begin(const Call& call);
  // Ends `call`'s log and returns it.
  ExchangeLog take(const Call& call);

  Response intercept(Chain& chain) override;

  // An application interceptor for a client with a cache, added after -L's RedirectFollower so
  // it sees each hop: a response served or validated by the cache replaces the heads its hop
  // logged (a 304, or the 5xx a stale response stands in for) with the head the caller gets.
  std::shared_ptr<Interceptor> cacheSide();

 private:
  class CacheSide;
  // Called by CacheSide around each hop.
  size_t headCount(const Call& call);
  void replaceHeads(const Call& call, size_t from, const Response& served);

  const Options& options_;
  const std::shared_ptr<DebugOutput> debug_;
  std::mutex mutex_;  // Guards logs_.
  std::map<const Call*, ExchangeLog> logs_;
};

}  // namespace tern::tool
