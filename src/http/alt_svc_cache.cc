// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#include "http/alt_svc_cache.h"

#include <algorithm>

namespace tern::internal {
namespace {

// Whether two lists name the same alternatives from the same protocol, whatever their expiry
// (ma included: a server may count it down).
bool sameServices(const std::vector<AltSvcCache::Entry>& a,
                  const std::vector<AltSvcCache::Entry>& b) {
  return std::equal(a.begin(), a.end(), b.begin(), b.end(), [](const auto& x, const auto& y) {
    return x.service.protocolId == y.service.protocolId && x.service.host == y.service.host &&
           x.service.port == y.service.port && x.service.persist == y.service.persist &&
           x.source == y.source;
  });
}

}  // namespace

AltSvcCache::AltSvcCache(std::size_t maxOrigins)
    : maxOrigins_(std::max<std::size_t>(maxOrigins, 1)) {}

bool AltSvcCache::put(const AltSvcOrigin& origin, std::string_view value, TimePoint now,
                      Protocol source) {
  return put(origin, AltSvcField::parse(value), now, source);
}

bool AltSvcCache::put(const AltSvcOrigin& origin, const std::vector<std::string>& fieldLines,
                      TimePoint now, Protocol source) {
  return put(origin, AltSvcField::parse(fieldLines), now, source);
}

bool AltSvcCache::put(const AltSvcOrigin& origin, const AltSvcField& field, TimePoint now,
                      Protocol source) {
  if (field.empty()) return false;
  std::vector<Entry> entries;
  for (const AltService& service : field.alternatives) {
    if (service.maxAge <= std::chrono::seconds::zero()) continue;  // Stale on arrival.
    Entry& entry = entries.emplace_back(Entry{service, now + service.maxAge, source});
    if (entry.service.host.empty()) entry.service.host = origin.host;  // §3: the same host.
  }

  MutexLock lock(mutex_);
  // A new field replaces what was known (§3); the origin becomes the newest.
  std::vector<Entry> known = eraseLocked(origin);
  if (!sameServices(known, entries)) ++generation_;
  if (!entries.empty()) insertLocked(origin, std::move(entries));  // Else `clear`, or all stale.
  return true;
}

void AltSvcCache::add(const AltSvcOrigin& origin, Entry entry, TimePoint now) {
  if (entry.expiresAt <= now) return;
  MutexLock lock(mutex_);
  std::vector<Entry> entries = eraseLocked(origin);
  auto same = std::find_if(entries.begin(), entries.end(), [&](const Entry& known) {
    return known.service.protocolId == entry.service.protocolId &&
           known.service.host == entry.service.host && known.service.port == entry.service.port;
  });
  if (same != entries.end()) {
    *same = std::move(entry);
  } else if (entries.size() < AltSvcField::kMaxAlternatives) {
    entries.push_back(std::move(entry));
  }
  ++generation_;
  insertLocked(origin, std::move(entries));
}

std::vector<AltSvcCache::Entry> AltSvcCache::lookup(const AltSvcOrigin& origin, TimePoint now,
                                                    std::string_view protocolId) {
  MutexLock lock(mutex_);
  auto found = index_.find(origin);
  if (found == index_.end()) return {};
  std::vector<Entry>& entries = found->second->second;
  std::erase_if(entries, [now](const Entry& entry) { return entry.expiresAt <= now; });
  if (entries.empty()) {
    eraseLocked(origin);
    return {};
  }
  std::vector<Entry> result;
  for (const Entry& entry : entries) {
    if (protocolId.empty() || entry.service.protocolId == protocolId) result.push_back(entry);
  }
  return result;
}

void AltSvcCache::remove(const AltSvcOrigin& origin) {
  MutexLock lock(mutex_);
  if (!eraseLocked(origin).empty()) ++generation_;
}

std::size_t AltSvcCache::size() {
  MutexLock lock(mutex_);
  return origins_.size();
}

std::vector<AltSvcCache::Record> AltSvcCache::records(TimePoint now) {
  MutexLock lock(mutex_);
  std::vector<Record> result;
  result.reserve(origins_.size());
  for (const auto& [origin, entries] : origins_) {
    Record record{origin, {}};
    for (const Entry& entry : entries) {
      if (entry.expiresAt > now) record.entries.push_back(entry);
    }
    if (!record.entries.empty()) result.push_back(std::move(record));
  }
  return result;
}

uint64_t AltSvcCache::generation() {
  MutexLock lock(mutex_);
  return generation_;
}

std::vector<AltSvcCache::Entry> AltSvcCache::eraseLocked(const AltSvcOrigin& origin) {
  auto found = index_.find(origin);
  if (found == index_.end()) return {};
  std::vector<Entry> entries = std::move(found->second->second);
  origins_.erase(found->second);
  index_.erase(found);
  return entries;
}

void AltSvcCache::insertLocked(const AltSvcOrigin& origin, std::vector<Entry> entries) {
  if (origins_.size() >= maxOrigins_) {
    index_.erase(origins_.front().first);
    origins_.pop_front();
  }
  origins_.emplace_back(origin, std::move(entries));
  index_.emplace(origin, std::prev(origins_.end()));
}

}  // namespace tern::internal
