// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#include "http/alt_svc_cache.h"

#include <algorithm>

namespace tern::internal {

AltSvcCache::AltSvcCache(std::size_t maxOrigins)
    : maxOrigins_(std::max<std::size_t>(maxOrigins, 1)) {}

bool AltSvcCache::put(const AltSvcOrigin& origin, std::string_view value, TimePoint now) {
  return put(origin, AltSvcField::parse(value), now);
}

bool AltSvcCache::put(const AltSvcOrigin& origin, const std::vector<std::string>& fieldLines,
                      TimePoint now) {
  return put(origin, AltSvcField::parse(fieldLines), now);
}

bool AltSvcCache::put(const AltSvcOrigin& origin, const AltSvcField& field, TimePoint now) {
  if (field.empty()) return false;
  std::vector<Entry> entries;
  for (const AltService& service : field.alternatives) {
    if (service.maxAge <= std::chrono::seconds::zero()) continue;  // Stale on arrival.
    Entry& entry = entries.emplace_back(Entry{service, now + service.maxAge});
    if (entry.service.host.empty()) entry.service.host = origin.host;  // §3: the same host.
  }

  MutexLock lock(mutex_);
  // A new field replaces what was known (§3); the origin becomes the newest.
  eraseLocked(origin);
  if (entries.empty()) return true;  // `clear`, or nothing fresh.
  if (origins_.size() >= maxOrigins_) {
    index_.erase(origins_.front().first);
    origins_.pop_front();
  }
  origins_.emplace_back(origin, std::move(entries));
  index_.emplace(origin, std::prev(origins_.end()));
  return true;
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
  eraseLocked(origin);
}

std::size_t AltSvcCache::size() {
  MutexLock lock(mutex_);
  return origins_.size();
}

void AltSvcCache::eraseLocked(const AltSvcOrigin& origin) {
  auto found = index_.find(origin);
  if (found == index_.end()) return;
  origins_.erase(found->second);
  index_.erase(found);
}

}  // namespace tern::internal
