// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#pragma once

#include <chrono>
#include <cstddef>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "tern/dns.h"
#include "tern/export.h"
#include "tern/inet_address.h"

namespace tern {

// A Dns that remembers another Dns's answers for as long as their time to live allows, so that a
// client opening many connections to one host asks its resolver once (what the JVM's
// InetAddress cache does for OkHttp). Wrap any Dns in it:
//
//   auto dns = std::make_shared<CachingDns>(Dns::system());          // 60 s per answer
//   auto doh = std::make_shared<CachingDns>(dnsOverHttps);           // each answer's own TTL
//   Client client = Client::Builder().dns(dns).build();
//
// An answer lives for its TTL (the delegate's lookupWithTtl() or its onTtl()), or defaultTtl when
// the delegate reports none, clamped to [minTtl, maxTtl]; a TTL of 0 is not cached. A host that
// is not found (UnknownHostException) is remembered for negativeTtl, and that exception is thrown
// again until it expires (RFC 2308's negative caching); other exceptions are never cached. At
// most maxEntries names are kept; the least recently used goes first.
//
// Thread-safe. Concurrent lookups of a name that is not cached share one lookup of the delegate:
// the first caller runs it, the others wait for its answer (synchronous callers block; an
// asynchronous caller joining a lookup under way gets the whole answer when it completes, while
// the caller that started it gets each part as it arrives).
class TERN_API CachingDns final : public Dns {
 public:
  struct Options {
    // The TTL of an answer that carries none (the system resolver's).
    std::chrono::seconds defaultTtl{60};
    // Every TTL is raised to at least minTtl and lowered to at most maxTtl.
    std::chrono::seconds minTtl{0};
    std::chrono::seconds maxTtl{std::chrono::hours(24)};
    // How long "not found" is remembered; 0 turns negative caching off. (Java's default.)
    std::chrono::seconds negativeTtl{10};
    // The most names kept.
    size_t maxEntries = 1000;
    // The time, for tests that move it by hand; std::chrono::steady_clock::now when empty.
    std::function<std::chrono::steady_clock::time_point()> clock;
  };

  // Caches `delegate`'s answers. Throws std::invalid_argument if `delegate` is null, a TTL is
  // negative, minTtl > maxTtl, or maxEntries is 0.
  CachingDns(std::shared_ptr<Dns> delegate, Options options);
  // Caches `delegate`'s answers with the default Options.
  explicit CachingDns(std::shared_ptr<Dns> delegate);
  ~CachingDns() override;
  CachingDns(const CachingDns&) = delete;
  CachingDns& operator=(const CachingDns&) = delete;

  std::vector<InetAddress> lookup(const std::string& hostname) override;

  // The answer, from the cache or the delegate; its ttl is the time it has left in the cache.
  DnsAnswer lookupWithTtl(const std::string& hostname) override;

  // A cached answer (or failure) is reported at once on the calling thread; otherwise the
  // delegate's lookupAsync() is used (or joined, when one for this name is under way).
  void lookupAsync(const std::string& hostname, std::shared_ptr<Callback> callback) override;

  // Forgets every answer (lookups under way still store theirs when they complete).
  void evictAll();

  // The number of names cached, expired ones included until they are next looked up.
  size_t size() const;

 private:
  struct State;
  std::shared_ptr<State> state_;  // Shared with asynchronous lookups under way.
};

}  // namespace tern
