// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#include "tern/cache.h"

#include <unistd.h>

#include <mutex>
#include <stdexcept>
#include <utility>

#include "cache/cache_entry.h"
#include "cache/cache_impl.h"
#include "tern/buffer.h"
#include "tern/exceptions.h"

namespace tern {
namespace internal {

Request requestForCache(const Request& request) {
  const std::optional<HttpUrl>& override = request.cacheUrlOverride();
  if (!override) return request;
  const std::string& method = request.method();
  if (method != "GET" && method != "QUERY" && method != "POST") return request;
  return request.newBuilder().get().url(*override).cacheUrlOverride(std::nullopt).build();
}

Response stripBody(const Response& response) {
  Response::Builder builder;
  builder.request(response.request())
      .protocol(response.protocol())
      .code(response.code())
      .message(response.message())
      .handshake(response.handshake())
      .headers(response.headers())
      .sentRequestAtMillis(response.sentRequestAtMillis())
      .receivedResponseAtMillis(response.receivedResponseAtMillis());
  return builder.build();
}

namespace {

// Writes the body to value 1 and counts the outcome.
class RealCacheRequest final : public CacheRequest {
 public:
  RealCacheRequest(std::shared_ptr<CacheImpl> cache, std::unique_ptr<DiskLruCache::Editor> editor)
      : cache_(std::move(cache)), editor_(std::move(editor)), body_(editor_->newSink(kEntryBody)) {}

  ~RealCacheRequest() override { abort(); }

  Sink& body() override { return *body_; }

  void commit() override {
    if (done_) return;
    done_ = true;
    try {
      body_->close();
      cache_->trackWrite(editor_->commit());
    } catch (const std::exception&) {
      cache_->trackWrite(false);
    }
  }

  void abort() override {
    if (done_) return;
    done_ = true;
    try {
      body_->close();
    } catch (const std::exception&) {
      // The edit is abandoned anyway.
    }
    editor_->abort();
    cache_->trackWrite(false);
  }

 private:
  std::shared_ptr<CacheImpl> cache_;
  std::unique_ptr<DiskLruCache::Editor> editor_;
  std::unique_ptr<Sink> body_;
  bool done_ = false;
};

}  // namespace

CacheImpl::CacheImpl(std::shared_ptr<FileSystem> fileSystem, std::filesystem::path directory,
                     int64_t maxSize, std::shared_ptr<TaskRunner> taskRunner)
    : disk_(DiskLruCache::open(std::move(fileSystem), std::move(directory), kVersion, kEntryCount,
                               maxSize, std::move(taskRunner))) {}

std::optional<CachedResponse> CacheImpl::get(const Request& cacheRequest) {
  std::string key = cacheKey(cacheRequest.url());
  std::unique_ptr<DiskLruCache::Snapshot> snapshot;
  try {
    if (std::optional<CachedResponse> inMemory = memoryHit(key, cacheRequest)) return inMemory;
    snapshot = disk_->get(key);
  } catch (const std::exception&) {
    return std::nullopt;  // Closed, locked by another cache, or failing: use the network.
  }
  if (!snapshot) return std::nullopt;
  try {
    std::shared_ptr<const CacheEntry> entry = parsedEntry(key, *snapshot);
    if (!entry->matches(cacheRequest, cacheRequest.url())) return std::nullopt;
    int64_t sequenceNumber = snapshot->sequenceNumber();
    if (auto body = keepSmallBody(key, *snapshot)) {
      return CachedResponse{entry->response(*body), std::move(key), sequenceNumber};
    }
    return CachedResponse{entry->response(std::move(snapshot)), std::move(key), sequenceNumber};
  } catch (const IOException&) {
    return std::nullopt;  // A corrupt entry is a miss; the next store replaces it.
  }
}

std::shared_ptr<const CacheEntry> CacheImpl::parsedEntry(const std::string& key,
                                                         DiskLruCache::Snapshot& snapshot) {
  {
    MutexLock lock(mutex_);
    auto it = parsedEntries_.find(key);
    if (it != parsedEntries_.end() && it->second.sequenceNumber == snapshot.sequenceNumber()) {
      return it->second.entry;
    }
  }
  auto entry =
      std::make_shared<const CacheEntry>(CacheEntry::readFrom(snapshot.getSource(kEntryMetadata)));
  MutexLock lock(mutex_);
  // Bounded: past the limit, forget them all (cheap, and the busy entries come back at once).
  if (parsedEntries_.size() >= kParsedEntriesMax) parsedEntries_.clear();
  parsedEntries_[key] = ParsedEntry{snapshot.sequenceNumber(), entry, nullptr};
  return entry;
}

std::optional<CachedResponse> CacheImpl::memoryHit(const std::string& key,
                                                   const Request& cacheRequest) {
  ParsedEntry parsed;
  {
    MutexLock lock(mutex_);
    auto it = parsedEntries_.find(key);
    if (it == parsedEntries_.end() || !it->second.body) return std::nullopt;
    parsed = it->second;
  }
  // Still the current edit? (This also records the read, as get() would.)
  std::optional<int64_t> current = disk_->touch(key);
  if (current != parsed.sequenceNumber) return std::nullopt;
  if (!parsed.entry->matches(cacheRequest, cacheRequest.url())) return std::nullopt;
  return CachedResponse{parsed.entry->response(*parsed.body), key, parsed.sequenceNumber};
}

std::shared_ptr<const std::vector<std::byte>> CacheImpl::keepSmallBody(
    const std::string& key, DiskLruCache::Snapshot& snapshot) {
  int64_t length = snapshot.getLength(kEntryBody);
  if (length < 0 || length > kMemoryBodyMax) return nullptr;
  auto bytes = std::make_shared<std::vector<std::byte>>();
  try {
    Buffer buffer;
    Source& source = snapshot.getSource(kEntryBody);
    while (buffer.size() <= length && source.read(buffer, length + 1 - buffer.size()) != -1) {
    }
    if (buffer.size() != length) return nullptr;  // The file changed size: read it as a stream.
    *bytes = buffer.snapshot();
  } catch (const IOException&) {
    return nullptr;
  }
  MutexLock lock(mutex_);
  auto it = parsedEntries_.find(key);
  if (it != parsedEntries_.end() && it->second.sequenceNumber == snapshot.sequenceNumber()) {
    it->second.body = bytes;
  }
  return bytes;
}

std::unique_ptr<CacheRequest> CacheImpl::put(const Response& response) {
  if (hasVaryAll(response.headers())) return nullptr;
  std::unique_ptr<DiskLruCache::Editor> editor;
  try {
    editor = disk_->edit(cacheKey(response.request().url()));
    if (!editor) return nullptr;
    CacheEntry entry(response.request().url(), response);
    std::unique_ptr<Sink> metadata = editor->newSink(kEntryMetadata);
    entry.writeTo(*metadata);
    metadata->close();
    return std::make_unique<RealCacheRequest>(shared_from_this(), std::move(editor));
  } catch (const std::exception&) {
    if (editor) editor->abort();
    return nullptr;
  }
}

void CacheImpl::update(const CachedResponse& cached, const Response& updated) {
  std::unique_ptr<DiskLruCache::Editor> editor;
  try {
    editor = disk_->edit(cached.key, cached.sequenceNumber);
    if (!editor) return;
    CacheEntry entry(updated.request().url(), updated);
    std::unique_ptr<Sink> metadata = editor->newSink(kEntryMetadata);
    entry.writeTo(*metadata);
    metadata->close();
    editor->commit();
  } catch (const std::exception&) {
    if (editor) {
      try {
        editor->abort();
      } catch (const std::exception&) {
        // Already committed or detached.
      }
    }
  }
}

bool CacheImpl::remove(const HttpUrl& url) {
  try {
    return disk_->remove(cacheKey(url));
  } catch (const std::exception&) {
    return false;
  }
}

bool CacheImpl::beginRevalidation(const std::string& key) {
  auto now = std::chrono::steady_clock::now();
  MutexLock lock(mutex_);
  auto it = revalidations_.find(key);
  if (it != revalidations_.end() && now - it->second < std::chrono::minutes(1)) return false;
  revalidations_[key] = now;
  return true;
}

void CacheImpl::endRevalidation(const std::string& key) {
  MutexLock lock(mutex_);
  revalidations_.erase(key);
}

std::shared_ptr<SharedFetch> CacheImpl::joinOrLeadFetch(const std::string& key,
                                                        const Request& request, bool& leader) {
  MutexLock lock(mutex_);
  auto it = fetches_.find(key);
  if (it != fetches_.end() && it->second->state != SharedFetch::State::kEnded &&
      it->second->request.method() == request.method() &&
      it->second->request.url() == request.url() &&
      it->second->request.headers() == request.headers()) {
    leader = false;
    return it->second;
  }
  leader = true;
  auto fetch = std::make_shared<SharedFetch>(request);
  // A different request for the key (other headers) leads its own fetch; the one it replaces
  // here keeps its followers.
  fetches_[key] = fetch;
  return fetch;
}

void CacheImpl::shareFetch(const std::shared_ptr<SharedFetch>& fetch, Response head,
                           std::shared_ptr<Relay> relay) {
  {
    MutexLock lock(mutex_);
    if (fetch->state != SharedFetch::State::kPending) return;
    fetch->head.emplace(std::move(head));
    fetch->relay = std::move(relay);
    fetch->state = SharedFetch::State::kShared;
  }
  fetchChanged_.notify_all();
}

void CacheImpl::endFetch(const std::string& key, const std::shared_ptr<SharedFetch>& fetch) {
  {
    MutexLock lock(mutex_);
    auto it = fetches_.find(key);
    if (it != fetches_.end() && it->second == fetch) fetches_.erase(it);
    if (fetch->state == SharedFetch::State::kPending) fetch->state = SharedFetch::State::kEnded;
  }
  fetchChanged_.notify_all();
}

std::optional<std::pair<Response, std::shared_ptr<Relay>>> CacheImpl::awaitFetch(
    const std::shared_ptr<SharedFetch>& fetch, const std::function<bool()>& isCanceled) {
  MutexLock lock(mutex_);
  while (fetch->state == SharedFetch::State::kPending) {
    if (isCanceled && isCanceled()) throw InterruptedIOException("Canceled");
    // Woken when the leader shares or ends; the timeout only re-checks cancellation.
    fetchChanged_.wait_for(lock.native(), std::chrono::milliseconds(50));
  }
  if (fetch->state != SharedFetch::State::kShared) return std::nullopt;
  return std::make_pair(stripBody(*fetch->head), fetch->relay);
}

std::filesystem::path CacheImpl::newRelayFile(const std::string& key) {
  MutexLock lock(mutex_);
  return directory() / (key + ".relay." + std::to_string(::getpid()) + "." +
                        std::to_string(relayCounter_++) + ".tmp");
}

void CacheImpl::trackResponse(const CacheStrategy& strategy) {
  ++requestCount_;
  if (strategy.networkRequest) {
    ++networkCount_;  // A conditional GET or a full one.
  } else if (strategy.useCacheResponse) {
    ++hitCount_;
  }
}

void CacheImpl::trackConditionalCacheHit() { ++hitCount_; }

void CacheImpl::trackSharedHit() {
  --networkCount_;
  ++hitCount_;
}

void CacheImpl::trackWrite(bool success) { ++(success ? writeSuccessCount_ : writeAbortCount_); }

std::shared_ptr<Cache> CacheAccess::create(std::shared_ptr<FileSystem> fileSystem,
                                           std::filesystem::path directory, int64_t maxSize,
                                           std::shared_ptr<TaskRunner> taskRunner) {
  return std::shared_ptr<Cache>(new Cache(std::make_shared<CacheImpl>(
      std::move(fileSystem), std::move(directory), maxSize, std::move(taskRunner))));
}

}  // namespace internal

Cache::Cache(std::filesystem::path directory, int64_t maxSize)
    : impl_(std::make_shared<internal::CacheImpl>(internal::FileSystem::system(),
                                                  std::move(directory), maxSize,
                                                  internal::TaskRunner::instance())) {}

Cache::Cache(std::shared_ptr<internal::CacheImpl> impl) : impl_(std::move(impl)) {}

Cache::~Cache() {
  try {
    impl_->disk().close();
  } catch (const std::exception&) {
    // Closing flushes the journal; a failing disk loses nothing a reopen would not.
  }
}

void Cache::initialize() { impl_->disk().initialize(); }
const std::filesystem::path& Cache::directory() const noexcept { return impl_->directory(); }
int64_t Cache::size() {
  try {
    return impl_->disk().size();
  } catch (const IOException&) {
    return -1;
  }
}
int64_t Cache::maxSize() { return impl_->disk().maxSize(); }
void Cache::flush() { impl_->disk().flush(); }
void Cache::close() { impl_->disk().close(); }
bool Cache::isClosed() { return impl_->disk().isClosed(); }
void Cache::deleteCache() { impl_->disk().deleteCache(); }
void Cache::evictAll() { impl_->disk().evictAll(); }
bool Cache::remove(const Request& request) {
  return impl_->remove(internal::requestForCache(request).url());
}

int Cache::requestCount() { return impl_->requestCount(); }
int Cache::hitCount() { return impl_->hitCount(); }
int Cache::networkCount() { return impl_->networkCount(); }
int Cache::writeSuccessCount() { return impl_->writeSuccessCount(); }
int Cache::writeAbortCount() { return impl_->writeAbortCount(); }

struct Cache::UrlIterator::State {
  std::unique_ptr<internal::DiskLruCache::SnapshotIterator> snapshots;
  std::optional<std::string> nextUrl;
  bool canRemove = false;
};

Cache::UrlIterator::UrlIterator(std::unique_ptr<State> state) : state_(std::move(state)) {}
Cache::UrlIterator::~UrlIterator() = default;
Cache::UrlIterator::UrlIterator(UrlIterator&&) noexcept = default;
Cache::UrlIterator& Cache::UrlIterator::operator=(UrlIterator&&) noexcept = default;

bool Cache::UrlIterator::hasNext() {
  if (state_->nextUrl) return true;
  state_->canRemove = false;  // Reading ahead moves the iterator past the last returned entry.
  while (state_->snapshots->hasNext()) {
    std::unique_ptr<internal::DiskLruCache::Snapshot> snapshot = state_->snapshots->next();
    try {
      state_->nextUrl =
          internal::CacheEntry::readFrom(snapshot->getSource(internal::kEntryMetadata))
              .url()
              .toString();
      return true;
    } catch (const IOException&) {
      // A corrupt entry is skipped, as OkHttp does.
    }
  }
  return false;
}

std::string Cache::UrlIterator::next() {
  if (!hasNext()) throw std::out_of_range("Cache::UrlIterator::next(): no more URLs");
  std::string url = std::move(*state_->nextUrl);
  state_->nextUrl.reset();
  state_->canRemove = true;
  return url;
}

void Cache::UrlIterator::remove() {
  if (!state_->canRemove) {
    throw std::logic_error("Cache::UrlIterator::remove() before next()");
  }
  state_->snapshots->remove();
  state_->canRemove = false;
}

Cache::UrlIterator Cache::urls() {
  auto state = std::make_unique<UrlIterator::State>();
  state->snapshots = impl_->disk().snapshots();
  return UrlIterator(std::move(state));
}

}  // namespace tern
