// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "concurrent/mutex.h"
#include "http/alt_svc_cache.h"
#include "tern/http_url.h"
#include "tern/protocol.h"

namespace tern::internal {

// The alternative services (RFC 7838) a Client knows, shared by its copies and newBuilder()
// clients as the pool is (Client::Builder makes one; altSvcFile() makes a new one): the
// AltSvcCache the call layer records into and HTTP/3 will look up, and the file it is kept in.
//
// Persistence, as curl's --alt-svc: the file (Client::Builder::altSvcFile(), else "alt-svc" in
// the directory of the client's Cache when the client may use HTTP/3) is loaded when the first
// client naming it is built; it is saved when what the cache knows changes (a new or lost
// alternative, not a renewed expiry: servers repeat Alt-Svc on every response), and once more
// on Client::shutdown() and when the last client lets go of the store, if anything (a renewal
// too) changed since.
//
// Thread-safe: calls record from any thread. A save runs on the thread that caused it (a call's,
// for a change); saves go out one at a time, each writing the newest state.
class AltSvcStore {
 public:
  // A store kept in `file` (altSvcFile(): "" keeps it in memory only), or, with std::nullopt, in
  // memory until open() gives it the cache's file.
  explicit AltSvcStore(std::optional<std::filesystem::path> file = std::nullopt);
  // Saves what changed since the last save; a failure then is lost (save() reports it).
  ~AltSvcStore();
  AltSvcStore(const AltSvcStore&) = delete;
  AltSvcStore& operator=(const AltSvcStore&) = delete;

  // Called as each client sharing the store is built, with the file it would use when none was
  // named (`fallback`: its Cache's "alt-svc", or std::nullopt). Loads the store's file the first
  // time it has one; does nothing after. Throws IOException naming a file named by altSvcFile()
  // that exists and cannot be read; a fallback that cannot be read is skipped (it only costs
  // discovery, and the cache beside it must still work).
  void open(const std::optional<std::filesystem::path>& fallback);

  // Records the Alt-Svc field lines of a response to `url` that came over `protocol` now (wall
  // clock): the caller has checked that the response may set them (RFC 7838 §2.1). Saves if
  // that changed what the cache knows; a failure to save is dropped (the call's response is
  // fine, and the next change or shutdown tries again).
  void record(const HttpUrl& url, const std::vector<std::string>& fieldLines, Protocol protocol);

  // Writes the file if anything changed since it was loaded or last saved; nothing without a
  // file. Throws IOException naming the file and the reason; the old file is then intact.
  void save();

  // The alternatives known, to look up (and for tests, through ClientAccess).
  AltSvcCache& cache() noexcept { return cache_; }

  // The file the store is kept in, if it has one yet.
  std::optional<std::filesystem::path> file();

 private:
  AltSvcCache cache_;
  Mutex mutex_;  // Guards the file's state; held across a save, so saves go out one at a time.
  std::optional<std::filesystem::path> file_ TERN_GUARDED_BY(mutex_);  // Empty: memory only.
  bool opened_ TERN_GUARDED_BY(mutex_) = false;                        // file_ chosen and loaded.
  uint64_t savedGeneration_ TERN_GUARDED_BY(mutex_) = 0;  // cache_.generation() at the last save.
  bool renewed_ TERN_GUARDED_BY(mutex_) = false;          // A field renewed expiries since.
};

}  // namespace tern::internal
