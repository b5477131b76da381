// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstdint>
#include <filesystem>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "cache/disk_lru_cache.h"

// DiskLruCache's private pieces shared by its three files: disk_lru_cache.cc (operations),
// disk_lru_cache_journal.cc (reading and rebuilding the journal) and disk_lru_cache_editor.cc
// (snapshots, editors and their streams).
namespace tern::internal {

namespace disk_lru_cache {

// The journal's record kinds.
inline constexpr std::string_view kClean = "CLEAN";
inline constexpr std::string_view kDirty = "DIRTY";
inline constexpr std::string_view kRemove = "REMOVE";
inline constexpr std::string_view kRead = "READ";

// [a-z0-9_-]{1,120}: the keys OkHttp allows, so every key is a safe file name.
inline bool isLegalKey(std::string_view key) {
  if (key.empty() || key.size() > 120) return false;
  for (char c : key) {
    if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_' || c == '-')) return false;
  }
  return true;
}

}  // namespace disk_lru_cache

// Entry and editor bookkeeping; every field is guarded by the cache's mutex_.
struct DiskLruCache::Entry {
  std::string key;
  std::vector<int64_t> lengths;
  std::vector<std::filesystem::path> cleanFiles;
  std::vector<std::filesystem::path> dirtyFiles;
  bool readable = false;  // Ever published.
  bool zombie = false;    // Delete when the current edit or the last reader ends.
  std::shared_ptr<EditorState> currentEditor;
  int lockingSourceCount = 0;  // Open readers, counted only where open files cannot be deleted.
  int64_t sequenceNumber = 0;  // Of the most recent commit.
};

struct DiskLruCache::EditorState {
  std::shared_ptr<Entry> entry;
  std::vector<bool> written;  // For a new entry: which values were opened for writing.
  bool done = false;
};

}  // namespace tern::internal
