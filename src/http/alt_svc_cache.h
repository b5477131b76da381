// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#pragma once

#include <chrono>
#include <compare>
#include <cstddef>
#include <list>
#include <map>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "concurrent/mutex.h"
#include "http/alt_svc.h"
#include "tern/http_url.h"

namespace tern::internal {

// The origin an Alt-Svc field came from (RFC 7838 §2: scheme, host and port, RFC 6454).
struct AltSvcOrigin {
  std::string scheme;  // Lowercase: "https".
  std::string host;    // As HttpUrl::host(): lowercase, IPv6 without brackets.
  int port = 0;

  static AltSvcOrigin of(const HttpUrl& url) { return {url.scheme(), url.host(), url.port()}; }

  auto operator<=>(const AltSvcOrigin&) const = default;
};

// The alternative services known for each origin (RFC 7838 §2.2, §3), in memory: what the
// client may try instead of the origin, until each expires. Entries come only from put(); this
// class does not judge whether a response may set them (that Alt-Svc is only honoured from an
// authoritative origin, §2.1, is the caller's rule).
//
// Bounded: at most maxOrigins origins (the one put longest ago is evicted to make room) with at
// most AltSvcField::kMaxAlternatives alternatives each, so a hostile server naming endless
// origins or alternatives cannot grow it without limit.
//
// Thread-safe: any number of threads may put and look up at once. Times are the caller's
// (`now`), so tests need no clock; the wall clock fits, as expiry outlives a process once the
// cache is persisted.
class AltSvcCache {
 public:
  using TimePoint = std::chrono::system_clock::time_point;

  // One cached alternative: the service as advertised, its host filled in with the origin's
  // when the advertisement left it empty (§3), and when it expires (received time + ma, §3.1).
  struct Entry {
    AltService service;
    TimePoint expiresAt;

    bool operator==(const Entry&) const = default;
  };

  static constexpr std::size_t kDefaultMaxOrigins = 256;

  // An empty cache keeping at most `maxOrigins` origins (at least one).
  explicit AltSvcCache(std::size_t maxOrigins = kDefaultMaxOrigins);
  AltSvcCache(const AltSvcCache&) = delete;
  AltSvcCache& operator=(const AltSvcCache&) = delete;

  // Records the Alt-Svc field `value` (its lines joined with ',') or `fieldLines` of a response
  // from `origin` received at `now`. Per §3 it replaces everything known for the origin: `clear`
  // forgets it, a list becomes its alternatives (ones already expired, ma=0, are not kept). A
  // field with nothing usable (AltSvcField::empty()) changes nothing, as Chromium ignores a
  // header it cannot parse. Returns whether the cache took the field.
  bool put(const AltSvcOrigin& origin, std::string_view value, TimePoint now);
  bool put(const AltSvcOrigin& origin, const std::vector<std::string>& fieldLines, TimePoint now);
  bool put(const AltSvcOrigin& origin, const AltSvcField& field, TimePoint now);

  // The origin's alternatives still fresh at `now` (expiresAt > now), in the server's order of
  // preference (§3), only those for `protocolId` when it is not empty. Expired ones are dropped.
  std::vector<Entry> lookup(const AltSvcOrigin& origin, TimePoint now,
                            std::string_view protocolId = {});

  // Forgets `origin`'s alternatives (as a `clear` from it does).
  void remove(const AltSvcOrigin& origin);

  // How many origins have alternatives stored (expired ones included until a lookup drops them).
  std::size_t size();

 private:
  // Origins in put order, oldest first, each with its alternatives; index_ finds them.
  using Origins = std::list<std::pair<AltSvcOrigin, std::vector<Entry>>>;

  void eraseLocked(const AltSvcOrigin& origin) TERN_REQUIRES(mutex_);

  const std::size_t maxOrigins_;
  Mutex mutex_;
  Origins origins_ TERN_GUARDED_BY(mutex_);
  std::map<AltSvcOrigin, Origins::iterator> index_ TERN_GUARDED_BY(mutex_);
};

}  // namespace tern::internal
