// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#include "call/alt_svc_store.h"

#include <chrono>
#include <utility>

#include "tern/exceptions.h"

namespace tern::internal {

AltSvcStore::AltSvcStore(std::optional<std::filesystem::path> file) : file_(std::move(file)) {}

AltSvcStore::~AltSvcStore() {
  try {
    save();
  } catch (const IOException&) {
    // A destructor must not throw; Client::shutdown() and the tool save first and can tell.
  }
}

void AltSvcStore::open(const std::optional<std::filesystem::path>& fallback) {
  MutexLock lock(mutex_);
  if (opened_) return;
  const bool named = file_.has_value();
  if (!named) {
    if (!fallback) return;  // Memory only, until a client with a cache comes.
    file_ = fallback;
  }
  opened_ = true;
  if (file_->empty()) return;
  try {
    cache_.load(*file_, std::chrono::system_clock::now());
  } catch (const IOException&) {
    if (named) throw;
    // The cache's file: skipped, so the client still works with its HTTP cache.
  }
  savedGeneration_ = cache_.generation();
}

void AltSvcStore::record(const HttpUrl& url, const std::vector<std::string>& fieldLines,
                         Protocol protocol) {
  if (!cache_.put(AltSvcOrigin::of(url), fieldLines, std::chrono::system_clock::now(), protocol)) {
    return;  // Nothing usable in the field: nothing changed.
  }
  bool changed;
  {
    MutexLock lock(mutex_);
    changed = cache_.generation() != savedGeneration_;
    if (!changed) renewed_ = true;
  }
  if (!changed) return;
  try {
    save();
  } catch (const IOException&) {
    // The response is fine without it; the next change, shutdown() or the destructor retries.
  }
}

void AltSvcStore::save() {
  MutexLock lock(mutex_);
  if (!file_ || file_->empty()) return;
  const uint64_t generation = cache_.generation();
  if (generation == savedGeneration_ && !renewed_) return;
  cache_.save(*file_, std::chrono::system_clock::now());
  savedGeneration_ = generation;
  renewed_ = false;
}

std::optional<std::filesystem::path> AltSvcStore::file() {
  MutexLock lock(mutex_);
  return file_;
}

}  // namespace tern::internal
