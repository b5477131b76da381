// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
// DiskLruCache's journal: reading it (OkHttp's format and its corruption rules), and rebuilding
// it compacted.
#include <charconv>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "cache/disk_lru_cache.h"
#include "cache/disk_lru_cache_entry.h"
#include "tern/buffer.h"
#include "tern/buffered_source.h"

namespace tern::internal {

using namespace disk_lru_cache;

namespace {

IOException unexpectedLine(std::string_view line) {
  return IOException("unexpected journal line: " + std::string(line));
}

}  // namespace

void DiskLruCache::readJournalLocked() {
  std::unique_ptr<BufferedSource> in = buffer(fileSystem_->source(file(kJournalFile)));
  std::string magic = in->readUtf8LineStrict();
  std::string version = in->readUtf8LineStrict();
  std::string appVersion = in->readUtf8LineStrict();
  std::string valueCount = in->readUtf8LineStrict();
  std::string blank = in->readUtf8LineStrict();
  if (magic != kMagic || version != kVersion1 || appVersion != std::to_string(appVersion_) ||
      valueCount != std::to_string(valueCount_) || !blank.empty()) {
    throw IOException("unexpected journal header: [" + magic + ", " + version + ", " + valueCount +
                      ", " + blank + "]");
  }
  int lineCount = 0;
  while (true) {
    std::string line;
    try {
      line = in->readUtf8LineStrict();
    } catch (const EOFException&) {
      break;  // The end of the journal, or a truncated last line (checked below).
    }
    readJournalLineLocked(line);
    lineCount++;
  }
  redundantOpCount_ = lineCount - static_cast<int>(entries_.size());
  bool truncated = !in->exhausted();
  in->close();
  if (truncated) {
    // A crash mid-append: rewrite the journal before appending to it.
    rebuildJournalLocked();
  } else {
    openJournalWriterLocked();
  }
}

void DiskLruCache::readJournalLineLocked(std::string_view line) {
  size_t firstSpace = line.find(' ');
  if (firstSpace == std::string_view::npos) throw unexpectedLine(line);
  size_t keyBegin = firstSpace + 1;
  size_t secondSpace = line.find(' ', keyBegin);
  std::string key;
  if (secondSpace == std::string_view::npos) {
    key = line.substr(keyBegin);
    if (firstSpace == kRemove.size() && line.starts_with(kRemove)) {
      if (auto it = entries_.find(key); it != entries_.end()) {
        (*it->second)->currentEditor = nullptr;  // A DIRTY line's placeholder: break the cycle.
        lru_.erase(it->second);
        entries_.erase(it);
      }
      return;
    }
  } else {
    key = line.substr(keyBegin, secondSpace - keyBegin);
  }
  // Stricter than OkHttp: a key that could not have been written names files outside the
  // directory ("../x"), which processing a DIRTY line would delete.
  if (!isLegalKey(key)) throw unexpectedLine(line);

  std::shared_ptr<Entry> entry = findLocked(key);
  if (!entry) {
    entry = newEntry(key);
    lru_.push_back(entry);
    entries_[key] = std::prev(lru_.end());
  }

  if (secondSpace != std::string_view::npos && firstSpace == kClean.size() &&
      line.starts_with(kClean)) {
    std::string_view rest = line.substr(secondSpace + 1);
    std::vector<int64_t> lengths;
    size_t start = 0;
    while (true) {
      size_t end = rest.find(' ', start);
      std::string_view part = rest.substr(start, end == std::string_view::npos ? end : end - start);
      int64_t value = 0;
      auto [ptr, error] = std::from_chars(part.data(), part.data() + part.size(), value);
      // Lengths are plain decimal numbers; a sign or anything else is corruption.
      if (part.empty() || error != std::errc() || ptr != part.data() + part.size() ||
          part[0] == '-') {
        throw unexpectedLine(line);
      }
      lengths.push_back(value);
      if (end == std::string_view::npos) break;
      start = end + 1;
    }
    if (static_cast<int>(lengths.size()) != valueCount_) throw unexpectedLine(line);
    entry->readable = true;
    entry->currentEditor = nullptr;
    entry->lengths = std::move(lengths);
  } else if (secondSpace == std::string_view::npos && firstSpace == kDirty.size() &&
             line.starts_with(kDirty)) {
    auto editor = std::make_shared<EditorState>();
    editor->entry = entry;
    entry->currentEditor = editor;
  } else if (secondSpace == std::string_view::npos && firstSpace == kRead.size() &&
             line.starts_with(kRead)) {
    // findLocked() already moved it to the head of the LRU order.
  } else {
    throw unexpectedLine(line);
  }
}

void DiskLruCache::processJournalLocked() {
  fileSystem_->deleteIfExists(file(kJournalFileTemp));
  for (auto it = lru_.begin(); it != lru_.end();) {
    Entry& entry = **it;
    if (!entry.currentEditor) {
      for (int64_t length : entry.lengths) {
        // Lengths are the journal's word; a sum past int64 can only be corruption.
        if (__builtin_add_overflow(size_, length, &size_)) {
          throw IOException("unexpected journal: lengths overflow for " + entry.key);
        }
      }
      ++it;
    } else {
      // Edited when the process ended: the files may be partial.
      entry.currentEditor = nullptr;
      for (int i = 0; i < valueCount_; i++) {
        fileSystem_->deleteIfExists(entry.cleanFiles[i]);
        fileSystem_->deleteIfExists(entry.dirtyFiles[i]);
      }
      entries_.erase(entry.key);
      it = lru_.erase(it);
    }
  }
}

void DiskLruCache::rebuildJournalLocked() {
  pendingReads_.clear();  // The new journal lists the entries in their LRU order.
  if (journalWriter_) {
    try {
      journalWriter_->close();
    } catch (const IOException&) {
      // The old journal is being replaced; what it failed to write is in the new one.
    }
    journalWriter_.reset();
  }
  Buffer contents;
  contents.writeUtf8(kMagic).writeUtf8("\n").writeUtf8(kVersion1).writeUtf8("\n");
  contents.writeDecimalLong(appVersion_).writeUtf8("\n");
  contents.writeDecimalLong(valueCount_).writeUtf8("\n\n");
  for (const auto& entry : lru_) {
    if (entry->currentEditor) {
      contents.writeUtf8(kDirty).writeUtf8(" ").writeUtf8(entry->key).writeUtf8("\n");
    } else {
      contents.writeUtf8(kClean).writeUtf8(" ").writeUtf8(entry->key);
      for (int64_t length : entry->lengths) contents.writeUtf8(" ").writeDecimalLong(length);
      contents.writeUtf8("\n");
    }
  }
  {
    std::unique_ptr<Sink> tmp = fileSystem_->sink(file(kJournalFileTemp));
    tmp->write(contents, contents.size());
    tmp->close();
  }
  if (fileSystem_->exists(file(kJournalFile))) {
    fileSystem_->atomicMove(file(kJournalFile), file(kJournalFileBackup));
    fileSystem_->atomicMove(file(kJournalFileTemp), file(kJournalFile));
    fileSystem_->deleteIfExists(file(kJournalFileBackup));
  } else {
    fileSystem_->atomicMove(file(kJournalFileTemp), file(kJournalFile));
  }
  openJournalWriterLocked();
  redundantOpCount_ = 0;
  hasJournalErrors_ = false;
  mostRecentRebuildFailed_ = false;
}

}  // namespace tern::internal
