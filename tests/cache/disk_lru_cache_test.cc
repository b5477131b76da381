// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
// In the spirit of OkHttp's DiskLruCacheTest: every test runs twice, on a file system that can
// delete open files (Linux) and on one that cannot (FaultyFileSystem's Windows mode), where
// removal waits for readers (zombies).
#include "cache/disk_lru_cache.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <atomic>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "support/faulty_file_system.h"
#include "support/task_faker.h"
#include "tern/buffer.h"
#include "tern/buffered_sink.h"
#include "tern/exceptions.h"

namespace tern::internal {
namespace {

using testing::FaultyFileSystem;
using testing::TaskFaker;
using Snapshot = DiskLruCache::Snapshot;
using Editor = DiskLruCache::Editor;

constexpr int kAppVersion = 100;
constexpr int64_t kNoLimit = 2147483647;

std::string readAll(Source& source) {
  Buffer buffer;
  while (source.read(buffer, 8192) != -1) {
  }
  return buffer.readUtf8();
}

void setString(Editor& editor, int index, std::string_view value) {
  auto sink = buffer(editor.newSink(index));
  sink->writeUtf8(value);
  sink->close();
}

std::string readString(Editor& editor, int index) {
  auto source = editor.newSource(index);
  return source ? readAll(*source) : std::string("<null>");
}

class DiskLruCacheTest : public ::testing::TestWithParam<bool> {
 protected:
  void SetUp() override {
    static std::atomic<int> counter{0};
    windows_ = GetParam();
    dir_ = std::filesystem::temp_directory_path() /
           ("tern-disk-lru-cache-" + std::to_string(::getpid()) + "-" + std::to_string(counter++));
    std::filesystem::remove_all(dir_);
    fs_ = std::make_shared<FaultyFileSystem>(FileSystem::system(), windows_);
    journal_ = dir_ / "journal";
    journalBkp_ = dir_ / "journal.bkp";
    createNewCache();
  }

  void TearDown() override {
    for (auto& cache : caches_) {
      try {
        cache->close();
      } catch (const std::exception&) {
      }
    }
    caches_.clear();
    cache_.reset();
    EXPECT_EQ(fs_->openFileCount(), 0);
    std::filesystem::remove_all(dir_);
  }

  void createNewCache(int64_t maxSize = kNoLimit) {
    cache_ = DiskLruCache::open(fs_, dir_, kAppVersion, 2, maxSize, faker_.taskRunner());
    caches_.push_back(cache_);
    cache_->initialize();
  }

  // Closes the current cache and opens the directory again.
  void reopen(int64_t maxSize = kNoLimit) {
    cache_->close();
    createNewCache(maxSize);
  }

  bool taskQueued() { return !faker_.taskRunner()->activeQueues().empty(); }

  void set(const std::string& key, std::string_view v0, std::string_view v1) {
    auto editor = cache_->edit(key);
    ASSERT_NE(editor, nullptr) << key;
    setString(*editor, 0, v0);
    setString(*editor, 1, v1);
    editor->commit();
  }

  void assertValue(const std::string& key, std::string_view v0, std::string_view v1) {
    auto snapshot = cache_->get(key);
    ASSERT_NE(snapshot, nullptr) << key;
    EXPECT_EQ(readAll(snapshot->getSource(0)), v0);
    EXPECT_EQ(readAll(snapshot->getSource(1)), v1);
    EXPECT_EQ(snapshot->getLength(0), static_cast<int64_t>(v0.size()));
    EXPECT_EQ(snapshot->getLength(1), static_cast<int64_t>(v1.size()));
    EXPECT_TRUE(fs_->exists(cleanFile(key, 0)));
    EXPECT_TRUE(fs_->exists(cleanFile(key, 1)));
  }

  void assertAbsent(const std::string& key) {
    auto snapshot = cache_->get(key);
    EXPECT_EQ(snapshot, nullptr) << key;
    EXPECT_FALSE(fs_->exists(cleanFile(key, 0)));
    EXPECT_FALSE(fs_->exists(cleanFile(key, 1)));
    EXPECT_FALSE(fs_->exists(dirtyFile(key, 0)));
    EXPECT_FALSE(fs_->exists(dirtyFile(key, 1)));
  }

  std::filesystem::path cleanFile(const std::string& key, int i) {
    return dir_ / (key + "." + std::to_string(i));
  }
  std::filesystem::path dirtyFile(const std::string& key, int i) {
    return dir_ / (key + "." + std::to_string(i) + ".tmp");
  }

  static std::string readFile(const std::filesystem::path& file) {
    std::ifstream in(file, std::ios::binary);
    std::stringstream contents;
    contents << in.rdbuf();
    return contents.str();
  }
  static void writeFile(const std::filesystem::path& file, std::string_view contents) {
    std::filesystem::create_directories(file.parent_path());
    std::ofstream out(file, std::ios::binary | std::ios::trunc);
    out << contents;
  }

  static std::string header(std::string_view magic = "libcore.io.DiskLruCache",
                            std::string_view version = "1", std::string_view appVersion = "100",
                            std::string_view valueCount = "2", std::string_view blank = "") {
    return std::string(magic) + "\n" + std::string(version) + "\n" + std::string(appVersion) +
           "\n" + std::string(valueCount) + "\n" + std::string(blank) + "\n";
  }

  // The journal's exact bytes: OkHttp's header, then these lines.
  void assertJournalEquals(const std::vector<std::string>& lines) {
    std::string expected = header();
    for (const auto& line : lines) expected += line + "\n";
    EXPECT_EQ(readFile(journal_), expected);
  }

  void createJournal(const std::vector<std::string>& lines, const std::string& head = header()) {
    std::string contents = head;
    for (const auto& line : lines) contents += line + "\n";
    writeFile(journal_, contents);
  }

  void generateSomeGarbageFiles() {
    writeFile(cleanFile("g1", 0), "A");
    writeFile(cleanFile("g1", 1), "B");
    writeFile(cleanFile("g2", 0), "C");
    writeFile(cleanFile("g2", 1), "D");
    writeFile(cleanFile("g2", 1), "D");
    writeFile(dir_ / "otherFile0", "E");
    writeFile(dir_ / "otherFile1", "F");
  }

  void assertGarbageFilesAllDeleted() {
    EXPECT_FALSE(fs_->exists(cleanFile("g1", 0)));
    EXPECT_FALSE(fs_->exists(cleanFile("g1", 1)));
    EXPECT_FALSE(fs_->exists(cleanFile("g2", 0)));
    EXPECT_FALSE(fs_->exists(cleanFile("g2", 1)));
    EXPECT_FALSE(fs_->exists(dir_ / "otherFile0"));
    EXPECT_FALSE(fs_->exists(dir_ / "otherFile1"));
  }

  bool windows_ = false;
  std::filesystem::path dir_;
  std::filesystem::path journal_;
  std::filesystem::path journalBkp_;
  std::shared_ptr<FaultyFileSystem> fs_;
  TaskFaker faker_;
  std::vector<std::shared_ptr<DiskLruCache>> caches_;
  std::shared_ptr<DiskLruCache> cache_;
};

INSTANTIATE_TEST_SUITE_P(FileSystems, DiskLruCacheTest, ::testing::Values(false, true),
                         [](const auto& info) { return info.param ? "Windows" : "Posix"; });

// The format ------------------------------------------------------------------------------------

TEST_P(DiskLruCacheTest, EmptyCache) {
  cache_->close();
  assertJournalEquals({});
}

TEST_P(DiskLruCacheTest, ValidateKey) {
  for (std::string key :
       {std::string("has_space "), std::string("has_CR\r"), std::string("has_LF\n"),
        std::string("has_invalid/"), std::string("has_invalid\xe2\x98\x83"), std::string("UPPER"),
        std::string(""), std::string(121, 'a')}) {
    try {
      cache_->edit(key);
      FAIL() << key;
    } catch (const std::invalid_argument& e) {
      EXPECT_EQ(std::string(e.what()), "keys must match regex [a-z0-9_-]{1,120}: \"" + key + "\"");
    }
    EXPECT_THROW(cache_->get(key), std::invalid_argument);
    EXPECT_THROW(cache_->remove(key), std::invalid_argument);
  }
  cache_->edit(std::string(120, '0'))->abort();
  cache_->edit("abcdefghijklmnopqrstuvwxyz_0123456789")->abort();
  cache_->edit("-20384573948576")->abort();
}

TEST_P(DiskLruCacheTest, WriteAndReadEntry) {
  auto creator = cache_->edit("k1");
  setString(*creator, 0, "ABC");
  setString(*creator, 1, "DE");
  EXPECT_EQ(creator->newSource(0), nullptr);
  EXPECT_EQ(creator->newSource(1), nullptr);
  creator->commit();
  assertValue("k1", "ABC", "DE");
}

TEST_P(DiskLruCacheTest, ReadAndWriteEntryAcrossCacheOpenAndClose) {
  set("k1", "A", "B");
  reopen();
  assertValue("k1", "A", "B");
}

TEST_P(DiskLruCacheTest, ReadAndWriteEntryWithoutProperClose) {
  set("k1", "A", "B");
  // A crash: the directory opened again without closing (the lock is the process's, so the
  // first cache must let go of it, as a dead process would).
  cache_->close();
  writeFile(journal_, readFile(journal_));
  createNewCache();
  assertValue("k1", "A", "B");
}

TEST_P(DiskLruCacheTest, JournalWithEditAndPublish) {
  auto creator = cache_->edit("k1");
  assertJournalEquals({"DIRTY k1"});  // DIRTY is always written at once.
  setString(*creator, 0, "AB");
  setString(*creator, 1, "C");
  creator->commit();
  cache_->close();
  assertJournalEquals({"DIRTY k1", "CLEAN k1 2 1"});
}

TEST_P(DiskLruCacheTest, RevertedNewFileIsRemoveInJournal) {
  auto creator = cache_->edit("k1");
  setString(*creator, 0, "AB");
  setString(*creator, 1, "C");
  creator->abort();
  cache_->close();
  assertJournalEquals({"DIRTY k1", "REMOVE k1"});
}

TEST_P(DiskLruCacheTest, UnterminatedEditIsRevertedOnCacheClose) {
  auto editor = cache_->edit("k1");
  setString(*editor, 0, "AB");
  setString(*editor, 1, "C");
  cache_->close();
  std::vector<std::string> expected = windows_ ? std::vector<std::string>{"DIRTY k1"}
                                               : std::vector<std::string>{"DIRTY k1", "REMOVE k1"};
  assertJournalEquals(expected);
  editor->commit();
  assertJournalEquals(expected);  // The journal is closed.
  EXPECT_FALSE(fs_->exists(cleanFile("k1", 0)));
}

TEST_P(DiskLruCacheTest, DestroyedEditorAborts) {
  {
    auto editor = cache_->edit("k1");
    setString(*editor, 0, "AB");
  }
  EXPECT_FALSE(fs_->exists(dirtyFile("k1", 0)));
  cache_->close();
  assertJournalEquals({"DIRTY k1", "REMOVE k1"});
}

TEST_P(DiskLruCacheTest, JournalDoesNotIncludeReadOfYetUnpublishedValue) {
  auto creator = cache_->edit("k1");
  EXPECT_EQ(cache_->get("k1"), nullptr);
  setString(*creator, 0, "A");
  setString(*creator, 1, "BC");
  creator->commit();
  cache_->close();
  assertJournalEquals({"DIRTY k1", "CLEAN k1 1 2"});
}

TEST_P(DiskLruCacheTest, JournalWithEditAndPublishAndRead) {
  set("k1", "AB", "C");
  set("k2", "DEF", "G");
  cache_->get("k1")->close();
  cache_->close();
  assertJournalEquals({"DIRTY k1", "CLEAN k1 2 1", "DIRTY k2", "CLEAN k2 3 1", "READ k1"});
}

TEST_P(DiskLruCacheTest, JournalWrittenByOkHttpIsRead) {
  // What OkHttp leaves after edits, reads, a removal and an interrupted edit.
  cache_->close();
  writeFile(cleanFile("k1", 0), "AB");
  writeFile(cleanFile("k1", 1), "C");
  writeFile(cleanFile("k2", 0), "DEF");
  writeFile(cleanFile("k2", 1), "G");
  writeFile(dirtyFile("k3", 0), "partial");
  createJournal({"DIRTY k1", "CLEAN k1 2 1", "DIRTY k2", "CLEAN k2 3 1", "READ k1", "DIRTY k4",
                 "CLEAN k4 1 1", "REMOVE k4", "DIRTY k3"});
  createNewCache();
  assertValue("k1", "AB", "C");
  assertValue("k2", "DEF", "G");
  EXPECT_EQ(cache_->get("k3"), nullptr);
  EXPECT_FALSE(fs_->exists(dirtyFile("k3", 0)));
  EXPECT_EQ(cache_->get("k4"), nullptr);
  EXPECT_EQ(cache_->size(), 7);
  // LRU order from the journal: k2 (read after k1 here), then k1.
  cache_->setMaxSize(5);
  faker_.runTasks();
  EXPECT_EQ(cache_->get("k1"), nullptr);
  assertValue("k2", "DEF", "G");
}

TEST_P(DiskLruCacheTest, JournalIsAsOkHttpWritesIt) {
  // Compaction writes CLEAN lines for entries and DIRTY for those in edit, LRU order.
  set("a", "a", "aa");
  set("b", "bbb", "b");
  cache_->get("a")->close();
  auto editor = cache_->edit("c");
  cache_->remove("b");
  // A forced rebuild: close and reopen with many redundant records.
  for (int i = 0; i < 2000; i++) cache_->get("a")->close();
  faker_.runTasks();
  // LRU order: 'b' was removed, then 'a' read after 'c' began its edit.
  assertJournalEquals({"DIRTY c", "CLEAN a 1 2"});
  editor->abort();
}

TEST_P(DiskLruCacheTest, CannotOperateOnEditAfterPublish) {
  auto editor = cache_->edit("k1");
  setString(*editor, 0, "A");
  setString(*editor, 1, "B");
  editor->commit();
  EXPECT_THROW(editor->newSink(0), std::logic_error);
  EXPECT_THROW(editor->newSource(0), std::logic_error);
  EXPECT_THROW(editor->commit(), std::logic_error);
  EXPECT_THROW(editor->abort(), std::logic_error);
}

TEST_P(DiskLruCacheTest, CannotOperateOnEditAfterRevert) {
  auto editor = cache_->edit("k1");
  setString(*editor, 0, "A");
  setString(*editor, 1, "B");
  editor->abort();
  EXPECT_THROW(editor->newSink(0), std::logic_error);
  EXPECT_THROW(editor->commit(), std::logic_error);
}

TEST_P(DiskLruCacheTest, ExplicitRemoveAppliedToDiskImmediately) {
  set("k1", "ABC", "B");
  EXPECT_EQ(readFile(cleanFile("k1", 0)), "ABC");
  EXPECT_TRUE(cache_->remove("k1"));
  EXPECT_FALSE(fs_->exists(cleanFile("k1", 0)));
}

TEST_P(DiskLruCacheTest, RemovePreventsActiveEditFromStoringAValue) {
  set("a", "a", "a");
  auto a = cache_->edit("a");
  setString(*a, 0, "a1");
  EXPECT_TRUE(cache_->remove("a"));
  setString(*a, 1, "a2");
  a->commit();
  assertAbsent("a");
}

TEST_P(DiskLruCacheTest, ReadAndWriteOverlapsMaintainConsistency) {
  if (windows_) GTEST_SKIP() << "no edit while a read is open where open files are locked";
  set("k1", "AAaa", "BBbb");
  auto snapshot1 = cache_->get("k1");
  auto in = buffer(snapshot1->getSource(0));
  EXPECT_EQ(in->readByte(), std::byte{'A'});
  EXPECT_EQ(in->readByte(), std::byte{'A'});
  set("k1", "CCcc", "DDdd");
  assertValue("k1", "CCcc", "DDdd");
  EXPECT_EQ(in->readUtf8(), "aa");
  EXPECT_EQ(readAll(snapshot1->getSource(1)), "BBbb");
}

TEST_P(DiskLruCacheTest, SnapshotStaysReadableWhenRemoved) {
  set("k1", "AAaa", "BBbb");
  auto snapshot = cache_->get("k1");
  EXPECT_TRUE(cache_->remove("k1"));
  EXPECT_EQ(cache_->get("k1"), nullptr);
  EXPECT_EQ(readAll(snapshot->getSource(0)), "AAaa");
  EXPECT_EQ(readAll(snapshot->getSource(1)), "BBbb");
  snapshot->close();
  assertAbsent("k1");
}

TEST_P(DiskLruCacheTest, OpenWithDirtyKeyDeletesAllFilesForThatKey) {
  cache_->close();
  writeFile(cleanFile("k1", 0), "A");
  writeFile(cleanFile("k1", 1), "B");
  writeFile(dirtyFile("k1", 0), "C");
  writeFile(dirtyFile("k1", 1), "D");
  createJournal({"CLEAN k1 1 1", "DIRTY k1"});
  createNewCache();
  assertAbsent("k1");
}

// Corrupt journals --------------------------------------------------------------------------------

TEST_P(DiskLruCacheTest, OpenWithInvalidHeaderClearsDirectory) {
  std::vector<std::string> headers = {header("libcore.io.DiskLruCachf"),
                                      header("libcore.io.DiskLruCache", "0"),
                                      header("libcore.io.DiskLruCache", "1", "101"),
                                      header("libcore.io.DiskLruCache", "1", "100", "1"),
                                      header("libcore.io.DiskLruCache", "1", "100", "2", "x"),
                                      "libcore.io.DiskLruCache\n1\n",
                                      ""};
  for (const auto& head : headers) {
    cache_->close();
    generateSomeGarbageFiles();
    createJournal({"CLEAN g1 1 1"}, head);
    createNewCache();
    assertGarbageFilesAllDeleted();
    EXPECT_EQ(cache_->get("g1"), nullptr);
    set("k1", "A", "B");  // Usable afterwards.
    assertValue("k1", "A", "B");
  }
}

TEST_P(DiskLruCacheTest, OpenWithInvalidJournalLineClearsDirectory) {
  for (std::string bad :
       {"BOGUS", "CLEAN k1 0000x001 1", "CLEAN k1 1 1 1", "CLEAN k1 1", "CLEAN k1 -1 1",
        "CLEAN k1 1  1", "CLEAN k1", "DIRTY k1 1", "READ", "CLEAN ../k 1 1", "DIRTY UPPER",
        "READ k1 2", "clean k1 1 1", "CLEAN k1 99999999999999999999 1"}) {
    cache_->close();
    generateSomeGarbageFiles();
    createJournal({"CLEAN g1 1 1", bad});
    createNewCache();
    assertGarbageFilesAllDeleted();
    EXPECT_EQ(cache_->get("g1"), nullptr) << bad;
    EXPECT_EQ(cache_->get("k1"), nullptr) << bad;
    EXPECT_TRUE(fs_->exists(journal_));
  }
}

TEST_P(DiskLruCacheTest, OpenWithLengthsOverflowingClearsDirectory) {
  cache_->close();
  generateSomeGarbageFiles();
  createJournal({"CLEAN g1 9223372036854775807 1"});
  createNewCache();
  assertGarbageFilesAllDeleted();
  EXPECT_EQ(cache_->size(), 0);
}

TEST_P(DiskLruCacheTest, OpenWithTruncatedLineDiscardsThatLine) {
  cache_->close();
  writeFile(cleanFile("k1", 0), "A");
  writeFile(cleanFile("k1", 1), "B");
  writeFile(journal_, header() + "CLEAN k1 1 1");  // No trailing newline.
  createNewCache();
  EXPECT_EQ(cache_->get("k1"), nullptr);
  // The journal was rebuilt, so appending after the truncated line is safe.
  set("k1", "C", "D");
  reopen();
  assertValue("k1", "C", "D");
}

TEST_P(DiskLruCacheTest, OpenWithMissingFileDropsEntry) {
  set("k1", "A", "B");
  set("k2", "C", "D");
  cache_->close();
  std::filesystem::remove(cleanFile("k1", 1));
  createNewCache();
  EXPECT_EQ(cache_->get("k1"), nullptr);
  EXPECT_FALSE(fs_->exists(cleanFile("k1", 0)));
  EXPECT_EQ(cache_->size(), 2);
  assertValue("k2", "C", "D");
}

TEST_P(DiskLruCacheTest, CrLfJournalIsRead) {
  cache_->close();
  writeFile(cleanFile("k1", 0), "A");
  writeFile(cleanFile("k1", 1), "B");
  writeFile(journal_, "libcore.io.DiskLruCache\r\n1\r\n100\r\n2\r\n\r\nCLEAN k1 1 1\r\n");
  createNewCache();
  assertValue("k1", "A", "B");
}

// Editors -----------------------------------------------------------------------------------------

TEST_P(DiskLruCacheTest, CreateNewEntryWithTooFewValuesFails) {
  auto creator = cache_->edit("k1");
  setString(*creator, 1, "A");
  EXPECT_THROW(creator->commit(), std::logic_error);
  EXPECT_FALSE(fs_->exists(cleanFile("k1", 0)));
  EXPECT_FALSE(fs_->exists(cleanFile("k1", 1)));
  EXPECT_FALSE(fs_->exists(dirtyFile("k1", 0)));
  EXPECT_FALSE(fs_->exists(dirtyFile("k1", 1)));
  EXPECT_EQ(cache_->get("k1"), nullptr);
  set("k1", "B", "C");
}

TEST_P(DiskLruCacheTest, RevertWithTooFewValues) {
  auto creator = cache_->edit("k1");
  setString(*creator, 1, "A");
  creator->abort();
  assertAbsent("k1");
}

TEST_P(DiskLruCacheTest, UpdateExistingEntryWithTooFewValuesReusesPreviousValues) {
  set("k1", "A", "B");
  auto updater = cache_->edit("k1");
  setString(*updater, 0, "C");
  updater->commit();
  assertValue("k1", "C", "B");
}

TEST_P(DiskLruCacheTest, EditorReadsCommittedValue) {
  set("k1", "A", "B");
  auto updater = cache_->edit("k1");
  EXPECT_EQ(readString(*updater, 0), "A");
  EXPECT_EQ(readString(*updater, 1), "B");
  updater->abort();
  assertValue("k1", "A", "B");
}

TEST_P(DiskLruCacheTest, EditSameVersion) {
  set("a", "a", "a");
  auto snapshot = cache_->get("a");
  snapshot->close();
  auto editor = snapshot->edit();
  ASSERT_NE(editor, nullptr);
  setString(*editor, 1, "a2");
  editor->commit();
  assertValue("a", "a", "a2");
}

TEST_P(DiskLruCacheTest, EditSnapshotAfterChangeAborted) {
  set("a", "a", "a");
  auto snapshot = cache_->get("a");
  snapshot->close();
  auto toAbort = snapshot->edit();
  setString(*toAbort, 0, "b");
  toAbort->abort();
  auto editor = snapshot->edit();
  ASSERT_NE(editor, nullptr);
  setString(*editor, 1, "a2");
  editor->commit();
  assertValue("a", "a", "a2");
}

TEST_P(DiskLruCacheTest, EditSnapshotAfterChangeCommitted) {
  set("a", "a", "a");
  auto snapshot = cache_->get("a");
  snapshot->close();
  auto toCommit = snapshot->edit();
  setString(*toCommit, 0, "b");
  toCommit->commit();
  EXPECT_EQ(snapshot->edit(), nullptr);
}

TEST_P(DiskLruCacheTest, EditSinceEvicted) {
  cache_->close();
  createNewCache(10);
  set("a", "aa", "aaa");  // size 5
  auto snapshot = cache_->get("a");
  snapshot->close();
  set("b", "bb", "bbb");  // size 5
  set("c", "cc", "ccc");  // size 5; will evict 'A'
  cache_->flush();
  EXPECT_EQ(snapshot->edit(), nullptr);
}

TEST_P(DiskLruCacheTest, EditSinceEvictedAndRecreated) {
  cache_->close();
  createNewCache(10);
  set("a", "aa", "aaa");
  auto snapshot = cache_->get("a");
  snapshot->close();
  set("b", "bb", "bbb");
  set("c", "cc", "ccc");  // Evicts 'A'.
  set("a", "a", "aaaa");  // Recreated.
  cache_->flush();
  EXPECT_EQ(snapshot->edit(), nullptr);
}

TEST_P(DiskLruCacheTest, OneEditorPerKey) {
  auto first = cache_->edit("k1");
  ASSERT_NE(first, nullptr);
  EXPECT_EQ(cache_->edit("k1"), nullptr);
  first->abort();
  auto second = cache_->edit("k1");
  EXPECT_NE(second, nullptr);
}

TEST_P(DiskLruCacheTest, AggressiveClearingHandlesWrite) {
  // The directory is deleted under an open editor: the commit fails quietly, no entry appears.
  auto editor = cache_->edit("k1");
  setString(*editor, 0, "a");
  for (const auto& path : fs_->list(dir_)) {
    if (path.filename() != "lock") std::filesystem::remove(path);
  }
  setString(*editor, 1, "a");
  editor->commit();
  EXPECT_EQ(cache_->get("k1"), nullptr);
}

// Eviction ----------------------------------------------------------------------------------------

TEST_P(DiskLruCacheTest, GrowMaxSize) {
  cache_->close();
  createNewCache(10);
  set("a", "a", "aaa");    // size 4
  set("b", "bb", "bbbb");  // size 6
  cache_->setMaxSize(20);
  set("c", "c", "c");  // size 12
  faker_.runTasks();
  EXPECT_EQ(cache_->size(), 12);
}

TEST_P(DiskLruCacheTest, ShrinkMaxSizeEvicts) {
  cache_->close();
  createNewCache(20);
  set("a", "a", "aaa");
  set("b", "bb", "bbbb");
  set("c", "c", "c");
  cache_->setMaxSize(10);
  EXPECT_TRUE(taskQueued());
  faker_.runTasks();
  EXPECT_EQ(cache_->size(), 8);
  assertAbsent("a");
}

TEST_P(DiskLruCacheTest, EvictOnInsert) {
  cache_->close();
  createNewCache(10);
  set("a", "a", "aaa");
  set("b", "bb", "bbbb");
  EXPECT_EQ(cache_->size(), 10);
  set("c", "c", "c");  // 12: evicts 'a'.
  cache_->flush();
  EXPECT_EQ(cache_->size(), 8);
  assertAbsent("a");
  assertValue("b", "bb", "bbbb");
  assertValue("c", "c", "c");
  set("d", "d", "d");  // 10: evicts nothing.
  cache_->flush();
  EXPECT_EQ(cache_->size(), 10);
  set("e", "eeee", "eeee");  // 18: evicts 'b' and 'c'.
  cache_->flush();
  EXPECT_EQ(cache_->size(), 10);
  assertAbsent("b");
  assertAbsent("c");
  assertValue("d", "d", "d");
  assertValue("e", "eeee", "eeee");
}

TEST_P(DiskLruCacheTest, EvictOnUpdate) {
  cache_->close();
  createNewCache(10);
  set("a", "a", "aa");
  set("b", "b", "bb");
  set("c", "c", "cc");
  EXPECT_EQ(cache_->size(), 9);
  set("b", "b", "bbbb");
  cache_->flush();
  EXPECT_EQ(cache_->size(), 8);
  assertAbsent("a");
  assertValue("b", "b", "bbbb");
  assertValue("c", "c", "cc");
}

TEST_P(DiskLruCacheTest, EvictionOnTheTaskRunner) {
  cache_->close();
  createNewCache(10);
  set("a", "a", "aaa");
  set("b", "bb", "bbbb");
  set("c", "c", "c");
  EXPECT_EQ(cache_->size(), 12);  // Not trimmed until the task runs.
  EXPECT_TRUE(taskQueued());
  faker_.runTasks();
  EXPECT_EQ(cache_->size(), 8);
  assertAbsent("a");
}

TEST_P(DiskLruCacheTest, EvictionHonorsLruFromCurrentSession) {
  cache_->close();
  createNewCache(10);
  for (const char* key : {"a", "b", "c", "d", "e"}) set(key, key, key);
  cache_->get("b")->close();  // 'b' is now the most recently used.
  set("f", "f", "f");         // Evicts 'a'.
  set("g", "g", "g");         // Evicts 'c'.
  cache_->flush();
  EXPECT_EQ(cache_->size(), 10);
  assertAbsent("a");
  assertValue("b", "b", "b");
  assertAbsent("c");
  assertValue("d", "d", "d");
  assertValue("e", "e", "e");
  assertValue("f", "f", "f");
}

TEST_P(DiskLruCacheTest, EvictionHonorsLruFromPreviousSession) {
  for (const char* key : {"a", "b", "c", "d", "e", "f"}) set(key, key, key);
  cache_->get("b")->close();
  EXPECT_EQ(cache_->size(), 12);
  reopen(10);
  set("g", "g", "g");
  cache_->flush();
  EXPECT_EQ(cache_->size(), 10);
  assertAbsent("a");
  assertValue("b", "b", "b");
  assertAbsent("c");
  assertValue("d", "d", "d");
  assertValue("g", "g", "g");
}

TEST_P(DiskLruCacheTest, CacheSingleEntryOfSizeGreaterThanMaxSize) {
  cache_->close();
  createNewCache(10);
  set("a", "aaaaa", "aaaaaa");
  cache_->flush();
  assertAbsent("a");
}

TEST_P(DiskLruCacheTest, ConstructorRejectsBadSizes) {
  EXPECT_THROW(DiskLruCache::open(fs_, dir_, kAppVersion, 2, 0, faker_.taskRunner()),
               std::invalid_argument);
  EXPECT_THROW(DiskLruCache::open(fs_, dir_, kAppVersion, 0, 10, faker_.taskRunner()),
               std::invalid_argument);
}

TEST_P(DiskLruCacheTest, RemoveAbsentElement) { EXPECT_FALSE(cache_->remove("a")); }

TEST_P(DiskLruCacheTest, ReadingTheSameStreamMultipleTimes) {
  set("a", "a", "b");
  auto snapshot = cache_->get("a");
  EXPECT_EQ(&snapshot->getSource(0), &snapshot->getSource(0));
}

TEST_P(DiskLruCacheTest, EvictAll) {
  set("a", "a", "a");
  set("b", "b", "b");
  cache_->evictAll();
  EXPECT_EQ(cache_->size(), 0);
  assertAbsent("a");
  assertAbsent("b");
}

TEST_P(DiskLruCacheTest, EvictAllWithPartialCreate) {
  auto a = cache_->edit("a");
  setString(*a, 0, "a1");
  setString(*a, 1, "a2");
  cache_->evictAll();
  EXPECT_EQ(cache_->size(), 0);
  a->commit();
  assertAbsent("a");
}

TEST_P(DiskLruCacheTest, EvictAllWithPartialEditDoesNotStoreAValue) {
  set("a", "a", "a");
  auto a = cache_->edit("a");
  setString(*a, 0, "a1");
  setString(*a, 1, "a2");
  cache_->evictAll();
  // Where open files cannot be deleted, the old value's bytes stay counted until the edit ends.
  EXPECT_EQ(cache_->size(), windows_ ? 2 : 0);
  a->commit();
  EXPECT_EQ(cache_->size(), 0);
  assertAbsent("a");
}

TEST_P(DiskLruCacheTest, DeleteCacheRemovesEverything) {
  set("a", "a", "a");
  cache_->deleteCache();
  EXPECT_TRUE(cache_->isClosed());
  EXPECT_FALSE(fs_->exists(journal_));
  EXPECT_FALSE(fs_->exists(cleanFile("a", 0)));
  createNewCache();
  assertAbsent("a");
}

TEST_P(DiskLruCacheTest, OperationsAfterCloseThrow) {
  cache_->close();
  EXPECT_THROW(cache_->get("a"), std::logic_error);
  EXPECT_THROW(cache_->edit("a"), std::logic_error);
  EXPECT_THROW(cache_->remove("a"), std::logic_error);
  cache_->close();  // Idempotent.
}

// Rebuilding the journal --------------------------------------------------------------------------

TEST_P(DiskLruCacheTest, RebuildJournalOnRepeatedReads) {
  set("a", "a", "a");
  set("b", "b", "b");
  int reads = 0;
  while (!taskQueued()) {
    assertValue("a", "a", "a");
    assertValue("b", "b", "b");
    reads += 2;
  }
  EXPECT_EQ(reads, 1998);  // With the two commits' lines, 2,000 redundant ones.
  faker_.runTasks();
  assertJournalEquals({"CLEAN a 1 1", "CLEAN b 1 1"});
  EXPECT_EQ(cache_->redundantOpCount(), 0);
}

TEST_P(DiskLruCacheTest, RebuildJournalOnRepeatedEdits) {
  while (!taskQueued()) {
    set("a", "a", "a");
    set("b", "b", "b");
  }
  faker_.runTasks();
  assertValue("a", "a", "a");
  assertValue("b", "b", "b");
  reopen();
  assertValue("a", "a", "a");
  assertValue("b", "b", "b");
}

TEST_P(DiskLruCacheTest, RebuildJournalOnRepeatedReadsWithOpenAndClose) {
  set("a", "a", "a");
  set("b", "b", "b");
  while (!taskQueued()) {
    assertValue("a", "a", "a");
    assertValue("b", "b", "b");
    reopen();
  }
}

TEST_P(DiskLruCacheTest, NoRebuildWhileRedundantBelowLiveEntries) {
  // 2,001 live entries: 2,000 redundant lines are not yet half the journal.
  for (int i = 0; i <= 2000; i++) {
    auto editor = cache_->edit("k" + std::to_string(i));
    setString(*editor, 0, "");
    setString(*editor, 1, "");
    editor->commit();
  }
  EXPECT_EQ(cache_->redundantOpCount(), 2001);  // One per commit.
  faker_.runTasks();
  EXPECT_EQ(cache_->redundantOpCount(), 0);
  for (int i = 0; i < 1999; i++) cache_->get("k0")->close();
  EXPECT_FALSE(taskQueued());
}

TEST_P(DiskLruCacheTest, RebuildJournalFailurePreventsEditors) {
  while (!taskQueued()) {
    set("a", "a", "a");
    set("b", "b", "b");
  }
  fs_->setFaultyRename(journalBkp_, true);
  faker_.runTasks();
  EXPECT_EQ(cache_->edit("a"), nullptr);
  EXPECT_EQ(cache_->edit("c"), nullptr);
  auto snapshot = cache_->get("a");
  ASSERT_NE(snapshot, nullptr);
  EXPECT_EQ(snapshot->edit(), nullptr);
}

TEST_P(DiskLruCacheTest, RebuildJournalFailureIsRetried) {
  while (!taskQueued()) {
    set("a", "a", "a");
    set("b", "b", "b");
  }
  fs_->setFaultyRename(journalBkp_, true);
  faker_.runTasks();
  cache_->get("b")->close();  // A hit retries.
  EXPECT_EQ(cache_->edit("d"), nullptr);
  EXPECT_TRUE(taskQueued());
  fs_->setFaultyRename(journalBkp_, false);
  faker_.runTasks();
  assertJournalEquals({"CLEAN a 1 1", "CLEAN b 1 1"});
  set("d", "d", "d");
}

TEST_P(DiskLruCacheTest, RebuildJournalFailureWithInFlightEditors) {
  while (!taskQueued()) {
    set("a", "a", "a");
    set("b", "b", "b");
  }
  auto commitEditor = cache_->edit("c");
  auto abortEditor = cache_->edit("d");
  auto idleEditor = cache_->edit("e");
  fs_->setFaultyRename(journalBkp_, true);
  faker_.runTasks();
  setString(*commitEditor, 0, "c");
  setString(*commitEditor, 1, "c");
  commitEditor->commit();
  assertValue("c", "c", "c");
  abortEditor->abort();
  fs_->setFaultyRename(journalBkp_, false);
  faker_.runTasks();
  assertJournalEquals({"CLEAN a 1 1", "CLEAN b 1 1", "DIRTY e", "CLEAN c 1 1"});
}

TEST_P(DiskLruCacheTest, RestoreBackupFile) {
  set("k1", "ABC", "DE");
  cache_->close();
  std::filesystem::rename(journal_, journalBkp_);
  createNewCache();
  assertValue("k1", "ABC", "DE");
  EXPECT_FALSE(fs_->exists(journalBkp_));
  EXPECT_TRUE(fs_->exists(journal_));
}

TEST_P(DiskLruCacheTest, JournalFileIsPreferredOverBackupFile) {
  set("k1", "ABC", "DE");
  cache_->flush();
  std::filesystem::copy_file(journal_, journalBkp_);
  set("k2", "F", "GH");
  cache_->close();
  createNewCache();
  assertValue("k1", "ABC", "DE");
  assertValue("k2", "F", "GH");
  EXPECT_FALSE(fs_->exists(journalBkp_));
}

TEST_P(DiskLruCacheTest, JournalTmpIsDeletedOnOpen) {
  cache_->close();
  writeFile(dir_ / "journal.tmp", "garbage");
  createNewCache();
  EXPECT_FALSE(fs_->exists(dir_ / "journal.tmp"));
}

// Snapshots, removal and zombies ------------------------------------------------------------------

TEST_P(DiskLruCacheTest, RemoveWithOpenSnapshotMakesZombie) {
  set("k1", "AAaa", "BBbb");
  auto snapshot = cache_->get("k1");
  EXPECT_TRUE(cache_->remove("k1"));
  if (windows_) {
    // Deferred: the files stay for the reader, and DIRTY keeps a crash from reviving them.
    EXPECT_TRUE(fs_->exists(cleanFile("k1", 0)));
    EXPECT_EQ(cache_->get("k1"), nullptr);
    EXPECT_EQ(cache_->edit("k1"), nullptr);  // Still locked by the reader.
    EXPECT_EQ(readAll(snapshot->getSource(0)), "AAaa");
    snapshot->close();
    EXPECT_FALSE(fs_->exists(cleanFile("k1", 0)));
    EXPECT_FALSE(fs_->exists(cleanFile("k1", 1)));
    cache_->close();
    assertJournalEquals({"DIRTY k1", "CLEAN k1 4 4", "READ k1", "DIRTY k1", "REMOVE k1"});
  } else {
    EXPECT_FALSE(fs_->exists(cleanFile("k1", 0)));
    EXPECT_EQ(readAll(snapshot->getSource(0)), "AAaa");
    snapshot->close();
    cache_->close();
    assertJournalEquals({"DIRTY k1", "CLEAN k1 4 4", "READ k1", "REMOVE k1"});
  }
}

TEST_P(DiskLruCacheTest, ZombieIsNotRevivedAfterCrash) {
  set("k1", "A", "B");
  auto snapshot = cache_->get("k1");
  cache_->remove("k1");
  // The process "dies" with the reader open: the journal as it is now is all that survives.
  std::string journalAtCrash = readFile(journal_);
  snapshot.reset();
  cache_->close();
  writeFile(journal_, journalAtCrash);
  writeFile(cleanFile("k1", 0), "A");
  writeFile(cleanFile("k1", 1), "B");
  createNewCache();
  EXPECT_EQ(cache_->get("k1"), nullptr);
}

TEST_P(DiskLruCacheTest, EditWhileSnapshotOpen) {
  set("k1", "A", "B");
  auto snapshot = cache_->get("k1");
  auto editor = cache_->edit("k1");
  if (windows_) {
    EXPECT_EQ(editor, nullptr);  // A reader holds the files.
  } else {
    ASSERT_NE(editor, nullptr);
    setString(*editor, 0, "C");
    editor->commit();
    EXPECT_EQ(readAll(snapshot->getSource(0)), "A");
    assertValue("k1", "C", "B");
  }
}

TEST_P(DiskLruCacheTest, EvictionSkipsZombies) {
  cache_->close();
  createNewCache(10);
  set("a", "aa", "aa");
  auto snapshot = cache_->get("a");
  set("b", "bbb", "bbb");
  set("c", "cc", "cc");  // 14 > 10.
  faker_.runTasks();
  EXPECT_LE(cache_->size(), 10);
  EXPECT_EQ(readAll(snapshot->getSource(0)), "aa");
  snapshot->close();
  assertAbsent("a");
}

TEST_P(DiskLruCacheTest, SnapshotsIterator) {
  set("a", "a1", "a2");
  set("b", "b1", "b2");
  set("c", "c1", "c2");
  auto it = cache_->snapshots();
  std::vector<std::string> keys;
  while (it->hasNext()) {
    auto snapshot = it->next();
    keys.push_back(snapshot->key());
    if (snapshot->key() == "b") {
      snapshot->close();
      it->remove();
    }
  }
  EXPECT_EQ(keys, (std::vector<std::string>{"a", "b", "c"}));
  EXPECT_EQ(cache_->get("b"), nullptr);
  EXPECT_THROW(it->next(), std::out_of_range);
}

TEST_P(DiskLruCacheTest, SnapshotsIteratorSkipsRemovedAndClosed) {
  set("a", "a", "a");
  set("b", "b", "b");
  auto it = cache_->snapshots();
  cache_->remove("a");
  ASSERT_TRUE(it->hasNext());
  EXPECT_EQ(it->next()->key(), "b");
  EXPECT_FALSE(it->hasNext());
  EXPECT_THROW(cache_->snapshots()->remove(), std::logic_error);
}

TEST_P(DiskLruCacheTest, SnapshotOutlivesCache) {
  set("k1", "A", "B");
  auto snapshot = cache_->get("k1");
  cache_->close();
  caches_.clear();
  cache_.reset();
  EXPECT_EQ(readAll(snapshot->getSource(1)), "B");
}

TEST_P(DiskLruCacheTest, EditorSinkOutlivesCommit) {
  auto editor = cache_->edit("k1");
  auto sink0 = buffer(editor->newSink(0));
  setString(*editor, 1, "B");
  sink0->writeUtf8("A");
  sink0->close();
  editor->commit();
  assertValue("k1", "A", "B");
}

TEST_P(DiskLruCacheTest, ConcurrentReadersAndWriters) {
  // Threads editing and reading a few keys at once: every snapshot holds one edit's values.
  if (windows_) GTEST_SKIP() << "the Windows double's bookkeeping is enough for one thread";
  std::vector<std::thread> threads;
  std::atomic<int> mismatches{0};
  for (int t = 0; t < 4; t++) {
    threads.emplace_back([&, t] {
      for (int i = 0; i < 200; i++) {
        std::string key = "k" + std::to_string(i % 3);
        if ((i + t) % 2 == 0) {
          if (auto editor = cache_->edit(key)) {
            std::string value = std::to_string(t * 1000 + i);
            setString(*editor, 0, value);
            setString(*editor, 1, value);
            editor->commit();
          }
        } else if (auto snapshot = cache_->get(key)) {
          if (readAll(snapshot->getSource(0)) != readAll(snapshot->getSource(1))) mismatches++;
        }
      }
    });
  }
  for (auto& thread : threads) thread.join();
  EXPECT_EQ(mismatches.load(), 0);
  reopen();
  for (int i = 0; i < 3; i++) {
    auto snapshot = cache_->get("k" + std::to_string(i));
    ASSERT_NE(snapshot, nullptr);
    EXPECT_EQ(readAll(snapshot->getSource(0)), readAll(snapshot->getSource(1)));
  }
}

TEST_P(DiskLruCacheTest, CanReadWhileReading) {
  set("k1", "a", "a");
  auto snapshot1 = cache_->get("k1");
  auto snapshot2 = cache_->get("k1");
  ASSERT_NE(snapshot2, nullptr);
  EXPECT_EQ(readAll(snapshot1->getSource(0)), "a");
  EXPECT_EQ(readAll(snapshot2->getSource(0)), "a");
  EXPECT_EQ(readAll(snapshot1->getSource(1)), "a");
  EXPECT_EQ(readAll(snapshot2->getSource(1)), "a");
}

TEST_P(DiskLruCacheTest, WindowsCannotReadWhileWriting) {
  if (!windows_) GTEST_SKIP();
  set("k1", "a", "a");
  auto editor = cache_->edit("k1");
  EXPECT_EQ(cache_->get("k1"), nullptr);
  editor->commit();
}

TEST_P(DiskLruCacheTest, RemoveWhileReadingCreatesZombieRemovedWhenReadFinishes) {
  set("k1", "a", "a");
  auto snapshot = cache_->get("k1");
  cache_->remove("k1");
  // Where open files cannot be deleted they stay until the last of the two sources closes.
  EXPECT_EQ(fs_->exists(cleanFile("k1", 0)), windows_);
  EXPECT_FALSE(fs_->exists(dirtyFile("k1", 0)));
  EXPECT_EQ(readAll(snapshot->getSource(0)), "a");
  snapshot->getSource(0).close();
  EXPECT_EQ(fs_->exists(cleanFile("k1", 0)), windows_);
  EXPECT_EQ(readAll(snapshot->getSource(1)), "a");
  snapshot->getSource(1).close();
  EXPECT_FALSE(fs_->exists(cleanFile("k1", 0)));
  EXPECT_FALSE(fs_->exists(cleanFile("k1", 1)));
}

TEST_P(DiskLruCacheTest, RemoveWhileWritingCreatesZombieRemovedWhenWriteFinishes) {
  set("k1", "a", "a");
  auto editor = cache_->edit("k1");
  cache_->remove("k1");
  EXPECT_EQ(cache_->get("k1"), nullptr);
  EXPECT_EQ(fs_->exists(cleanFile("k1", 0)), windows_);
  editor->commit();
  EXPECT_FALSE(fs_->exists(cleanFile("k1", 0)));
  EXPECT_FALSE(fs_->exists(dirtyFile("k1", 0)));
  EXPECT_EQ(cache_->size(), 0);
}

TEST_P(DiskLruCacheTest, RemovedEntryAbsentWhenIterating) {
  set("k1", "a", "a");
  auto snapshot = cache_->get("k1");
  cache_->remove("k1");
  EXPECT_FALSE(cache_->snapshots()->hasNext());
}

TEST_P(DiskLruCacheTest, CloseWithZombieRead) {
  set("k1", "a", "a");
  auto snapshot = cache_->get("k1");
  cache_->remove("k1");
  cache_->close();
  EXPECT_EQ(fs_->exists(cleanFile("k1", 0)), windows_);  // Still there for the reader.
  EXPECT_EQ(readAll(snapshot->getSource(0)), "a");
  EXPECT_EQ(readAll(snapshot->getSource(1)), "a");
  snapshot->close();
  EXPECT_FALSE(fs_->exists(cleanFile("k1", 0)));
  EXPECT_FALSE(fs_->exists(cleanFile("k1", 1)));
}

TEST_P(DiskLruCacheTest, DontRemoveUnfinishedEntryWhenCreatingSnapshot) {
  auto creator = cache_->edit("k1");
  setString(*creator, 0, "ABC");
  setString(*creator, 1, "DE");
  EXPECT_FALSE(cache_->snapshots()->hasNext());  // Still being created.
  creator->commit();
  auto it = cache_->snapshots();
  ASSERT_TRUE(it->hasNext());
  it->next()->close();
}

TEST_P(DiskLruCacheTest, NoSizeCorruptionAfterCreatorDetached) {
  if (windows_) GTEST_SKIP() << "no two editors of one key where open files are locked";
  auto editor = cache_->edit("k1");
  setString(*editor, 0, "a");
  setString(*editor, 1, "a");
  cache_->evictAll();
  set("k1", "bb", "bb");
  EXPECT_EQ(cache_->size(), 4);
  editor->commit();  // Detached: changes nothing.
  EXPECT_EQ(cache_->size(), 4);
  assertValue("k1", "bb", "bb");
}

TEST_P(DiskLruCacheTest, NoSizeCorruptionAfterEditorDetached) {
  if (windows_) GTEST_SKIP() << "no two editors of one key where open files are locked";
  set("k1", "a", "a");
  auto editor = cache_->edit("k1");
  setString(*editor, 0, "bb");
  setString(*editor, 1, "bb");
  cache_->evictAll();
  set("k1", "ccc", "ccc");
  EXPECT_EQ(cache_->size(), 6);
  editor->commit();
  EXPECT_EQ(cache_->size(), 6);
  assertValue("k1", "ccc", "ccc");
}

TEST_P(DiskLruCacheTest, NoNewSourceAfterEditorDetached) {
  set("k1", "a", "a");
  auto editor = cache_->edit("k1");
  cache_->evictAll();
  EXPECT_EQ(editor->newSource(0), nullptr);
}

TEST_P(DiskLruCacheTest, EditDiscardedAfterEditorDetached) {
  set("k1", "a", "a");
  auto editor = cache_->edit("k1");
  {
    auto sink = buffer(editor->newSink(0));
    cache_->evictAll();
    sink->writeUtf8("bb");  // Into a black hole.
    sink->close();
  }
  EXPECT_EQ(cache_->get("k1"), nullptr);
}

TEST_P(DiskLruCacheTest, EditDiscardedAfterEditorDetachedWithConcurrentWrite) {
  if (windows_) GTEST_SKIP() << "no two editors of one key where open files are locked";
  set("k1", "a", "a");
  auto editor = cache_->edit("k1");
  {
    auto sink = buffer(editor->newSink(0));
    cache_->evictAll();
    set("k1", "ccc", "ccc");
    sink->writeUtf8("bb");
    sink->close();
  }
  assertValue("k1", "ccc", "ccc");
}

TEST_P(DiskLruCacheTest, AbortAfterDetach) {
  set("k1", "a", "a");
  auto editor = cache_->edit("k1");
  cache_->evictAll();
  editor->abort();
  EXPECT_EQ(cache_->size(), 0);
  assertAbsent("k1");
}

// Trim failures (OkHttp's cleanupTrimFailure* tests).
class DiskLruCacheTrimFailureTest : public DiskLruCacheTest {
 protected:
  void failTrim(const char* file = "a.0") {
    cache_->setMaxSize(8);
    faker_.runTasks();
    set("a", "aa", "aa");
    set("b", "bb", "bbb");
    fs_->setFaultyDelete(dir_ / file, true);
    faker_.runTasks();
  }
};

INSTANTIATE_TEST_SUITE_P(FileSystems, DiskLruCacheTrimFailureTest, ::testing::Values(false, true),
                         [](const auto& info) { return info.param ? "Windows" : "Posix"; });

TEST_P(DiskLruCacheTrimFailureTest, WithInFlightEditor) {
  cache_->setMaxSize(8);
  set("a", "aa", "aaa");
  set("b", "bb", "bb");
  auto inFlight = cache_->edit("c");
  fs_->setFaultyDelete(dir_ / "a.0", true);
  faker_.runTasks();
  setString(*inFlight, 0, "cc");
  setString(*inFlight, 1, "cc");
  inFlight->commit();
  fs_->setFaultyDelete(dir_ / "a.0", false);
  faker_.runTasks();
  assertValue("c", "cc", "cc");
}

TEST_P(DiskLruCacheTrimFailureTest, AllowsSnapshotReads) {
  failTrim();
  assertValue("a", "aa", "aa");
  assertValue("b", "bb", "bbb");
  fs_->setFaultyDelete(dir_ / "a.0", false);
}

TEST_P(DiskLruCacheTrimFailureTest, PreventsSnapshotWrites) {
  failTrim();
  EXPECT_EQ(cache_->get("a")->edit(), nullptr);
  EXPECT_EQ(cache_->get("b")->edit(), nullptr);
  fs_->setFaultyDelete(dir_ / "a.0", false);
}

TEST_P(DiskLruCacheTrimFailureTest, EvictAllAllowsEdits) {
  failTrim();
  EXPECT_EQ(cache_->edit("c"), nullptr);
  fs_->setFaultyDelete(dir_ / "a.0", false);
  cache_->evictAll();
  set("c", "cc", "cc");
  assertValue("c", "cc", "cc");
}

TEST_P(DiskLruCacheTrimFailureTest, ManualRemovalAllowsEdits) {
  failTrim();
  EXPECT_EQ(cache_->edit("c"), nullptr);
  fs_->setFaultyDelete(dir_ / "a.0", false);
  cache_->remove("a");
  set("c", "cc", "cc");
  assertValue("c", "cc", "cc");
}

TEST_P(DiskLruCacheTrimFailureTest, FlushAllowsEdits) {
  failTrim();
  EXPECT_EQ(cache_->edit("c"), nullptr);
  fs_->setFaultyDelete(dir_ / "a.0", false);
  cache_->flush();
  set("c", "cc", "cc");
  assertValue("c", "cc", "cc");
}

TEST_P(DiskLruCacheTrimFailureTest, PartialSnapshotIsNeverServed) {
  failTrim("a.1");  // a.0 is deleted, a.1 is not.
  EXPECT_EQ(cache_->get("a"), nullptr);
  EXPECT_EQ(cache_->edit("a"), nullptr);
  fs_->setFaultyDelete(dir_ / "a.1", false);
  faker_.runTasks();
  EXPECT_EQ(cache_->get("a"), nullptr);
}

// The lock ----------------------------------------------------------------------------------------

TEST_P(DiskLruCacheTest, SecondOpenInSameProcessFails) {
  auto second = DiskLruCache::open(fs_, dir_, kAppVersion, 2, kNoLimit, faker_.taskRunner());
  try {
    second->initialize();
    FAIL();
  } catch (const IOException& e) {
    EXPECT_EQ(std::string(e.what()),
              "Cache already open at '" + dir_.string() + "' in same process");
  }
  set("k1", "A", "B");  // The first is unharmed.
  cache_->close();
  second->initialize();  // Free once the first closed.
  auto snapshot = second->get("k1");
  ASSERT_NE(snapshot, nullptr);
  EXPECT_EQ(readAll(snapshot->getSource(0)), "A");
  snapshot.reset();
  second->close();
}

TEST_P(DiskLruCacheTest, SecondOpenThroughAnotherPathFails) {
  std::filesystem::path other = dir_ / ".." / dir_.filename();
  auto second = DiskLruCache::open(fs_, other, kAppVersion, 2, kNoLimit, faker_.taskRunner());
  EXPECT_THROW(second->initialize(), IOException);
}

TEST_P(DiskLruCacheTest, LockHeldByAnotherProcessFails) {
  // Another process holds a POSIX record lock on the lock file, as OkHttp on the JVM does
  // (FileChannel.tryLock()); python's lockf() takes the same kind.
  cache_->close();
  std::string command = "python3 -c \"import fcntl,sys,time; f=open('" + (dir_ / "lock").string() +
                        "','a'); fcntl.lockf(f, fcntl.LOCK_EX|fcntl.LOCK_NB); print('locked', "
                        "flush=True)\nimport os\nfor i in range(2000):\n if os.path.exists('" +
                        (dir_ / "release").string() + "'): break\n time.sleep(0.01)\"";
  FILE* child = ::popen(command.c_str(), "r");
  ASSERT_NE(child, nullptr);
  char line[64] = {};
  ASSERT_NE(std::fgets(line, sizeof(line), child), nullptr) << "python3 is needed";
  EXPECT_EQ(std::string(line), "locked\n");
  auto second = DiskLruCache::open(fs_, dir_, kAppVersion, 2, kNoLimit, faker_.taskRunner());
  try {
    second->initialize();
    ADD_FAILURE() << "opened a locked cache";
  } catch (const IOException& e) {
    EXPECT_EQ(std::string(e.what()),
              "Cache already open at '" + dir_.string() + "' in another process");
  }
  writeFile(dir_ / "release", "");  // It exits, releasing the lock.
  ::pclose(child);
  second->initialize();
  second->close();
}

TEST_P(DiskLruCacheTest, OpenCacheExcludesAnotherProcess) {
  std::string command = "python3 -c \"import fcntl\ntry:\n f=open('" + (dir_ / "lock").string() +
                        "','a'); fcntl.lockf(f, fcntl.LOCK_EX|fcntl.LOCK_NB); print('locked')\n"
                        "except OSError: print('busy')\"";
  FILE* child = ::popen(command.c_str(), "r");
  ASSERT_NE(child, nullptr);
  char line[64] = {};
  ASSERT_NE(std::fgets(line, sizeof(line), child), nullptr);
  ::pclose(child);
  EXPECT_EQ(std::string(line), "busy\n");
}

// A faulty file system ----------------------------------------------------------------------------

TEST_P(DiskLruCacheTest, EditorSinkWriteFailureDoesNotPublish) {
  set("a", "a", "a");
  fs_->setFaultyWrite(dirtyFile("a", 0), true);
  auto editor = cache_->edit("a");
  setString(*editor, 0, "b");  // Does not throw: the fault is hidden.
  setString(*editor, 1, "b");
  editor->commit();
  fs_->setFaultyWrite(dirtyFile("a", 0), false);
  if (windows_) {
    // The edit's files were open when it failed: the entry goes when the edit completes.
    assertAbsent("a");
  } else {
    assertValue("a", "a", "a");  // The old value stays.
  }
  set("a", "c", "c");  // Still usable.
  assertValue("a", "c", "c");
}

TEST_P(DiskLruCacheTest, NewEntryWriteFailureDoesNotPublish) {
  fs_->setFaultyWrite(dirtyFile("a", 1), true);
  auto editor = cache_->edit("a");
  setString(*editor, 0, "a");
  setString(*editor, 1, "a");
  editor->commit();
  fs_->setFaultyWrite(dirtyFile("a", 1), false);
  assertAbsent("a");
  set("a", "b", "b");
  assertValue("a", "b", "b");
}

TEST_P(DiskLruCacheTest, DiskFullDuringEditDoesNotPublish) {
  set("b", "b", "b");
  auto editor = cache_->edit("a");
  ASSERT_NE(editor, nullptr);
  fs_->setFreeSpace(3);
  setString(*editor, 0, "abcdef");
  setString(*editor, 1, "g");
  editor->commit();
  assertAbsent("a");
  // The disk is full for the journal too: no edits until space returns and a rebuild succeeds.
  EXPECT_EQ(cache_->edit("c"), nullptr);
  faker_.runTasks();
  EXPECT_EQ(cache_->edit("c"), nullptr);
  fs_->setFreeSpace(-1);
  faker_.runTasks();
  set("c", "c", "c");
  reopen();
  assertAbsent("a");
  assertValue("b", "b", "b");
  assertValue("c", "c", "c");
}

TEST_P(DiskLruCacheTest, CommitRenameFailureThrowsAndDropsEntry) {
  set("a", "a", "a");
  fs_->setFaultyRename(cleanFile("a", 1), true);
  auto editor = cache_->edit("a");
  setString(*editor, 0, "b");
  setString(*editor, 1, "b");
  EXPECT_THROW(editor->commit(), IOException);
  fs_->setFaultyRename(cleanFile("a", 1), false);
  // Never half old, half new.
  EXPECT_EQ(cache_->get("a"), nullptr);
  EXPECT_FALSE(fs_->exists(dirtyFile("a", 1)));
  EXPECT_EQ(cache_->size(), 0);
  set("a", "c", "c");
  assertValue("a", "c", "c");
  reopen();
  assertValue("a", "c", "c");
}

TEST_P(DiskLruCacheTest, JournalWriteFailureDuringEditRefusesEditsUntilRebuild) {
  set("a", "a", "a");
  fs_->setFaultyWrite(journal_, true);
  EXPECT_EQ(cache_->edit("b"), nullptr);  // The DIRTY line could not be written.
  EXPECT_TRUE(cache_->hasJournalErrors());
  EXPECT_EQ(cache_->edit("c"), nullptr);
  assertValue("a", "a", "a");  // Reads still work.
  fs_->setFaultyWrite(journal_, false);
  EXPECT_TRUE(taskQueued());
  faker_.runTasks();  // The rebuild writes a fresh journal.
  EXPECT_FALSE(cache_->hasJournalErrors());
  set("b", "b", "b");
  reopen();
  assertValue("a", "a", "a");
  assertValue("b", "b", "b");
}

TEST_P(DiskLruCacheTest, JournalWriteFailureDuringCommitKeepsCacheConsistent) {
  auto editor = cache_->edit("a");
  setString(*editor, 0, "a");
  setString(*editor, 1, "a");
  fs_->setFaultyWrite(journal_, true);
  editor->commit();  // The CLEAN line is lost; the value is readable in this session.
  EXPECT_TRUE(cache_->hasJournalErrors());
  assertValue("a", "a", "a");
  fs_->setFaultyWrite(journal_, false);
  EXPECT_EQ(cache_->edit("b"), nullptr);
  faker_.runTasks();
  set("b", "b", "b");
  reopen();
  assertValue("a", "a", "a");
  assertValue("b", "b", "b");
}

TEST_P(DiskLruCacheTest, JournalLostDirtyLineIsNotPublishedAfterCrash) {
  // Without the journal, a crash must not serve files no CLEAN line vouches for.
  fs_->setFaultyWrite(journal_, true);
  EXPECT_EQ(cache_->edit("a"), nullptr);
  fs_->setFaultyWrite(journal_, false);
  cache_->close();
  writeFile(cleanFile("a", 0), "x");
  writeFile(cleanFile("a", 1), "y");
  createNewCache();
  EXPECT_EQ(cache_->get("a"), nullptr);
}

TEST_P(DiskLruCacheTest, OpenFailsClearlyWhenJournalCannotBeWritten) {
  cache_->close();
  std::filesystem::remove(journal_);
  fs_->setFaultyWrite(dir_ / "journal.tmp", true);
  auto second = DiskLruCache::open(fs_, dir_, kAppVersion, 2, kNoLimit, faker_.taskRunner());
  EXPECT_THROW(second->initialize(), IOException);
  fs_->setFaultyWrite(dir_ / "journal.tmp", false);
  second->initialize();  // The lock was released by the failed attempt.
  second->close();
}

TEST_P(DiskLruCacheTest, RecoverFromInitializationFailure) {
  auto creator = cache_->edit("k1");
  setString(*creator, 0, "Hello");
  // Leave the edit incomplete; opening again deletes its file, which fails once.
  std::string journalNow = readFile(journal_);
  creator.reset();
  cache_->close();
  writeFile(journal_, journalNow);
  writeFile(dirtyFile("k1", 0), "Hello");
  fs_->setFaultyDelete(dirtyFile("k1", 0), true);
  cache_ = DiskLruCache::open(fs_, dir_, kAppVersion, 2, kNoLimit, faker_.taskRunner());
  caches_.push_back(cache_);
  EXPECT_THROW(cache_->get("k1"), IOException);
  fs_->setFaultyDelete(dirtyFile("k1", 0), false);
  EXPECT_EQ(cache_->get("k1"), nullptr);
}

TEST_P(DiskLruCacheTest, TrimFailurePreventsEditsUntilItSucceeds) {
  cache_->close();
  createNewCache(8);
  set("a", "aa", "aa");
  set("b", "bb", "bb");
  fs_->setFaultyDelete(cleanFile("a", 0), true);
  set("c", "cc", "cc");  // 12 > 8
  faker_.runTasks();     // The trim fails.
  EXPECT_EQ(cache_->edit("d"), nullptr);
  fs_->setFaultyDelete(cleanFile("a", 0), false);
  faker_.runTasks();
  EXPECT_LE(cache_->size(), 8);
  set("d", "d", "d");
}

}  // namespace
}  // namespace tern::internal
