// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>

#include "tern/export.h"
#include "tern/http_url.h"
#include "tern/request.h"

namespace tern::internal {
class CacheImpl;
struct CacheAccess;
}  // namespace tern::internal

namespace tern {

// Caches HTTP and HTTPS responses on disk so calls can reuse them, as OkHttp's Cache: a private
// cache per RFC 9111 (freshness, validation with ETag and Last-Modified, Vary, invalidation by
// unsafe methods) plus stale-while-revalidate and stale-if-error (RFC 5861), in OkHttp's on-disk
// format, so one directory can be shared with an OkHttp app's. Give it to a client with
// Client::Builder::cache(); see docs/cache.md.
//
//   auto cache = std::make_shared<tern::Cache>("/var/cache/myapp/http", 50 * 1024 * 1024);
//   tern::Client client = tern::Client::Builder().cache(cache).build();
//
// Concurrent identical GETs on clients sharing a cache are collapsed into one network fetch
// whose body every caller streams (docs/cache.md, "Collapsed requests").
//
// The directory belongs to one Cache at a time: opening it takes a lock file, and a second
// Cache on it (in this process or another) fails its first use with IOException("Cache already
// open at ..."); calls on a client with such a cache then go to the network. A cache that fails
// (a full disk, I/O errors) never fails a call: responses come from the network and are not
// stored. Thread-safe. Nothing touches the disk until the first call or initialize().
class TERN_API Cache final {
 public:
  // A cache in `directory` (created if missing) using at most `maxSize` bytes for the responses.
  // Throws std::invalid_argument if maxSize is not positive.
  Cache(std::filesystem::path directory, int64_t maxSize);
  ~Cache();
  Cache(const Cache&) = delete;
  Cache& operator=(const Cache&) = delete;

  // Opens the directory now: takes the lock, reads the journal. Throws IOException if another
  // cache holds the directory or it cannot be used.
  void initialize();

  const std::filesystem::path& directory() const noexcept;

  // Bytes the stored responses use; may exceed maxSize() briefly until the background trim runs.
  int64_t size();
  int64_t maxSize();

  // Writes the journal and trims to size.
  void flush();
  // Closes the cache: later calls go to the network. Idempotent.
  void close();
  bool isClosed();
  // Closes the cache and deletes its files (OkHttp's delete()).
  void deleteCache();
  // Removes every stored response.
  void evictAll();
  // Removes the response stored for `request` (its cacheUrlOverride or URL); true if there was
  // one.
  bool remove(const Request& request);

  // The URLs of the stored responses, least recently used first, as OkHttp's urls(): hasNext()
  // and next() read the entries as they go (a corrupt one is skipped); remove() drops the entry
  // of the URL next() returned last.
  class TERN_API UrlIterator {
   public:
    ~UrlIterator();
    UrlIterator(UrlIterator&&) noexcept;
    UrlIterator& operator=(UrlIterator&&) noexcept;
    bool hasNext();
    // Throws std::out_of_range when there is none.
    std::string next();
    // Throws std::logic_error if next() was not called since the last remove().
    void remove();

   private:
    friend class Cache;
    struct State;
    explicit UrlIterator(std::unique_ptr<State> state);
    std::unique_ptr<State> state_;
  };
  UrlIterator urls();

  // Statistics since the cache was made, as OkHttp's:
  // requests the cache saw (HTTP requests with a cache-eligible method, one per network or
  // cache lookup, including each redirect);
  int requestCount();
  // of them, answered without the network (a fresh hit, or a validated one: a 304);
  int hitCount();
  // of them, that needed the network (misses, validations);
  int networkCount();
  // responses stored completely, and stores abandoned (the body was not read to its end, the
  // disk failed, or a newer edit won).
  int writeSuccessCount();
  int writeAbortCount();

 private:
  friend struct internal::CacheAccess;
  explicit Cache(std::shared_ptr<internal::CacheImpl> impl);
  std::shared_ptr<internal::CacheImpl> impl_;  // Never null.
};

}  // namespace tern
