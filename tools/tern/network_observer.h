// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "tern/interceptor.h"

namespace tern::tool {

// What the NetworkObserver saw of one transfer's exchanges (each redirect hop and retry).
struct ExchangeLog {
  // Redirects the client followed or is about to follow.
  int redirects = 0;
  // Each network response's head as received (status line, headers, blank line), in order: -i
  // prints them all, as curl -L -i does, and their bytes are %{size_header}.
  std::vector<std::string> responseHeads;
};

// The tool's network interceptor, for what only an interceptor can do (what a transfer's events
// show, connections, -v and timings, is TransferEvents' job):
// - It removes headers the client adds by itself (Host, User-Agent, ...) that -H "Name:" drops.
// - It keeps every response head for -i and %{size_header}.
// - With --max-redirs N it fails the call with TooManyRedirectsException when a response asks
//   for the redirect after the Nth; the Client has no redirect limit of its own to set (it stops
//   after 20 follow-ups).
//
// The tool runs its transfers one after another on one thread, so the observer is used by one
// call at a time and needs no lock. begin() starts a new transfer's log.
class NetworkObserver final : public Interceptor {
 public:
  // `maxRedirects` is --max-redirs (nullopt or -1: the client's own limit).
  NetworkObserver(std::vector<std::string> droppedHeaders, std::optional<int64_t> maxRedirects);

  // Starts a new transfer: clears the log.
  void begin();
  const ExchangeLog& log() const noexcept { return log_; }

  Response intercept(Chain& chain) override;

 private:
  std::vector<std::string> droppedHeaders_;
  std::optional<int64_t> maxRedirects_;
  ExchangeLog log_;
};

}  // namespace tern::tool
