// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstdint>
#include <filesystem>
#include <list>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "cache/file_system.h"
#include "concurrent/mutex.h"
#include "concurrent/task_runner.h"
#include "tern/sink.h"
#include "tern/source.h"

namespace tern::internal {

// A cache on a bounded amount of disk space, as OkHttp's DiskLruCache and in its on-disk format,
// byte for byte, so a directory written by either can be read by the other (docs/cache.md).
// Each entry has a string key matching [a-z0-9_-]{1,120} and `valueCount` values, each a file
// (`key.0`, `key.1`, …, written as `key.N.tmp` and renamed on commit). The `journal` records
// every change as a line (DIRTY, CLEAN, REMOVE, READ); it is compacted on the TaskRunner once it
// holds 2,000 redundant lines and at least as many as live entries, writing `journal.tmp` and
// keeping `journal.bkp` while swapping.
//
// Guarantees: a reader sees one committed edit (a Snapshot opens all its files at once and keeps
// them while the entry is replaced or removed); one Editor per key at a time; when the size
// passes maxSize the least recently used entries are evicted on the TaskRunner; a crash loses at
// most the entries being edited. A corrupt journal resets the cache, as OkHttp: the directory's
// contents are deleted and the cache starts empty. A file system that fails degrades the cache
// (edits return nullptr, commits do not publish), never the caller's process.
//
// Thread-safe: one mutex guards the cache, its entries, editors and snapshots' bookkeeping.
// Made by open(); Snapshots and Editors keep the cache alive. Opening takes the lock file
// `lock` in the directory (the name OkHttp uses): a second open of the same directory, in this
// process or another, throws IOException("Cache already open at '<dir>' in …").
class DiskLruCache : public std::enable_shared_from_this<DiskLruCache> {
 public:
  static constexpr int64_t kAnySequenceNumber = -1;
  static constexpr const char* kJournalFile = "journal";
  static constexpr const char* kJournalFileTemp = "journal.tmp";
  static constexpr const char* kJournalFileBackup = "journal.bkp";
  static constexpr const char* kLockFile = "lock";
  static constexpr const char* kMagic = "libcore.io.DiskLruCache";
  static constexpr const char* kVersion1 = "1";
  static constexpr int kRedundantOpCompactThreshold = 2000;

  class Editor;
  class Snapshot;
  class SnapshotIterator;
  struct Entry;
  struct EditorState;

  // A cache in `directory` (created if needed) for values of `appVersion` (a journal of another
  // version is discarded), each entry holding `valueCount` values, at most `maxSize` bytes.
  // Nothing touches the disk until initialize() or the first operation. Background trims and
  // journal rebuilds run on a queue of `taskRunner`. Throws std::invalid_argument if maxSize or
  // valueCount is not positive, or an argument is null.
  static std::shared_ptr<DiskLruCache> open(std::shared_ptr<FileSystem> fileSystem,
                                            std::filesystem::path directory, int appVersion,
                                            int valueCount, int64_t maxSize,
                                            std::shared_ptr<TaskRunner> taskRunner);

  ~DiskLruCache();
  DiskLruCache(const DiskLruCache&) = delete;
  DiskLruCache& operator=(const DiskLruCache&) = delete;

  // Takes the lock and reads the journal (or recovers from journal.bkp, or starts empty after a
  // corrupt one). Idempotent. Throws IOException if the lock is held elsewhere or the directory
  // cannot be used at all.
  void initialize();

  // A snapshot of the entry `key`, or nullptr if it has none readable. Moves it to the head of
  // the LRU order. Throws std::invalid_argument for a bad key, std::logic_error once closed.
  std::unique_ptr<Snapshot> get(std::string_view key);

  // What get() does for the LRU order and the journal, without opening the files: the sequence
  // number of `key`'s readable committed edit, or nullopt if get() would return none (a caller
  // that kept that edit's values in memory serves them without touching the disk).
  std::optional<int64_t> touch(std::string_view key);

  // An editor for `key`, or nullptr if another edit is in progress, the snapshot it came from is
  // stale (expectedSequenceNumber), or the cache cannot record edits now (journal errors, a
  // failed trim or rebuild: a cleanup is scheduled to recover).
  std::unique_ptr<Editor> edit(std::string_view key,
                               int64_t expectedSequenceNumber = kAnySequenceNumber);

  // Drops `key`'s entry; true if it had one. An edit in progress completes without storing.
  bool remove(std::string_view key);

  // Bytes used by the values (may exceed maxSize until the background trim runs).
  int64_t size();
  int64_t maxSize();
  // Changes the limit and schedules a trim.
  void setMaxSize(int64_t maxSize);

  // Trims to size and flushes the journal.
  void flush();
  // Closes the cache: edits in progress are detached (they store nothing), files stay. Idempotent.
  void close();
  bool isClosed();
  // Closes the cache and deletes every file of its directory (except the lock, released last).
  void deleteCache();
  // Removes every entry.
  void evictAll();

  // The entries readable now, least recently used first, each opened as it is reached. A
  // snapshot returned by next() can be removed with remove().
  std::unique_ptr<SnapshotIterator> snapshots();

  const std::filesystem::path& directory() const { return directory_; }
  FileSystem& fileSystem() const { return *fileSystem_; }

  // Observed state, for tests and the Cache's statistics.
  bool hasJournalErrors();
  int redundantOpCount();

  // Only open() can make a key.
  class PassKey {
    friend class DiskLruCache;
    PassKey() = default;
  };
  DiskLruCache(PassKey, std::shared_ptr<FileSystem> fileSystem, std::filesystem::path directory,
               int appVersion, int valueCount, int64_t maxSize,
               std::shared_ptr<TaskRunner> taskRunner);

 private:
  friend class Editor;
  friend class Snapshot;
  class CacheLock;
  class EntrySource;
  class EditorSink;

  void initializeLocked() TERN_REQUIRES(mutex_);
  void readJournalLocked() TERN_REQUIRES(mutex_);
  void readJournalLineLocked(std::string_view line) TERN_REQUIRES(mutex_);
  void processJournalLocked() TERN_REQUIRES(mutex_);
  void clearEntriesLocked() TERN_REQUIRES(mutex_);
  void rebuildJournalLocked() TERN_REQUIRES(mutex_);
  void openJournalWriterLocked() TERN_REQUIRES(mutex_);
  void writeJournalLocked(std::string_view line) TERN_REQUIRES(mutex_);
  void recordReadLocked(std::string_view key) TERN_REQUIRES(mutex_);
  bool journalRebuildRequiredLocked() TERN_REQUIRES(mutex_);
  std::unique_ptr<Snapshot> snapshotLocked(const std::shared_ptr<Entry>& entry)
      TERN_REQUIRES(mutex_);
  void completeEditLocked(const std::shared_ptr<EditorState>& editor, bool success)
      TERN_REQUIRES(mutex_);
  void detachLocked(const std::shared_ptr<EditorState>& editor) TERN_REQUIRES(mutex_);
  bool removeEntryLocked(const std::shared_ptr<Entry>& entry) TERN_REQUIRES(mutex_);
  void trimToSizeLocked() TERN_REQUIRES(mutex_);
  void closeLocked() TERN_REQUIRES(mutex_);
  void deleteContentsLocked() TERN_REQUIRES(mutex_);
  void checkNotClosedLocked() TERN_REQUIRES(mutex_);
  void scheduleCleanupLocked() TERN_REQUIRES(mutex_);
  void runCleanup();
  void sourceClosed(const std::shared_ptr<Entry>& entry);
  std::shared_ptr<Entry> findLocked(const std::string& key) TERN_REQUIRES(mutex_);
  std::shared_ptr<Entry> newEntry(const std::string& key);
  std::filesystem::path file(std::string_view name) const { return directory_ / name; }

  const std::shared_ptr<FileSystem> fileSystem_;
  const std::filesystem::path directory_;
  const int appVersion_;
  const int valueCount_;
  const std::shared_ptr<TaskRunner> taskRunner_;
  std::unique_ptr<TaskQueue> cleanupQueue_;
  std::shared_ptr<Task> cleanupTask_;

  Mutex mutex_;
  int64_t maxSize_ TERN_GUARDED_BY(mutex_);
  int64_t size_ TERN_GUARDED_BY(mutex_) = 0;
  // Entries in LRU order (least recent first), and an index by key.
  std::list<std::shared_ptr<Entry>> lru_ TERN_GUARDED_BY(mutex_);
  std::unordered_map<std::string, std::list<std::shared_ptr<Entry>>::iterator> entries_
      TERN_GUARDED_BY(mutex_);
  std::unique_ptr<Sink> journalWriter_ TERN_GUARDED_BY(mutex_);  // Null: records are dropped.
  std::unique_ptr<CacheLock> cacheLock_ TERN_GUARDED_BY(mutex_);
  int redundantOpCount_ TERN_GUARDED_BY(mutex_) = 0;
  // READ lines not written yet (see recordReadLocked()), at most about kPendingReadsMax bytes.
  static constexpr size_t kPendingReadsMax = 4096;
  std::string pendingReads_ TERN_GUARDED_BY(mutex_);
  bool hasJournalErrors_ TERN_GUARDED_BY(mutex_) = false;
  bool civilized_ TERN_GUARDED_BY(mutex_) = true;
  bool initialized_ TERN_GUARDED_BY(mutex_) = false;
  bool closed_ TERN_GUARDED_BY(mutex_) = false;
  bool mostRecentTrimFailed_ TERN_GUARDED_BY(mutex_) = false;
  bool mostRecentRebuildFailed_ TERN_GUARDED_BY(mutex_) = false;
  // Entries read from the journal have 0, so commits start at 1: a snapshot of a loaded entry
  // never matches the entry after its first commit.
  int64_t nextSequenceNumber_ TERN_GUARDED_BY(mutex_) = 1;
};

// The values of one committed edit, open for reading. Closing it (or destroying it) closes the
// sources. Not thread-safe; any thread.
class DiskLruCache::Snapshot {
 public:
  Snapshot(std::shared_ptr<DiskLruCache> cache, std::string key, int64_t sequenceNumber,
           std::vector<std::unique_ptr<Source>> sources, std::vector<int64_t> lengths);
  ~Snapshot();
  Snapshot(const Snapshot&) = delete;
  Snapshot& operator=(const Snapshot&) = delete;

  const std::string& key() const { return key_; }
  // Which committed edit this is: edit(key(), sequenceNumber()) edits only while it is current.
  int64_t sequenceNumber() const { return sequenceNumber_; }
  // An editor for this entry, or nullptr if it changed since this snapshot or is being edited.
  std::unique_ptr<Editor> edit();
  // The value at `index`, unbuffered. Owned by the snapshot.
  Source& getSource(int index);
  int64_t getLength(int index) const;
  void close();

 private:
  std::shared_ptr<DiskLruCache> cache_;
  std::string key_;
  int64_t sequenceNumber_;
  std::vector<std::unique_ptr<Source>> sources_;
  std::vector<int64_t> lengths_;
};

// Edits one entry's values. commit() publishes them; abort() (or destruction without either)
// drops them. Not thread-safe; any thread.
class DiskLruCache::Editor {
 public:
  Editor(std::shared_ptr<DiskLruCache> cache, std::shared_ptr<EditorState> state);
  ~Editor();  // Aborts an edit neither committed nor aborted.
  Editor(const Editor&) = delete;
  Editor& operator=(const Editor&) = delete;

  // The last committed value at `index`, or nullptr if none (a new entry) or the edit was
  // detached.
  std::unique_ptr<Source> newSource(int index);
  // A sink writing the value at `index`. It never throws on write: an I/O error detaches the
  // edit, so commit() then stores nothing. After a detach it is a black hole.
  std::unique_ptr<Sink> newSink(int index);
  // Publishes the edit. A new entry must have written every value (std::logic_error otherwise).
  // Throws IOException if the values could not be moved into place; the entry is then dropped.
  // std::logic_error if already committed or aborted. Returns false if the edit had been
  // detached (a write failed, the entry was removed, the cache closed): nothing was published.
  bool commit();
  void abort();

 private:
  std::shared_ptr<DiskLruCache> cache_;
  std::shared_ptr<EditorState> state_;
};

// See DiskLruCache::snapshots().
class DiskLruCache::SnapshotIterator {
 public:
  explicit SnapshotIterator(std::shared_ptr<DiskLruCache> cache,
                            std::vector<std::shared_ptr<Entry>> entries);
  bool hasNext();
  // Throws std::out_of_range when there is none.
  std::unique_ptr<Snapshot> next();
  // Removes the entry of the last snapshot next() returned (std::logic_error if none).
  void remove();

 private:
  std::shared_ptr<DiskLruCache> cache_;
  std::vector<std::shared_ptr<Entry>> entries_;
  size_t position_ = 0;
  std::unique_ptr<Snapshot> next_;
  std::optional<std::string> removeKey_;
};

}  // namespace tern::internal
