// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#pragma once

#include <chrono>
#include <compare>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <list>
#include <map>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "concurrent/mutex.h"
#include "http/alt_svc.h"
#include "tern/http_url.h"
#include "tern/protocol.h"

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
// cache is persisted (load() and save(), in curl's file format).
class AltSvcCache {
 public:
  using TimePoint = std::chrono::system_clock::time_point;

  // One cached alternative: the service as advertised, its host filled in with the origin's
  // when the advertisement left it empty (§3), and when it expires (received time + ma, §3.1).
  struct Entry {
    AltService service;
    TimePoint expiresAt;
    // The protocol of the response that advertised it. The cache keys alternatives by origin
    // alone (§2); curl's file also names this (as "h1", "h2" or "h3"), so saving keeps it.
    Protocol source = Protocol::HTTP_2;

    bool operator==(const Entry&) const = default;
  };

  // One origin's alternatives, as records() lists them.
  struct Record {
    AltSvcOrigin origin;
    std::vector<Entry> entries;

    bool operator==(const Record&) const = default;
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
  // header it cannot parse. Returns whether the cache took the field. `source` is the protocol
  // the response came over (Entry::source).
  bool put(const AltSvcOrigin& origin, std::string_view value, TimePoint now,
           Protocol source = Protocol::HTTP_2);
  bool put(const AltSvcOrigin& origin, const std::vector<std::string>& fieldLines, TimePoint now,
           Protocol source = Protocol::HTTP_2);
  bool put(const AltSvcOrigin& origin, const AltSvcField& field, TimePoint now,
           Protocol source = Protocol::HTTP_2);

  // Adds one alternative to what `origin` has, after the others, as a line of a cache file does
  // (a file lists an origin's alternatives one a line, so nothing is replaced): one with the same
  // protocol ID, host and port is replaced instead, one expired at `now` is not kept, and an
  // origin holding AltSvcField::kMaxAlternatives takes no more. The origin becomes the newest.
  void add(const AltSvcOrigin& origin, Entry entry, TimePoint now);

  // The origin's alternatives still fresh at `now` (expiresAt > now), in the server's order of
  // preference (§3), only those for `protocolId` when it is not empty. Expired ones are dropped.
  std::vector<Entry> lookup(const AltSvcOrigin& origin, TimePoint now,
                            std::string_view protocolId = {});

  // Forgets `origin`'s alternatives (as a `clear` from it does).
  void remove(const AltSvcOrigin& origin);

  // How many origins have alternatives stored (expired ones included until a lookup drops them).
  std::size_t size();

  // Every origin with its alternatives still fresh at `now`, the one put longest ago first, so
  // adding them back in this order rebuilds the cache.
  std::vector<Record> records(TimePoint now);

  // Counts the changes to what the cache knows: a new or lost alternative or origin, not a field
  // that only renews the alternatives an origin had (same services, later expiry). Whoever
  // persists the cache saves when it moves.
  uint64_t generation();

  // curl's Alt-Svc cache file (curl's --alt-svc, CURLOPT_ALTSVC; curl's docs/ALTSVC.md): after
  // two comment lines, one alternative a line, nine fields separated by blanks,
  //   h2 example.com 443 h3 example.com 443 "20260101 12:00:00" 0 0
  // the ALPN ID ("h1", "h2", "h3") the origin was heard over, its host and port; the
  // alternative's protocol ID, host and port; its expiry in UTC; persist (0 or 1); a priority
  // curl writes as 0 and never uses. IPv6 hosts are in brackets. Origins are https (curl honours
  // Alt-Svc over https only); lines starting with '#' are comments.

  // Adds the file's alternatives (as add() does, in file order) that are fresh at `now`; lines
  // that are not alternatives (malformed, over 4095 bytes, an unknown source ALPN, a host that
  // is not one) are skipped, and the cache's bounds hold whatever the file's size. A missing
  // file adds nothing. Throws IOException naming the file if it exists and cannot be read.
  void load(const std::filesystem::path& path, TimePoint now);

  // Writes records(now) to `path` atomically (a temporary file renamed over it). Throws
  // IOException naming the file; the old file is then intact.
  void save(const std::filesystem::path& path, TimePoint now);

  // The alternatives of a file's text fresh at `now`, in file order (an origin's consecutive
  // lines in one record; no bounds applied), each expiring at most AltService::kMaxAgeCap after
  // `now`, with that remaining time as its maxAge; and the text for `records` with curl's
  // comment lines. Alternatives a line cannot hold (a protocol ID with a blank, a quote or a
  // control character) are left out.
  static std::vector<Record> parseFile(std::string_view text, TimePoint now);
  static std::string formatFile(const std::vector<Record>& records);

 private:
  // Origins in put order, oldest first, each with its alternatives; index_ finds them.
  using Origins = std::list<std::pair<AltSvcOrigin, std::vector<Entry>>>;

  // Removes `origin`; returns its alternatives (empty if it had none).
  std::vector<Entry> eraseLocked(const AltSvcOrigin& origin) TERN_REQUIRES(mutex_);
  // Appends `origin` as the newest, evicting the oldest when full.
  void insertLocked(const AltSvcOrigin& origin, std::vector<Entry> entries) TERN_REQUIRES(mutex_);

  const std::size_t maxOrigins_;
  Mutex mutex_;
  Origins origins_ TERN_GUARDED_BY(mutex_);
  std::map<AltSvcOrigin, Origins::iterator> index_ TERN_GUARDED_BY(mutex_);
  uint64_t generation_ TERN_GUARDED_BY(mutex_) = 0;
};

}  // namespace tern::internal
