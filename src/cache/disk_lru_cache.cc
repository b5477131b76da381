// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#include "cache/disk_lru_cache.h"

#include <mutex>
#include <set>
#include <stdexcept>
#include <utility>

#include "cache/disk_lru_cache_entry.h"
#include "tern/buffer.h"

namespace tern::internal {

using namespace disk_lru_cache;

namespace {

void validateKey(std::string_view key) {
  if (!isLegalKey(key)) {
    throw std::invalid_argument("keys must match regex [a-z0-9_-]{1,120}: \"" + std::string(key) +
                                "\"");
  }
}

void writeTo(Sink& sink, std::string_view text) {
  Buffer buffer;
  buffer.writeUtf8(text);
  sink.write(buffer, buffer.size());
}

// Directories open in this process, so a second open here gets its own message ("in same
// process") rather than the other process's.
std::mutex openDirectoriesMutex;
std::set<std::string>& openDirectories() {
  static std::set<std::string> directories;
  return directories;
}

std::string directoryKey(const std::filesystem::path& directory) {
  std::error_code error;
  auto canonical = std::filesystem::weakly_canonical(std::filesystem::absolute(directory), error);
  return (error ? directory : canonical).string();
}

}  // namespace

// The lock on a cache directory: this process's registry entry plus the lock file.
class DiskLruCache::CacheLock {
 public:
  CacheLock(FileSystem& fileSystem, const std::filesystem::path& directory)
      : key_(directoryKey(directory)) {
    {
      std::lock_guard<std::mutex> lock(openDirectoriesMutex);
      if (!openDirectories().insert(key_).second) {
        throw IOException("Cache already open at '" + directory.string() + "' in same process");
      }
    }
    try {
      fileLock_ = fileSystem.tryLock(directory / kLockFile);
    } catch (...) {
      release();
      throw;
    }
    if (!fileLock_) {
      release();
      throw IOException("Cache already open at '" + directory.string() + "' in another process");
    }
  }
  ~CacheLock() {
    fileLock_.reset();
    release();
  }
  CacheLock(const CacheLock&) = delete;
  CacheLock& operator=(const CacheLock&) = delete;

 private:
  void release() {
    std::lock_guard<std::mutex> lock(openDirectoriesMutex);
    openDirectories().erase(key_);
  }
  std::string key_;
  std::unique_ptr<FileLock> fileLock_;
};

// A value's source where open files cannot be deleted: counts as a reader of its entry until
// closed, so a removal waits (the entry becomes a zombie) for the last one.
class DiskLruCache::EntrySource final : public Source {
 public:
  EntrySource(std::shared_ptr<DiskLruCache> cache, std::shared_ptr<Entry> entry,
              std::unique_ptr<Source> delegate)
      : cache_(std::move(cache)), entry_(std::move(entry)), delegate_(std::move(delegate)) {}
  ~EntrySource() override {
    try {
      close();
    } catch (const std::exception&) {
      // Destruction cannot report a failed close; the descriptor is released regardless.
    }
  }
  int64_t read(Buffer& sink, int64_t byteCount) override {
    return delegate_->read(sink, byteCount);
  }
  Timeout& timeout() override { return delegate_->timeout(); }
  void close() override {
    if (closed_) return;
    closed_ = true;
    delegate_->close();
    cache_->sourceClosed(entry_);
  }

 private:
  std::shared_ptr<DiskLruCache> cache_;
  std::shared_ptr<Entry> entry_;
  std::unique_ptr<Source> delegate_;
  bool closed_ = false;
};

std::shared_ptr<DiskLruCache> DiskLruCache::open(std::shared_ptr<FileSystem> fileSystem,
                                                 std::filesystem::path directory, int appVersion,
                                                 int valueCount, int64_t maxSize,
                                                 std::shared_ptr<TaskRunner> taskRunner) {
  if (!fileSystem) throw std::invalid_argument("DiskLruCache: fileSystem is null");
  if (!taskRunner) throw std::invalid_argument("DiskLruCache: taskRunner is null");
  if (maxSize <= 0) throw std::invalid_argument("maxSize <= 0: " + std::to_string(maxSize));
  if (valueCount <= 0) {
    throw std::invalid_argument("valueCount <= 0: " + std::to_string(valueCount));
  }
  auto cache =
      std::make_shared<DiskLruCache>(PassKey(), std::move(fileSystem), std::move(directory),
                                     appVersion, valueCount, maxSize, std::move(taskRunner));
  std::weak_ptr<DiskLruCache> weak = cache;
  cache->cleanupTask_ = Task::of("tern Cache", true, [weak] {
    if (auto strong = weak.lock()) strong->runCleanup();
    return Task::kNoRepeat;
  });
  return cache;
}

DiskLruCache::DiskLruCache(PassKey, std::shared_ptr<FileSystem> fileSystem,
                           std::filesystem::path directory, int appVersion, int valueCount,
                           int64_t maxSize, std::shared_ptr<TaskRunner> taskRunner)
    : fileSystem_(std::move(fileSystem)),
      directory_(std::move(directory)),
      appVersion_(appVersion),
      valueCount_(valueCount),
      taskRunner_(std::move(taskRunner)),
      cleanupQueue_(taskRunner_->newQueue("tern Cache " + directory_.string())),
      maxSize_(maxSize) {}

DiskLruCache::~DiskLruCache() {
  // The queue first: no cleanup starts once the cache is going (a running one holds it).
  cleanupQueue_.reset();
  MutexLock lock(mutex_);
  try {
    closeLocked();
  } catch (const std::exception&) {
    // Destruction cannot report it; the files stay and the journal is read again next time.
  }
  cacheLock_.reset();
}

void DiskLruCache::initialize() {
  MutexLock lock(mutex_);
  initializeLocked();
}

void DiskLruCache::initializeLocked() {
  if (initialized_) return;
  fileSystem_->createDirectories(directory_);
  cacheLock_ = std::make_unique<CacheLock>(*fileSystem_, directory_);
  try {
    // A crash during a rebuild may leave only the backup.
    if (fileSystem_->exists(file(kJournalFileBackup))) {
      if (fileSystem_->exists(file(kJournalFile))) {
        fileSystem_->deleteIfExists(file(kJournalFileBackup));
      } else {
        fileSystem_->atomicMove(file(kJournalFileBackup), file(kJournalFile));
      }
    }
    civilized_ = fileSystem_->deletesOpenFiles();
    if (fileSystem_->exists(file(kJournalFile))) {
      try {
        readJournalLocked();
        processJournalLocked();
        initialized_ = true;
        return;
      } catch (const IOException&) {
        // The journal is corrupt (or unreadable): as OkHttp, start over with an empty cache. A
        // failure to delete propagates: the file system itself is in trouble.
        journalWriter_.reset();
        clearEntriesLocked();
        deleteContentsLocked();
      }
    }
    rebuildJournalLocked();
    initialized_ = true;
  } catch (...) {
    journalWriter_.reset();
    clearEntriesLocked();
    cacheLock_.reset();  // Leave without the lock, so a later attempt can take it.
    throw;
  }
}

void DiskLruCache::clearEntriesLocked() {
  // An entry and its editor point at each other; the journal's DIRTY placeholders have no
  // Editor to end them.
  for (const auto& entry : lru_) entry->currentEditor = nullptr;
  lru_.clear();
  entries_.clear();
  size_ = 0;
}

void DiskLruCache::openJournalWriterLocked() {
  journalWriter_ = fileSystem_->sink(file(kJournalFile), true);
}

void DiskLruCache::writeJournalLocked(std::string_view line) {
  // Once a write failed the journal may end mid-line: nothing more is appended until a rebuild
  // replaces it (OkHttp's FaultHidingSink on the journal).
  if (!journalWriter_ || hasJournalErrors_) {
    pendingReads_.clear();
    return;
  }
  if (line.empty() && pendingReads_.empty()) return;
  try {
    if (pendingReads_.empty()) {
      writeTo(*journalWriter_, line);
    } else {
      // READ lines waiting for a write go out with this one, in one system call.
      std::string lines = std::move(pendingReads_);
      pendingReads_.clear();
      lines += line;
      writeTo(*journalWriter_, lines);
    }
  } catch (const IOException&) {
    hasJournalErrors_ = true;
  }
}

void DiskLruCache::recordReadLocked(std::string_view key) {
  // A READ line only moves the entry in the LRU order, so it may wait for the next line, a
  // flush or a close: a crash loses some recency, never an entry. This saves a write per hit.
  pendingReads_.append(kRead).append(" ").append(key).append("\n");
  if (pendingReads_.size() >= kPendingReadsMax) writeJournalLocked("");
}

bool DiskLruCache::journalRebuildRequiredLocked() {
  // Only when it at least halves the journal and drops 2,000 lines.
  return redundantOpCount_ >= kRedundantOpCompactThreshold &&
         redundantOpCount_ >= static_cast<int>(entries_.size());
}

std::shared_ptr<DiskLruCache::Entry> DiskLruCache::findLocked(const std::string& key) {
  auto it = entries_.find(key);
  if (it == entries_.end()) return nullptr;
  lru_.splice(lru_.end(), lru_, it->second);  // Most recently used last.
  return *it->second;
}

std::shared_ptr<DiskLruCache::Entry> DiskLruCache::newEntry(const std::string& key) {
  auto entry = std::make_shared<Entry>();
  entry->key = key;
  entry->lengths.assign(valueCount_, 0);
  for (int i = 0; i < valueCount_; i++) {
    std::string name = key + "." + std::to_string(i);
    entry->cleanFiles.push_back(directory_ / name);
    entry->dirtyFiles.push_back(directory_ / (name + ".tmp"));
  }
  return entry;
}

std::unique_ptr<DiskLruCache::Snapshot> DiskLruCache::get(std::string_view key) {
  MutexLock lock(mutex_);
  initializeLocked();
  checkNotClosedLocked();
  validateKey(key);
  std::shared_ptr<Entry> entry = findLocked(std::string(key));
  if (!entry) return nullptr;
  std::unique_ptr<Snapshot> snapshot = snapshotLocked(entry);
  if (!snapshot) return nullptr;
  redundantOpCount_++;
  recordReadLocked(key);
  if (journalRebuildRequiredLocked()) scheduleCleanupLocked();
  return snapshot;
}

std::optional<int64_t> DiskLruCache::touch(std::string_view key) {
  MutexLock lock(mutex_);
  initializeLocked();
  checkNotClosedLocked();
  validateKey(key);
  std::shared_ptr<Entry> entry = findLocked(std::string(key));
  if (!entry || !entry->readable) return std::nullopt;
  if (!civilized_ && (entry->currentEditor || entry->zombie)) return std::nullopt;
  redundantOpCount_++;
  recordReadLocked(key);
  if (journalRebuildRequiredLocked()) scheduleCleanupLocked();
  return entry->sequenceNumber;
}

std::unique_ptr<DiskLruCache::Snapshot> DiskLruCache::snapshotLocked(
    const std::shared_ptr<Entry>& entry) {
  if (!entry->readable) return nullptr;
  if (!civilized_ && (entry->currentEditor || entry->zombie)) return nullptr;
  // Open every value now, so the snapshot is one edit's values even if another commits later.
  std::vector<std::unique_ptr<Source>> sources;
  try {
    for (int i = 0; i < valueCount_; i++)
      sources.push_back(fileSystem_->source(entry->cleanFiles[i]));
  } catch (const FileNotFoundException&) {
    // A file was deleted behind our back: drop the entry so the size stays true.
    for (auto& source : sources) {
      try {
        source->close();
      } catch (const IOException&) {
        // Only read from: nothing is lost.
      }
    }
    try {
      removeEntryLocked(entry);
    } catch (const IOException&) {
      // The entry stays in the journal; its missing file drops it again next time.
    }
    return nullptr;
  }
  if (!civilized_) {
    for (auto& source : sources) {
      entry->lockingSourceCount++;
      source = std::make_unique<EntrySource>(shared_from_this(), entry, std::move(source));
    }
  }
  return std::make_unique<Snapshot>(shared_from_this(), entry->key, entry->sequenceNumber,
                                    std::move(sources), entry->lengths);
}

void DiskLruCache::sourceClosed(const std::shared_ptr<Entry>& entry) {
  MutexLock lock(mutex_);
  entry->lockingSourceCount--;
  if (entry->lockingSourceCount == 0 && entry->zombie) removeEntryLocked(entry);
}

std::unique_ptr<DiskLruCache::Editor> DiskLruCache::edit(std::string_view key,
                                                         int64_t expectedSequenceNumber) {
  MutexLock lock(mutex_);
  initializeLocked();
  checkNotClosedLocked();
  validateKey(key);
  std::string keyString(key);
  std::shared_ptr<Entry> entry = findLocked(keyString);
  if (expectedSequenceNumber != kAnySequenceNumber &&
      (!entry || entry->sequenceNumber != expectedSequenceNumber)) {
    return nullptr;  // The snapshot is stale.
  }
  if (entry && entry->currentEditor) return nullptr;            // Another edit is in progress.
  if (entry && entry->lockingSourceCount != 0) return nullptr;  // A reader holds the files.
  if (mostRecentTrimFailed_ || mostRecentRebuildFailed_) {
    // Over the limit, or no journal to record the edit in: no new edits until the cleanup that
    // this schedules succeeds.
    scheduleCleanupLocked();
    return nullptr;
  }
  // Record the edit before creating files, so a crash cannot leak them.
  writeJournalLocked(std::string(kDirty) + " " + keyString + "\n");
  if (hasJournalErrors_) {
    scheduleCleanupLocked();  // A rebuild writes a fresh journal and ends the errors.
    return nullptr;
  }
  if (!entry) {
    entry = newEntry(keyString);
    lru_.push_back(entry);
    entries_[keyString] = std::prev(lru_.end());
  }
  auto editor = std::make_shared<EditorState>();
  editor->entry = entry;
  if (!entry->readable) editor->written.assign(valueCount_, false);
  entry->currentEditor = editor;
  return std::make_unique<Editor>(shared_from_this(), editor);
}

void DiskLruCache::completeEditLocked(const std::shared_ptr<EditorState>& editor, bool success) {
  std::shared_ptr<Entry> entry = editor->entry;
  if (entry->currentEditor != editor) throw std::logic_error("editor is not the entry's");

  // A new entry needs every value.
  if (success && !entry->readable) {
    for (int i = 0; i < valueCount_; i++) {
      if (!editor->written[i]) {
        completeEditLocked(editor, false);
        throw std::logic_error("Newly created entry didn't create value for index " +
                               std::to_string(i));
      }
      if (!fileSystem_->exists(entry->dirtyFiles[i])) {
        completeEditLocked(editor, false);
        return;
      }
    }
  }

  for (int i = 0; i < valueCount_; i++) {
    const auto& dirty = entry->dirtyFiles[i];
    if (success && !entry->zombie) {
      try {
        if (fileSystem_->exists(dirty)) {
          const auto& clean = entry->cleanFiles[i];
          fileSystem_->atomicMove(dirty, clean);
          int64_t oldLength = entry->lengths[i];
          int64_t newLength = fileSystem_->size(clean);
          entry->lengths[i] = newLength;
          size_ = size_ - oldLength + newLength;
        }
      } catch (const IOException&) {
        // Some values may be new and some old: never publish that. Drop the entry and tell the
        // caller; the cache itself stays usable.
        for (int j = i; j < valueCount_; j++) {
          try {
            fileSystem_->deleteIfExists(entry->dirtyFiles[j]);
          } catch (const IOException&) {
            // Not in the journal as CLEAN: removed when the cache next opens.
          }
        }
        entry->currentEditor = nullptr;
        entry->readable = true;  // So removeEntryLocked() deletes what was moved.
        removeEntryLocked(entry);
        throw;
      }
    } else {
      fileSystem_->deleteIfExists(dirty);
    }
  }

  entry->currentEditor = nullptr;
  if (entry->zombie) {
    removeEntryLocked(entry);
    return;
  }

  redundantOpCount_++;
  if (entry->readable || success) {
    entry->readable = true;
    std::string line = std::string(kClean) + " " + entry->key;
    for (int64_t length : entry->lengths) line += " " + std::to_string(length);
    writeJournalLocked(line + "\n");
    if (success) entry->sequenceNumber = nextSequenceNumber_++;
  } else {
    if (auto it = entries_.find(entry->key); it != entries_.end() && *it->second == entry) {
      lru_.erase(it->second);
      entries_.erase(it);
    }
    writeJournalLocked(std::string(kRemove) + " " + entry->key + "\n");
  }

  if (size_ > maxSize_ || journalRebuildRequiredLocked()) scheduleCleanupLocked();
}

void DiskLruCache::detachLocked(const std::shared_ptr<EditorState>& editor) {
  if (editor->entry->currentEditor != editor) return;
  if (civilized_) {
    completeEditLocked(editor, false);  // Delete its files now.
  } else {
    editor->entry->zombie = true;  // Its files are open: delete them when the edit completes.
  }
}

bool DiskLruCache::remove(std::string_view key) {
  MutexLock lock(mutex_);
  initializeLocked();
  checkNotClosedLocked();
  validateKey(key);
  std::shared_ptr<Entry> entry = findLocked(std::string(key));
  if (!entry) return false;
  bool removed = removeEntryLocked(entry);
  if (removed && size_ <= maxSize_) mostRecentTrimFailed_ = false;
  return removed;
}

bool DiskLruCache::removeEntryLocked(const std::shared_ptr<Entry>& entry) {
  if (!civilized_) {
    // Open files cannot be deleted here: defer to the last reader or the editor.
    if (entry->lockingSourceCount > 0) {
      // DIRTY, so that after a crash the entry is not revived.
      writeJournalLocked(std::string(kDirty) + " " + entry->key + "\n");
    }
    if (entry->lockingSourceCount > 0 || entry->currentEditor) {
      entry->zombie = true;
      return true;
    }
  }
  if (entry->currentEditor) detachLocked(entry->currentEditor);  // The edit stores nothing.

  for (int i = 0; i < valueCount_; i++) {
    fileSystem_->deleteIfExists(entry->cleanFiles[i]);
    size_ -= entry->lengths[i];
    entry->lengths[i] = 0;
  }
  redundantOpCount_++;
  writeJournalLocked(std::string(kRemove) + " " + entry->key + "\n");
  if (auto it = entries_.find(entry->key); it != entries_.end() && *it->second == entry) {
    lru_.erase(it->second);
    entries_.erase(it);
  }
  if (journalRebuildRequiredLocked()) scheduleCleanupLocked();
  return true;
}

int64_t DiskLruCache::size() {
  MutexLock lock(mutex_);
  initializeLocked();
  return size_;
}

int64_t DiskLruCache::maxSize() {
  MutexLock lock(mutex_);
  return maxSize_;
}

void DiskLruCache::setMaxSize(int64_t maxSize) {
  MutexLock lock(mutex_);
  maxSize_ = maxSize;
  if (initialized_) scheduleCleanupLocked();
}

void DiskLruCache::flush() {
  MutexLock lock(mutex_);
  if (!initialized_) return;
  checkNotClosedLocked();
  trimToSizeLocked();
  writeJournalLocked("");  // The READ lines waiting.
  if (journalWriter_ && !hasJournalErrors_) {
    try {
      journalWriter_->flush();
    } catch (const IOException&) {
      hasJournalErrors_ = true;
    }
  }
}

void DiskLruCache::trimToSizeLocked() {
  while (size_ > maxSize_) {
    std::shared_ptr<Entry> toEvict;
    for (const auto& entry : lru_) {
      if (!entry->zombie) {
        toEvict = entry;
        break;
      }
    }
    if (!toEvict) return;  // Only zombies left; they go as their readers close.
    removeEntryLocked(toEvict);
  }
  mostRecentTrimFailed_ = false;
}

void DiskLruCache::close() {
  MutexLock lock(mutex_);
  try {
    closeLocked();
  } catch (...) {
    cacheLock_.reset();
    throw;
  }
  cacheLock_.reset();
}

void DiskLruCache::closeLocked() {
  if (!initialized_ || closed_) {
    closed_ = true;
    return;
  }
  closed_ = true;
  std::vector<std::shared_ptr<EditorState>> editors;
  for (const auto& entry : lru_) {
    if (entry->currentEditor) editors.push_back(entry->currentEditor);
  }
  for (const auto& editor : editors) detachLocked(editor);
  writeJournalLocked("");  // The READ lines waiting.
  std::unique_ptr<Sink> writer = std::move(journalWriter_);
  trimToSizeLocked();
  if (writer) {
    try {
      writer->close();
    } catch (const IOException&) {
      // Every record was written through already; a failed close loses nothing more.
    }
  }
}

bool DiskLruCache::isClosed() {
  MutexLock lock(mutex_);
  return closed_;
}

void DiskLruCache::deleteCache() {
  MutexLock lock(mutex_);
  try {
    closeLocked();
    deleteContentsLocked();
  } catch (...) {
    cacheLock_.reset();
    throw;
  }
  cacheLock_.reset();
}

void DiskLruCache::deleteContentsLocked() {
  for (const auto& path : fileSystem_->list(directory_)) {
    if (path.filename() == kLockFile) continue;  // Held until the cache closes.
    fileSystem_->deleteIfExists(path);
  }
}

void DiskLruCache::evictAll() {
  MutexLock lock(mutex_);
  initializeLocked();
  std::vector<std::shared_ptr<Entry>> all(lru_.begin(), lru_.end());
  for (const auto& entry : all) removeEntryLocked(entry);
  mostRecentTrimFailed_ = false;
}

void DiskLruCache::checkNotClosedLocked() {
  if (closed_) throw std::logic_error("cache is closed");
}

void DiskLruCache::scheduleCleanupLocked() { cleanupQueue_->schedule(cleanupTask_); }

void DiskLruCache::runCleanup() {
  MutexLock lock(mutex_);
  if (!initialized_ || closed_) return;
  try {
    trimToSizeLocked();
  } catch (const IOException&) {
    mostRecentTrimFailed_ = true;
  }
  try {
    if (journalRebuildRequiredLocked() || hasJournalErrors_) rebuildJournalLocked();
  } catch (const IOException&) {
    mostRecentRebuildFailed_ = true;
    journalWriter_.reset();  // Records are dropped until a rebuild succeeds; edits are refused.
  }
}

bool DiskLruCache::hasJournalErrors() {
  MutexLock lock(mutex_);
  return hasJournalErrors_;
}

int DiskLruCache::redundantOpCount() {
  MutexLock lock(mutex_);
  return redundantOpCount_;
}

std::unique_ptr<DiskLruCache::SnapshotIterator> DiskLruCache::snapshots() {
  MutexLock lock(mutex_);
  initializeLocked();
  return std::make_unique<SnapshotIterator>(
      shared_from_this(), std::vector<std::shared_ptr<Entry>>(lru_.begin(), lru_.end()));
}

}  // namespace tern::internal
