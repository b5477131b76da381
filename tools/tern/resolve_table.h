// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#pragma once

#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "tern/dns.h"
#include "tern/inet_address.h"

namespace tern::tool {

// --resolve's entries, as curl's CURLOPT_RESOLVE: "HOST:PORT:ADDR[,ADDR]..." makes HOST at PORT
// resolve to those addresses (an IPv6 one as "[::1]" or "::1"); the first entry for a host and
// port wins.
//
// tern's Dns sees only a host name, not the port, so an entry applies to a name once a transfer
// to that host and port has begun (use()): a redirect to another port of the same host uses an
// entry only if a transfer of the run went to that port. Thread-safe (-Z looks names up on the
// dispatcher's threads).
class ResolveTable {
 public:
  struct Entry {
    std::string host;  // Lower case.
    int port = 0;
    std::vector<InetAddress> addresses;
    std::string text;  // As given, for -v's "Added ... to DNS cache".
  };

  // Parses each entry; check() reports the first that does not parse.
  explicit ResolveTable(const std::vector<std::string>& entries);

  // Throws ToolException (exit 49, curl's "Couldn't parse CURLOPT_RESOLVE entry 'TEXT'") if an
  // entry did not parse: as curl, each transfer then fails.
  void check() const;

  const std::vector<Entry>& entries() const { return entries_; }

  // A transfer to `host` and `port` begins: entries for them apply from now on.
  void use(const std::string& host, int port);

  // A Dns that answers from `table`'s entries in use and asks `fallback` for other names.
  static std::shared_ptr<Dns> dns(std::shared_ptr<ResolveTable> table,
                                  std::shared_ptr<Dns> fallback);

 private:
  std::vector<Entry> entries_;
  std::optional<std::string> badEntry_;
  std::mutex mutex_;  // Guards inUse_.
  std::set<std::pair<std::string, int>> inUse_;
};

}  // namespace tern::tool
