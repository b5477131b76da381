// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
// The process disk_lru_cache_crash_test.cc kills: it opens a DiskLruCache (the real file system,
// the process-wide TaskRunner) and edits it as fast as it can until SIGKILL ends it.
//
//   tern_cache_crash_writer CACHE_DIR RECORD_FILE SEED MAX_SIZE READY_FD
//
// It writes the stable keys (and reads them a random number of times), then one byte to READY_FD,
// then loops over random operations on the churn keys: commits (some through a snapshot's edit()),
// aborts (some after a partial write, some by dropping the editor), removes, reads that check what
// they read, flushes, and now and then a close and reopen. Values are written in small pieces, a
// system call each, so a kill can land inside one. After each operation it reads a stable key
// (round robin), which keeps the stable keys out of the least recently used end, so a small
// MAX_SIZE evicts only churn keys. Each key's state goes to RECORD_FILE (SharedRecord, mapped
// shared) around every operation. Exits only on a failure: 2 for an exception, 3 for a value that
// does not check out.
#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <exception>
#include <memory>
#include <random>
#include <string>

#include "cache/disk_lru_cache.h"
#include "cache/file_system.h"
#include "concurrent/task_runner.h"
#include "slow/disk_lru_cache_crash_values.h"
#include "tern/buffer.h"

namespace tern::testing::cache_crash {
namespace {

using internal::DiskLruCache;

class Writer {
 public:
  Writer(std::string directory, SharedRecord& record, uint64_t seed, int64_t maxSize)
      : directory_(std::move(directory)), record_(record), random_(seed), maxSize_(maxSize) {
    open();
  }

  // The stable keys, then 1,600 to 1,999 reads of them: READ lines the journal's compaction
  // counts as redundant, so the first rebuild (due at 2,000) comes early, at a random point.
  void prepare() {
    for (int key = 0; key < kStableKeys; ++key) put(key, false);
    for (int reads = 1600 + static_cast<int>(random_() % 400); reads > 0; --reads) {
      check(nextStable_++ % kStableKeys);
    }
  }

  // One random operation on a churn key, then a read of a stable key.
  void step() {
    const int key = kStableKeys + static_cast<int>(random_() % kChurnKeys);
    const int choice = static_cast<int>(random_() % 1000);
    if (choice < 550) {
      put(key, choice < 100);
    } else if (choice < 650) {
      abortEdit(key);
    } else if (choice < 750) {
      remove(key);
    } else if (choice < 960) {
      check(key);
    } else if (choice < 999) {
      cache_->flush();
    } else {
      cache_->close();
      open();
    }
    check(nextStable_++ % kStableKeys);
    store(record_.operations, load(record_.operations) + 1);
    // The count of redundant journal lines only falls when a compaction rewrote the journal (or
    // the cache was reopened).
    const int redundant = cache_->redundantOpCount();
    if (redundant < redundantOpCount_ && choice < 999) {
      store(record_.rebuilds, load(record_.rebuilds) + 1);
    }
    redundantOpCount_ = redundant;
  }

 private:
  void open() {
    cache_ = DiskLruCache::open(internal::FileSystem::system(), directory_, kAppVersion,
                                kValueCount, maxSize_, internal::TaskRunner::instance());
    cache_->initialize();
  }

  // Value 0 is small (as the HTTP cache's metadata), value 1 up to 8 KiB (its body); a stable
  // key's are small, so the size they keep from eviction is known (kSmallMaxSizeFloor).
  size_t payloadLength(int key, int index) {
    const size_t limit = index == 0 || key < kStableKeys ? 256 : 8192;
    return random_() % 8 == 0 ? 0 : random_() % (limit + 1);
  }

  // Writes `value` in pieces of 1 to 1,024 bytes, each its own write(2).
  void writeInPieces(Sink& sink, const std::string& value, size_t stopAt) {
    size_t written = 0;
    while (written < stopAt) {
      size_t piece = std::min<size_t>(stopAt - written, 1 + random_() % 1024);
      Buffer buffer;
      buffer.writeUtf8(std::string_view(value).substr(written, piece));
      sink.write(buffer, buffer.size());
      written += piece;
    }
    sink.close();
  }

  std::unique_ptr<DiskLruCache::Editor> edit(int key, bool fromSnapshot) {
    const std::string name = keyName(key);
    if (fromSnapshot) {
      if (auto snapshot = cache_->get(name)) return snapshot->edit();
    }
    return cache_->edit(name);
  }

  void put(int key, bool fromSnapshot) {
    KeyRecord& record = record_.keys[key];
    const int64_t generation = ++generation_;
    store(record.pending, generation);
    auto editor = edit(key, fromSnapshot);
    if (!editor) fail("edit('" + keyName(key) + "') returned null");
    for (int i = 0; i < kValueCount; ++i) {
      std::string value = makeValue(keyName(key), i, generation, payloadLength(key, i));
      writeInPieces(*editor->newSink(i), value, value.size());
    }
    editor->commit();
    store(record.acked, generation);
    store(record.pending, 0);
  }

  void abortEdit(int key) {
    KeyRecord& record = record_.keys[key];
    store(record.pending, kDropping);
    {
      auto editor = edit(key, false);
      if (!editor) fail("edit('" + keyName(key) + "') returned null");
      const int64_t generation = ++generation_;
      const int values = 1 + static_cast<int>(random_() % kValueCount);
      for (int i = 0; i < values; ++i) {
        std::string value = makeValue(keyName(key), i, generation, payloadLength(key, i));
        writeInPieces(*editor->newSink(i), value, random_() % (value.size() + 1));
      }
      if (random_() % 2 == 0) editor->abort();  // Otherwise ~Editor aborts it.
    }
    // An aborted edit of a new entry leaves none; of a readable one, the entry as it was.
    store(record.pending, 0);
  }

  void remove(int key) {
    KeyRecord& record = record_.keys[key];
    store(record.pending, kDropping);
    cache_->remove(keyName(key));
    store(record.acked, kAbsent);
    store(record.pending, 0);
  }

  // Reads `key` and checks it is whole and the generation last committed. A churn entry missing
  // although committed was evicted (only with a small maxSize); a stable one never is.
  void check(int key) {
    const std::string name = keyName(key);
    auto snapshot = cache_->get(name);
    KeyRecord& record = record_.keys[key];
    if (!snapshot) {
      if (load(record.acked) != kAbsent && (maxSize_ >= kRoomForAll || key < kStableKeys)) {
        fail("'" + name + "' is gone without an eviction");
      }
      return;
    }
    for (int i = 0; i < kValueCount; ++i) {
      Buffer buffer;
      while (snapshot->getSource(i).read(buffer, 8192) != -1) {
      }
      std::string value = buffer.readUtf8();
      Verdict verdict = verifyValue(value, name, i);
      if (!verdict.error.empty()) fail(verdict.error);
      if (verdict.generation != load(record.acked)) {
        fail("'" + name + "' holds generation " + std::to_string(verdict.generation) +
             ", not the last committed " + std::to_string(load(record.acked)));
      }
      if (snapshot->getLength(i) != static_cast<int64_t>(value.size())) {
        fail("'" + name + "' getLength(" + std::to_string(i) + ") is " +
             std::to_string(snapshot->getLength(i)) + ", read " + std::to_string(value.size()));
      }
    }
  }

  [[noreturn]] static void fail(const std::string& what) {
    std::fprintf(stderr, "tern_cache_crash_writer: %s\n", what.c_str());
    std::_Exit(3);
  }

  std::string directory_;
  SharedRecord& record_;
  std::mt19937_64 random_;
  int64_t maxSize_;
  std::shared_ptr<DiskLruCache> cache_;
  int64_t generation_ = 0;
  int nextStable_ = 0;
  int redundantOpCount_ = 0;
};

int run(int argc, char** argv) {
  if (argc != 6) {
    std::fprintf(stderr, "usage: %s CACHE_DIR RECORD_FILE SEED MAX_SIZE READY_FD\n", argv[0]);
    return 2;
  }
  int recordFd = ::open(argv[2], O_RDWR | O_CLOEXEC);
  if (recordFd < 0) {
    std::perror(argv[2]);
    return 2;
  }
  void* mapped =
      ::mmap(nullptr, sizeof(SharedRecord), PROT_READ | PROT_WRITE, MAP_SHARED, recordFd, 0);
  ::close(recordFd);
  if (mapped == MAP_FAILED) {
    std::perror("mmap");
    return 2;
  }
  auto& record = *static_cast<SharedRecord*>(mapped);
  Writer writer(argv[1], record, std::strtoull(argv[3], nullptr, 10),
                std::strtoll(argv[4], nullptr, 10));
  writer.prepare();
  const int readyFd = std::atoi(argv[5]);
  if (::write(readyFd, "r", 1) != 1) {
    std::perror("write READY_FD");
    return 2;
  }
  ::close(readyFd);
  while (true) writer.step();
}

}  // namespace
}  // namespace tern::testing::cache_crash

int main(int argc, char** argv) {
  try {
    return tern::testing::cache_crash::run(argc, argv);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "tern_cache_crash_writer: %s\n", e.what());
    return 2;
  }
}
