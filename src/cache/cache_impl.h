// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "cache/cache_strategy.h"
#include "cache/disk_lru_cache.h"
#include "cache/file_system.h"
#include "concurrent/condition.h"
#include "concurrent/mutex.h"
#include "concurrent/task_runner.h"
#include "tern/cache.h"
#include "tern/request.h"
#include "tern/response.h"
#include "tern/sink.h"

namespace tern::internal {

// The request the cache files `request` under (OkHttp 5's requestForCache): with a
// cacheUrlOverride, a GET, QUERY or POST becomes a GET of the override URL; otherwise the
// request itself.
Request requestForCache(const Request& request);

// A copy of `response` without its body (for Response::Builder's cacheResponse and
// networkResponse, which take none).
Response stripBody(const Response& response);

// A stored response found for a request, with what an update after a 304 needs.
struct CachedResponse {
  Response response;  // Its body streams the stored bytes.
  std::string key;
  int64_t sequenceNumber = 0;
};

// Stores one response's body as it streams: write the bytes to body(), then commit() once the
// body ended, or abort(). Destroying it without commit() aborts. Not thread-safe.
class CacheRequest {
 public:
  virtual ~CacheRequest() = default;
  virtual Sink& body() = 0;
  // Publishes the entry; a failure is counted as an abort, never thrown.
  virtual void commit() = 0;
  virtual void abort() = 0;
};

class Relay;
class CacheEntry;

// A network fetch that concurrent identical GETs share (collapsed requests): the first call for
// a key leads it; calls with the same request that come while it runs wait for its response
// head, then read its body through the Relay. Fields are guarded by CacheImpl's mutex.
struct SharedFetch {
  enum class State { kPending, kShared, kEnded };
  explicit SharedFetch(Request request) : request(std::move(request)) {}
  const Request request;  // The leader's request, as the cache received it.
  State state = State::kPending;
  std::optional<Response> head;  // Once shared: the response without a body.
  std::shared_ptr<Relay> relay;  // Once shared: its body.
};

// What a Cache is: a DiskLruCache of entries (value 0 the metadata, value 1 the body) plus the
// statistics. Thread-safe. Every disk failure is swallowed here (a broken cache degrades to the
// network); only initialize() reports one.
class CacheImpl : public std::enable_shared_from_this<CacheImpl> {
 public:
  // OkHttp's Cache VERSION: a journal of another app version is discarded.
  static constexpr int kVersion = 201105;

  CacheImpl(std::shared_ptr<FileSystem> fileSystem, std::filesystem::path directory,
            int64_t maxSize, std::shared_ptr<TaskRunner> taskRunner);

  DiskLruCache& disk() { return *disk_; }
  const std::filesystem::path& directory() const { return disk_->directory(); }

  // The stored response for `cacheRequest` (already through requestForCache()), if one is
  // readable and matches its method and Vary; nullopt otherwise (also when the cache is closed,
  // locked by another, or fails).
  std::optional<CachedResponse> get(const Request& cacheRequest);

  // Starts storing `response` (whose request() is the cache request, whose body is still to be
  // read): writes the metadata and returns where the body goes, or nullptr if it cannot be
  // stored now (Vary: *, another edit of the key in progress, a disk failure).
  std::unique_ptr<CacheRequest> put(const Response& response);

  // Replaces the stored metadata of `cached` with `updated`'s (after a 304), keeping the body;
  // nothing if the entry changed since it was read.
  void update(const CachedResponse& cached, const Response& updated);

  // Drops the entry for `url`; true if there was one.
  bool remove(const HttpUrl& url);

  // Background revalidations (stale-while-revalidate), one per key at a time: begin returns
  // false while one for `key` started less than a minute ago and has not ended.
  bool beginRevalidation(const std::string& key);
  void endRevalidation(const std::string& key);

  // The fetch for `key` that `request` may join (another call leads it, with the same method,
  // URL and headers), or a new one that this call leads (`leader` is set). The leader must end
  // it with endFetch() on every path.
  std::shared_ptr<SharedFetch> joinOrLeadFetch(const std::string& key, const Request& request,
                                               bool& leader);
  // The leader shares its response: `head` (no body) and the relay streaming its body.
  void shareFetch(const std::shared_ptr<SharedFetch>& fetch, Response head,
                  std::shared_ptr<Relay> relay);
  // The fetch is over: abandoned before it was shared (followers then use the network
  // themselves), or its body ended (new calls find the stored entry). Idempotent.
  void endFetch(const std::string& key, const std::shared_ptr<SharedFetch>& fetch);
  // Waits until `fetch` is no longer pending, or `isCanceled` answers true (then
  // InterruptedIOException("Canceled")). Returns the head and relay if it was shared.
  std::optional<std::pair<Response, std::shared_ptr<Relay>>> awaitFetch(
      const std::shared_ptr<SharedFetch>& fetch, const std::function<bool()>& isCanceled);
  // A new file for a relay, in the cache's directory.
  std::filesystem::path newRelayFile(const std::string& key);

  // Statistics (see Cache).
  void trackResponse(const CacheStrategy& strategy);
  void trackConditionalCacheHit();
  // A call counted as a network request was served by another call's shared fetch.
  void trackSharedHit();
  void trackWrite(bool success);
  int requestCount() const { return requestCount_; }
  int hitCount() const { return hitCount_; }
  int networkCount() const { return networkCount_; }
  int writeSuccessCount() const { return writeSuccessCount_; }
  int writeAbortCount() const { return writeAbortCount_; }

 private:
  std::shared_ptr<DiskLruCache> disk_;
  Mutex mutex_;
  Condition fetchChanged_;
  std::map<std::string, std::chrono::steady_clock::time_point> revalidations_
      TERN_GUARDED_BY(mutex_);
  std::map<std::string, std::shared_ptr<SharedFetch>> fetches_ TERN_GUARDED_BY(mutex_);
  // Parsed metadata of recently read entries, by key, valid for one committed edit (its
  // sequence number): a hit skips parsing the headers and decoding the certificates again.
  struct ParsedEntry {
    int64_t sequenceNumber;
    std::shared_ptr<const CacheEntry> entry;
    // A small body (up to kMemoryBodyMax bytes) kept too: its hits touch no file.
    std::shared_ptr<const std::vector<std::byte>> body;
  };
  static constexpr int64_t kMemoryBodyMax = 8 * 1024;
  static constexpr size_t kParsedEntriesMax = 256;
  std::map<std::string, ParsedEntry> parsedEntries_ TERN_GUARDED_BY(mutex_);
  std::shared_ptr<const CacheEntry> parsedEntry(const std::string& key,
                                                DiskLruCache::Snapshot& snapshot);
  // The response for `key` from memory, if its current edit's metadata and body are held there.
  std::optional<CachedResponse> memoryHit(const std::string& key, const Request& cacheRequest);
  // Keeps the body of `snapshot` in memory when it is small; returns it, or null.
  std::shared_ptr<const std::vector<std::byte>> keepSmallBody(const std::string& key,
                                                              DiskLruCache::Snapshot& snapshot);
  int64_t relayCounter_ TERN_GUARDED_BY(mutex_) = 0;
  std::atomic<int> requestCount_{0};
  std::atomic<int> hitCount_{0};
  std::atomic<int> networkCount_{0};
  std::atomic<int> writeSuccessCount_{0};
  std::atomic<int> writeAbortCount_{0};
};

// Reaches a Cache's internals (for the call layer, tests and the tool).
struct CacheAccess {
  static const std::shared_ptr<CacheImpl>& impl(const Cache& cache) { return cache.impl_; }
  // A Cache over `fileSystem` and `taskRunner` (tests inject faults and a fake clock).
  static std::shared_ptr<Cache> create(std::shared_ptr<FileSystem> fileSystem,
                                       std::filesystem::path directory, int64_t maxSize,
                                       std::shared_ptr<TaskRunner> taskRunner);
};

}  // namespace tern::internal
