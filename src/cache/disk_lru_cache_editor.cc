// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
// DiskLruCache's handles: snapshots, editors and their sinks, and the snapshot iterator.
#include <stdexcept>
#include <string>
#include <utility>

#include "cache/disk_lru_cache.h"
#include "cache/disk_lru_cache_entry.h"
#include "tern/buffer.h"
#include "tern/timeout.h"

namespace tern::internal {

namespace {

// A sink that drops everything: an editor's sink once its edit is detached.
class BlackholeSink final : public Sink {
 public:
  void write(Buffer& source, int64_t byteCount) override { source.skip(byteCount); }
  void flush() override {}
  Timeout& timeout() override { return timeout_; }
  void close() override {}

 private:
  Timeout timeout_;
};

}  // namespace

// An editor's value sink. It never throws from write, flush or close: the first IOException
// detaches the edit (so commit() stores nothing) and later bytes are dropped, as OkHttp's
// FaultHidingSink. A caller streaming a response into the cache must not fail because the disk
// did.
class DiskLruCache::EditorSink final : public Sink {
 public:
  EditorSink(std::shared_ptr<DiskLruCache> cache, std::shared_ptr<EditorState> editor,
             std::unique_ptr<Sink> delegate)
      : cache_(std::move(cache)), editor_(std::move(editor)), delegate_(std::move(delegate)) {}

  void write(Buffer& source, int64_t byteCount) override {
    if (hasErrors_) {
      source.skip(byteCount);
      return;
    }
    guarded([&] { delegate_->write(source, byteCount); });
  }
  void flush() override {
    if (!hasErrors_) guarded([&] { delegate_->flush(); });
  }
  Timeout& timeout() override { return delegate_->timeout(); }
  void close() override {
    if (closed_) return;
    closed_ = true;
    guarded([&] { delegate_->close(); });
  }

 private:
  template <typename F>
  void guarded(F&& f) {
    try {
      f();
    } catch (const IOException&) {
      hasErrors_ = true;
      MutexLock lock(cache_->mutex_);
      try {
        cache_->detachLocked(editor_);
      } catch (const IOException&) {
        // The dirty file could not be deleted: it is removed when the cache next opens (the
        // journal holds a DIRTY line for it and no CLEAN one).
      }
    }
  }

  std::shared_ptr<DiskLruCache> cache_;
  std::shared_ptr<EditorState> editor_;
  std::unique_ptr<Sink> delegate_;
  bool hasErrors_ = false;
  bool closed_ = false;
};

// Snapshot ----------------------------------------------------------------------------------

DiskLruCache::Snapshot::Snapshot(std::shared_ptr<DiskLruCache> cache, std::string key,
                                 int64_t sequenceNumber,
                                 std::vector<std::unique_ptr<Source>> sources,
                                 std::vector<int64_t> lengths)
    : cache_(std::move(cache)),
      key_(std::move(key)),
      sequenceNumber_(sequenceNumber),
      sources_(std::move(sources)),
      lengths_(std::move(lengths)) {}

DiskLruCache::Snapshot::~Snapshot() { close(); }

std::unique_ptr<DiskLruCache::Editor> DiskLruCache::Snapshot::edit() {
  return cache_->edit(key_, sequenceNumber_);
}

Source& DiskLruCache::Snapshot::getSource(int index) { return *sources_.at(index); }

int64_t DiskLruCache::Snapshot::getLength(int index) const { return lengths_.at(index); }

void DiskLruCache::Snapshot::close() {
  for (auto& source : sources_) {
    try {
      source->close();
    } catch (const std::exception&) {
      // A read-only file: closing it cannot lose data.
    }
  }
}

// Editor ------------------------------------------------------------------------------------

DiskLruCache::Editor::Editor(std::shared_ptr<DiskLruCache> cache,
                             std::shared_ptr<EditorState> state)
    : cache_(std::move(cache)), state_(std::move(state)) {}

DiskLruCache::Editor::~Editor() {
  MutexLock lock(cache_->mutex_);
  if (state_->done) return;
  state_->done = true;
  try {
    if (state_->entry->currentEditor == state_) cache_->completeEditLocked(state_, false);
  } catch (const std::exception&) {
    // An abandoned edit: its dirty file is removed when the cache next opens.
  }
}

std::unique_ptr<Source> DiskLruCache::Editor::newSource(int index) {
  MutexLock lock(cache_->mutex_);
  if (state_->done) throw std::logic_error("editor is already committed or aborted");
  const Entry& entry = *state_->entry;
  if (!entry.readable || entry.currentEditor != state_ || entry.zombie) return nullptr;
  try {
    return cache_->fileSystem_->source(entry.cleanFiles.at(index));
  } catch (const FileNotFoundException&) {
    return nullptr;
  }
}

std::unique_ptr<Sink> DiskLruCache::Editor::newSink(int index) {
  MutexLock lock(cache_->mutex_);
  if (state_->done) throw std::logic_error("editor is already committed or aborted");
  Entry& entry = *state_->entry;
  if (index < 0 || index >= cache_->valueCount_) {
    throw std::out_of_range("value index " + std::to_string(index) + " not in [0, " +
                            std::to_string(cache_->valueCount_) + ")");
  }
  if (entry.currentEditor != state_) return std::make_unique<BlackholeSink>();
  if (!entry.readable) state_->written[index] = true;
  std::unique_ptr<Sink> sink;
  try {
    sink = cache_->fileSystem_->sink(entry.dirtyFiles[index]);
  } catch (const IOException&) {
    // Cannot create the file: the edit stores nothing, and the caller need not care.
    cache_->detachLocked(state_);
    return std::make_unique<BlackholeSink>();
  }
  return std::make_unique<EditorSink>(cache_, state_, std::move(sink));
}

bool DiskLruCache::Editor::commit() {
  MutexLock lock(cache_->mutex_);
  if (state_->done) throw std::logic_error("editor is already committed or aborted");
  state_->done = true;
  if (state_->entry->currentEditor != state_) return false;  // Detached: nothing to publish.
  cache_->completeEditLocked(state_, true);
  return true;
}

void DiskLruCache::Editor::abort() {
  MutexLock lock(cache_->mutex_);
  if (state_->done) throw std::logic_error("editor is already committed or aborted");
  state_->done = true;
  if (state_->entry->currentEditor == state_) cache_->completeEditLocked(state_, false);
}

// SnapshotIterator --------------------------------------------------------------------------

DiskLruCache::SnapshotIterator::SnapshotIterator(std::shared_ptr<DiskLruCache> cache,
                                                 std::vector<std::shared_ptr<Entry>> entries)
    : cache_(std::move(cache)), entries_(std::move(entries)) {}

bool DiskLruCache::SnapshotIterator::hasNext() {
  if (next_) return true;
  MutexLock lock(cache_->mutex_);
  if (cache_->closed_) return false;
  while (position_ < entries_.size()) {
    std::shared_ptr<Entry> entry = entries_[position_++];
    auto it = cache_->entries_.find(entry->key);
    if (it == cache_->entries_.end() || *it->second != entry) continue;  // Removed meanwhile.
    next_ = cache_->snapshotLocked(entry);
    if (next_) return true;
  }
  return false;
}

std::unique_ptr<DiskLruCache::Snapshot> DiskLruCache::SnapshotIterator::next() {
  if (!hasNext()) throw std::out_of_range("no more snapshots");
  removeKey_ = next_->key();
  return std::move(next_);
}

void DiskLruCache::SnapshotIterator::remove() {
  if (!removeKey_) throw std::logic_error("remove() before next()");
  std::string key = std::move(*removeKey_);
  removeKey_.reset();
  try {
    cache_->remove(key);
  } catch (const IOException&) {
    // As OkHttp: the entry's files are gone or going; only the journal could not say so.
  }
}

}  // namespace tern::internal
