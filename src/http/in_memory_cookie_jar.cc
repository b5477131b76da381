// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#include "tern/in_memory_cookie_jar.h"

#include <algorithm>
#include <chrono>
#include <stdexcept>
#include <string>
#include <utility>

#include "concurrent/mutex.h"
#include "http/cookie_rules.h"
#include "io/ascii.h"
#include "url/host_parser.h"
#include "url/public_suffix.h"

namespace tern {
namespace {

using internal::cookieDomainMatch;
using internal::cookiePathMatch;

int64_t systemTimeMillis() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

// The name prefixes of RFC 6265bis §4.1.3, matched without regard to case as its storage model
// (§5.6) says.
bool hasPrefix(std::string_view name, std::string_view prefix) {
  return name.size() >= prefix.size() &&
         internal::equalsIgnoreCase(name.substr(0, prefix.size()), prefix);
}

// True if `cookie` breaks its name prefix's promise: a __Secure- cookie must be Secure; a
// __Host- cookie Secure, host-only and for the path "/", so no subdomain or path can set one.
bool violatesPrefix(const Cookie& cookie) {
  if (hasPrefix(cookie.name(), "__Secure-")) return !cookie.secure();
  if (hasPrefix(cookie.name(), "__Host-")) {
    return !cookie.secure() || !cookie.hostOnly() || cookie.path() != "/";
  }
  return false;
}

// The group a cookie counts against for maxCookiesPerDomain: its registrable domain, or (an IP
// address, "localhost") its domain.
std::string limitGroup(const std::string& domain) {
  if (internal::isIpAddressHost(domain)) return domain;
  std::optional<std::string> registrable = internal::registrableDomain(domain);
  return registrable ? *registrable : domain;
}

// True if no domain cookie may name `domain`: a public suffix ("co.uk", "localhost") or an IP
// address, which has no subdomains.
bool isPublicSuffix(const std::string& domain) {
  return internal::isIpAddressHost(domain) || !internal::registrableDomain(domain);
}

// `cookie` made host-only for its domain (a Domain attribute naming a public suffix that is the
// host itself: RFC 6265bis §5.6).
Cookie asHostOnly(const Cookie& cookie) {
  return cookie.newBuilder().hostOnlyDomain(cookie.domain()).build();
}

}  // namespace

struct InMemoryCookieJar::State {
  struct Entry {
    Cookie cookie;
    std::string group;       // limitGroup(cookie.domain()).
    int64_t creationTime;    // Kept when a cookie replaces its namesake.
    uint64_t sequence;       // Orders equal creation times; kept with the creation time.
    int64_t lastAccessTime;  // Creation, replacement or the last loadForRequest() that sent it.
  };

  State(Limits limits, Clock clock) : limits(limits), clock(std::move(clock)) {}

  const Limits limits;
  const Clock clock;
  internal::Mutex mutex;
  std::vector<Entry> entries TERN_GUARDED_BY(mutex);  // In no particular order.
  uint64_t nextSequence TERN_GUARDED_BY(mutex) = 0;

  static bool expired(const Entry& entry, int64_t now) { return entry.cookie.expiresAt() <= now; }

  void removeExpired(int64_t now) TERN_REQUIRES(mutex) {
    std::erase_if(entries, [now](const Entry& entry) { return expired(entry, now); });
  }

  // True if a Secure cookie stored for a related domain and path would be shadowed by `cookie`
  // from an insecure origin (RFC 6265bis §5.6: http cannot overwrite https's cookies).
  bool shadowsSecureCookie(const Cookie& cookie) TERN_REQUIRES(mutex) {
    return std::any_of(entries.begin(), entries.end(), [&](const Entry& entry) {
      const Cookie& stored = entry.cookie;
      return stored.secure() && stored.name() == cookie.name() &&
             (cookieDomainMatch(cookie.domain(), stored.domain()) ||
              cookieDomainMatch(stored.domain(), cookie.domain())) &&
             cookiePathMatch(cookie.path(), stored.path());
    });
  }

  // Stores `cookie`, replacing its namesake (same name, domain, host-only flag and path) and
  // keeping that one's creation time; an expired cookie only deletes the namesake (§5.6).
  void store(const Cookie& cookie, std::optional<int64_t> creationTime, int64_t now)
      TERN_REQUIRES(mutex) {
    auto old = std::find_if(entries.begin(), entries.end(), [&](const Entry& entry) {
      const Cookie& stored = entry.cookie;
      return stored.name() == cookie.name() && stored.domain() == cookie.domain() &&
             stored.hostOnly() == cookie.hostOnly() && stored.path() == cookie.path();
    });
    if (cookie.expiresAt() <= now) {
      if (old != entries.end()) entries.erase(old);
      return;
    }
    if (old != entries.end()) {
      old->cookie = cookie;
      old->lastAccessTime = now;
      return;
    }
    entries.push_back(Entry{cookie, limitGroup(cookie.domain()), creationTime.value_or(now),
                            nextSequence++, now});
    enforceLimits(entries.back().group, now);
  }

  // Removes excess cookies: in `group` beyond maxCookiesPerDomain, then in all beyond
  // maxCookies; expired ones first, then the least recently used (RFC 6265bis §5.6's "excess
  // cookies", as browsers do).
  void enforceLimits(const std::string& group, int64_t now) TERN_REQUIRES(mutex) {
    auto inGroup = [&](const Entry& entry) { return entry.group == group; };
    auto count = static_cast<size_t>(std::count_if(entries.begin(), entries.end(), inGroup));
    if (count > limits.maxCookiesPerDomain) {
      std::erase_if(entries, [&](const Entry& e) { return inGroup(e) && expired(e, now); });
      evictLeastRecentlyUsed(inGroup, limits.maxCookiesPerDomain);
    }
    if (entries.size() > limits.maxCookies) {
      removeExpired(now);
      evictLeastRecentlyUsed([](const Entry&) { return true; }, limits.maxCookies);
    }
  }

  template <typename Predicate>
  void evictLeastRecentlyUsed(Predicate selected, size_t keep) TERN_REQUIRES(mutex) {
    std::vector<const Entry*> candidates;
    for (const Entry& entry : entries) {
      if (selected(entry)) candidates.push_back(&entry);
    }
    if (candidates.size() <= keep) return;
    size_t excess = candidates.size() - keep;
    std::partial_sort(candidates.begin(), candidates.begin() + static_cast<ptrdiff_t>(excess),
                      candidates.end(), [](const Entry* a, const Entry* b) {
                        if (a->lastAccessTime != b->lastAccessTime) {
                          return a->lastAccessTime < b->lastAccessTime;
                        }
                        return a->sequence < b->sequence;
                      });
    std::vector<uint64_t> evicted;
    for (size_t i = 0; i < excess; ++i) evicted.push_back(candidates[i]->sequence);
    std::erase_if(entries, [&](const Entry& entry) {
      return std::find(evicted.begin(), evicted.end(), entry.sequence) != evicted.end();
    });
  }

  // Cookie header order (RFC 6265bis §5.7.3): longer paths first, then earlier creation.
  static bool headerOrder(const Entry* a, const Entry* b) {
    if (a->cookie.path().size() != b->cookie.path().size()) {
      return a->cookie.path().size() > b->cookie.path().size();
    }
    if (a->creationTime != b->creationTime) return a->creationTime < b->creationTime;
    return a->sequence < b->sequence;
  }
};

InMemoryCookieJar::InMemoryCookieJar() : InMemoryCookieJar(Limits{}) {}

InMemoryCookieJar::InMemoryCookieJar(Limits limits, Clock clock) {
  if (limits.maxCookieSize == 0 || limits.maxCookiesPerDomain == 0 || limits.maxCookies == 0) {
    throw std::invalid_argument("InMemoryCookieJar: limits must be positive");
  }
  if (!clock) clock = systemTimeMillis;
  state_ = std::make_unique<State>(limits, std::move(clock));
}

InMemoryCookieJar::~InMemoryCookieJar() = default;

int64_t InMemoryCookieJar::now() const { return state_->clock(); }

void InMemoryCookieJar::saveFromResponse(const HttpUrl& url, const std::vector<Cookie>& cookies) {
  const std::string& host = url.host();
  bool secureOrigin = url.isHttps();
  int64_t now = this->now();
  internal::MutexLock lock(state_->mutex);
  for (const Cookie& received : cookies) {
    if (received.name().size() + received.value().size() > state_->limits.maxCookieSize) continue;
    // A cookie must come from its own domain: Cookie::parse checks it, a hand-built one may not.
    std::optional<Cookie> cookie = received;
    if (received.hostOnly()) {
      if (received.domain() != host) continue;
    } else if (!cookieDomainMatch(host, received.domain())) {
      continue;
    } else if (isPublicSuffix(received.domain())) {
      // A public suffix ("co.uk", or an IP address, "localhost"): only the host itself may name
      // it, and then the cookie is host-only (RFC 6265bis §5.6).
      if (received.domain() != host) continue;
      cookie = asHostOnly(received);
    }
    if (cookie->secure() && !secureOrigin) continue;  // §5.6.
    if (violatesPrefix(*cookie)) continue;
    if (!cookie->secure() && !secureOrigin && state_->shadowsSecureCookie(*cookie)) continue;
    state_->store(*cookie, std::nullopt, now);
  }
}

std::vector<Cookie> InMemoryCookieJar::loadForRequest(const HttpUrl& url) {
  int64_t now = this->now();
  internal::MutexLock lock(state_->mutex);
  state_->removeExpired(now);
  std::vector<State::Entry*> matching;
  for (State::Entry& entry : state_->entries) {
    if (entry.cookie.matches(url)) matching.push_back(&entry);
  }
  std::sort(matching.begin(), matching.end(), State::headerOrder);
  std::vector<Cookie> result;
  result.reserve(matching.size());
  for (State::Entry* entry : matching) {
    entry->lastAccessTime = now;
    result.push_back(entry->cookie);
  }
  return result;
}

void InMemoryCookieJar::add(const Cookie& cookie, std::optional<int64_t> creationTime) {
  if (cookie.name().size() + cookie.value().size() > state_->limits.maxCookieSize) return;
  if (violatesPrefix(cookie)) return;
  int64_t now = this->now();
  bool publicSuffix = !cookie.hostOnly() && isPublicSuffix(cookie.domain());
  internal::MutexLock lock(state_->mutex);
  // A domain cookie for a public suffix reaches no further than that host.
  state_->store(publicSuffix ? asHostOnly(cookie) : cookie, creationTime, now);
}

std::vector<Cookie> InMemoryCookieJar::cookies() {
  int64_t now = this->now();
  internal::MutexLock lock(state_->mutex);
  state_->removeExpired(now);
  std::vector<const State::Entry*> sorted;
  for (const State::Entry& entry : state_->entries) sorted.push_back(&entry);
  std::sort(sorted.begin(), sorted.end(), [](const State::Entry* a, const State::Entry* b) {
    if (a->creationTime != b->creationTime) return a->creationTime < b->creationTime;
    return a->sequence < b->sequence;
  });
  std::vector<Cookie> result;
  result.reserve(sorted.size());
  for (const State::Entry* entry : sorted) result.push_back(entry->cookie);
  return result;
}

void InMemoryCookieJar::clearSession() {
  internal::MutexLock lock(state_->mutex);
  std::erase_if(state_->entries, [](const State::Entry& e) { return !e.cookie.persistent(); });
}

void InMemoryCookieJar::clear() {
  internal::MutexLock lock(state_->mutex);
  state_->entries.clear();
}

}  // namespace tern
