// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
// DiskLruCache's crash safety (label `slow`): a writer process (disk_lru_cache_crash_writer.cc,
// started by fork and exec, so it has a process of its own with its own TaskRunner) edits a
// cache as fast as it can and is killed with SIGKILL at a random moment: inside a value's
// write, a commit's renames, a journal append, a background eviction or journal rebuild, or the
// writer's own reopen. Then this process opens the directory and checks what docs/cache.md
// promises:
//   - the cache opens (a crash is never a corrupt journal that resets it);
//   - every entry it serves is whole: both values read to the end, each checks itself (key,
//     index, generation, length, content, hash), both come from one edit, and each is as long
//     as getLength() says;
//   - no dirty file (`<key>.<i>.tmp`) nor `journal.tmp` or `journal.bkp` is left once it opened;
//   - it loses at most the entries being written: every key holds what the writer's last
//     completed operation on it left (recorded in a file both processes map, around each
//     operation), or, for the one key whose operation was under way, its state before or after
//     it, or nothing. With a small maxSize a churn key may also have been evicted, never the
//     stable keys, written before the writer said it was ready and only read afterwards;
//   - it still works: an edit commits and reads back after a close and reopen.
// Each run uses a fresh directory, removed afterwards (kept, and its path printed, when the run
// fails). No timing is asserted; figures are printed.
//
// TERN_CACHE_CRASH_RUNS sets the number of runs (default 40; the long run in docs/reliability.md
// is 500). TERN_CACHE_CRASH_SEED replays a sequence of runs: each run's seed (its writer's
// operations, maxSize and kill delay) is printed when it fails.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <poll.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <memory>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "cache/disk_lru_cache.h"
#include "cache/file_system.h"
#include "concurrent/task_runner.h"
#include "slow/disk_lru_cache_crash_values.h"
#include "tern/buffer.h"

namespace tern::testing::cache_crash {
namespace {

using internal::DiskLruCache;
using internal::FileSystem;
using internal::TaskRunner;

int crashRuns() {
  const char* value = std::getenv("TERN_CACHE_CRASH_RUNS");
  return value ? std::max(1, std::atoi(value)) : 40;
}

uint64_t firstSeed() {
  const char* value = std::getenv("TERN_CACHE_CRASH_SEED");
  return value ? std::strtoull(value, nullptr, 10) : std::random_device()();
}

// What the runs saw, printed at the end: evidence of where the kills landed.
struct Tally {
  int64_t writerOperations = 0;
  int64_t journalRebuilds = 0;  // Seen by the writers before they were killed.
  int dirtyFilesAtKill = 0;     // Runs killed with an edit's `.tmp` files on disk.
  int journalTmpAtKill = 0;     // … with a compacted journal being written.
  int onlyBackupAtKill = 0;  // … between `journal` → `journal.bkp` and `journal.tmp` → `journal`.
  int truncatedJournal = 0;   // … with a journal not ending in "\n".
  int inFlightLost = 0;       // Keys whose operation was under way and that came back empty.
  int inFlightCommitted = 0;  // … and that came back as the commit under way.
  int evicted = 0;            // Churn keys gone with a small maxSize.
  int orphanValueFiles = 0;   // `<key>.<i>` files of keys the reopened cache does not serve.
  int entriesChecked = 0;
};

std::string readAll(Source& source) {
  Buffer buffer;
  while (source.read(buffer, 8192) != -1) {
  }
  return buffer.readUtf8();
}

// The generation `key` holds in `cache` (kAbsent for none), after checking the entry is whole.
int64_t checkedGeneration(DiskLruCache& cache, const std::string& key) {
  auto snapshot = cache.get(key);
  if (!snapshot) return kAbsent;
  int64_t generations[kValueCount];
  for (int i = 0; i < kValueCount; ++i) {
    std::string value = readAll(snapshot->getSource(i));
    Verdict verdict = verifyValue(value, key, i);
    EXPECT_EQ(verdict.error, "");
    EXPECT_EQ(snapshot->getLength(i), static_cast<int64_t>(value.size())) << key << " value " << i;
    generations[i] = verdict.generation;
  }
  EXPECT_EQ(generations[0], generations[1]) << key << ": values of two edits";
  return generations[0];
}

void putValue(DiskLruCache& cache, const std::string& key, int64_t generation) {
  auto editor = cache.edit(key);
  ASSERT_NE(editor, nullptr) << key;
  for (int i = 0; i < kValueCount; ++i) {
    Buffer buffer;
    buffer.writeUtf8(makeValue(key, i, generation, 100 + 1000 * i));
    auto sink = editor->newSink(i);
    sink->write(buffer, buffer.size());
    sink->close();
  }
  editor->commit();
}

// The test's own TaskRunner, shut down (its threads joined) when the test ends, rather than the
// process-wide one: this binary's other tests use OpenSSL on TaskRunner threads, and threads of
// a runner made before OpenSSL was first used would outlive OpenSSL's exit-time cleanup (LSan
// then reports their per-thread error state).
struct TestRunner {
  std::shared_ptr<TaskRunner::RealBackend> backend = std::make_shared<TaskRunner::RealBackend>();
  std::shared_ptr<TaskRunner> runner = TaskRunner::create(backend);
  ~TestRunner() {
    runner->shutdown();
    backend->shutdown();
  }
};
TestRunner* testRunner = nullptr;

std::shared_ptr<DiskLruCache> openCache(const std::filesystem::path& directory) {
  return DiskLruCache::open(FileSystem::system(), directory, kAppVersion, kValueCount, kRoomForAll,
                            testRunner->runner);
}

// Notes what the kill left on disk, before the cache opens and tidies it.
void noteDirectoryAtKill(const std::filesystem::path& directory, Tally& tally) {
  bool dirty = false, journal = false, journalTmp = false, backup = false;
  for (const auto& file : std::filesystem::directory_iterator(directory)) {
    std::string name = file.path().filename().string();
    if (name == DiskLruCache::kJournalFile) journal = true;
    if (name == DiskLruCache::kJournalFileTemp) journalTmp = true;
    if (name == DiskLruCache::kJournalFileBackup) backup = true;
    if (name != DiskLruCache::kJournalFileTemp && name.ends_with(".tmp")) dirty = true;
  }
  tally.dirtyFilesAtKill += dirty;
  tally.journalTmpAtKill += journalTmp;
  tally.onlyBackupAtKill += backup && !journal;
  if (journal) {
    std::ifstream in(directory / DiskLruCache::kJournalFile, std::ios::binary);
    std::string contents((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    tally.truncatedJournal += !contents.empty() && contents.back() != '\n';
  }
}

// Opens the killed writer's cache and checks it against the writer's record.
void checkReopened(const std::filesystem::path& directory, SharedRecord& record, bool mayEvict,
                   Tally& tally) {
  auto cache = openCache(directory);
  ASSERT_NO_THROW(cache->initialize());

  // Dirty entries are cleaned as the cache opens: no edit's files, no journal being compacted.
  for (const auto& file : std::filesystem::directory_iterator(directory)) {
    std::string name = file.path().filename().string();
    EXPECT_FALSE(name.ends_with(".tmp")) << name << " is left after the cache opened";
    EXPECT_NE(name, DiskLruCache::kJournalFileBackup) << "left after the cache opened";
  }

  std::vector<int64_t> found(kKeys);
  for (int key = 0; key < kKeys; ++key) {
    const std::string name = keyName(key);
    const int64_t acked = load(record.keys[key].acked);
    const int64_t pending = load(record.keys[key].pending);
    const int64_t generation = checkedGeneration(*cache, name);
    found[key] = generation;
    if (generation != kAbsent) tally.entriesChecked++;
    if (generation == acked) continue;
    if (pending != 0 && (generation == kAbsent || generation == pending)) {
      (generation == kAbsent ? tally.inFlightLost : tally.inFlightCommitted)++;
      continue;
    }
    if (mayEvict && key >= kStableKeys && generation == kAbsent) {
      tally.evicted++;
      continue;
    }
    ADD_FAILURE() << "'" << name << "' holds generation " << generation << "; the writer's last "
                  << "completed operation left " << acked << ", and the one under way (0: none, "
                  << kDropping << ": a remove or abort) was " << pending;
  }

  // Value files of a key the cache does not serve: a leak of space, not of data (nothing reads
  // them, and the next edit of the key replaces them). Counted, not asserted: docs/cache.md
  // promises only that a crashed edit's files go.
  for (const auto& file : std::filesystem::directory_iterator(directory)) {
    std::string name = file.path().filename().string();
    for (int key = 0; key < kKeys; ++key) {
      if (found[key] == kAbsent && name.starts_with(keyName(key) + ".")) tally.orphanValueFiles++;
    }
  }

  // Still usable: a new entry commits and survives a close and reopen, with the stable ones.
  const std::string after = "after-crash";
  const int64_t afterGeneration = int64_t{1} << 40;
  putValue(*cache, after, afterGeneration);
  cache->close();
  cache = openCache(directory);
  ASSERT_NO_THROW(cache->initialize());
  EXPECT_EQ(checkedGeneration(*cache, after), afterGeneration);
  for (int key = 0; key < kStableKeys; ++key) {
    EXPECT_EQ(checkedGeneration(*cache, keyName(key)), found[key]) << keyName(key);
  }
  cache->close();
}

// How long the writer lives after it is ready: from at once to 600 ms, so kills land in its
// first edits, around its first journal compaction (which prepare() makes due early), and late.
std::chrono::microseconds killDelay(std::mt19937_64& random) {
  switch (random() % 4) {
    case 0:
      return std::chrono::microseconds(random() % 2'000);
    case 1:
      return std::chrono::microseconds(random() % 20'000);
    case 2:
      return std::chrono::microseconds(random() % 250'000);
    default:
      return std::chrono::microseconds(random() % 600'000);
  }
}

// One run: start the writer, kill it, check the directory.
void crashOnce(uint64_t seed, const std::filesystem::path& runDirectory, Tally& tally) {
  std::mt19937_64 random(seed);
  const bool mayEvict = random() % 3 == 0;
  const int64_t maxSize =
      mayEvict ? kSmallMaxSizeFloor + static_cast<int64_t>(random() % (16 * 1024)) : kRoomForAll;
  const auto delay = killDelay(random);
  SCOPED_TRACE("seed " + std::to_string(seed) + ", maxSize " + std::to_string(maxSize) +
               ", kill after " + std::to_string(delay.count()) + " us, directory " +
               runDirectory.string());

  const std::filesystem::path cacheDirectory = runDirectory / "cache";
  const std::filesystem::path recordFile = runDirectory / "record";
  std::filesystem::create_directories(cacheDirectory);
  int recordFd = ::open(recordFile.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0600);
  ASSERT_GE(recordFd, 0);
  ASSERT_EQ(::ftruncate(recordFd, sizeof(SharedRecord)), 0);
  void* mapped =
      ::mmap(nullptr, sizeof(SharedRecord), PROT_READ | PROT_WRITE, MAP_SHARED, recordFd, 0);
  ::close(recordFd);
  ASSERT_NE(mapped, MAP_FAILED);
  std::unique_ptr<void, void (*)(void*)> unmap(mapped,
                                               [](void* p) { ::munmap(p, sizeof(SharedRecord)); });
  auto& record = *static_cast<SharedRecord*>(mapped);

  int ready[2];
  ASSERT_EQ(::pipe2(ready, O_CLOEXEC), 0);
  // Everything the child needs is made before fork(): between fork and exec it may only make
  // async-signal-safe calls (this process has other threads, the TaskRunner's among them).
  std::vector<std::string> args = {TERN_CACHE_CRASH_WRITER_PATH, cacheDirectory.string(),
                                   recordFile.string(),          std::to_string(seed),
                                   std::to_string(maxSize),      std::to_string(ready[1])};
  std::vector<char*> argv;
  for (auto& arg : args) argv.push_back(arg.data());
  argv.push_back(nullptr);

  const pid_t pid = ::fork();
  if (pid == 0) {
    ::fcntl(ready[1], F_SETFD, 0);  // The writer inherits the ready pipe's write end.
    ::execv(argv[0], argv.data());
    ::_exit(127);
  }
  ::close(ready[1]);
  ASSERT_GT(pid, 0);

  // Wait for the stable keys (a minute at most: a stuck writer is a failure, not a hang).
  pollfd poll = {ready[0], POLLIN, 0};
  char byte = 0;
  const bool isReady = ::poll(&poll, 1, 60'000) == 1 && ::read(ready[0], &byte, 1) == 1;
  ::close(ready[0]);
  if (isReady) std::this_thread::sleep_for(delay);
  ::kill(pid, SIGKILL);
  int status = 0;
  ASSERT_EQ(::waitpid(pid, &status, 0), pid);
  ASSERT_TRUE(isReady) << "the writer did not get ready";
  ASSERT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL)
      << "the writer ended by itself (" << (WIFEXITED(status) ? "exit " : "signal ")
      << (WIFEXITED(status) ? WEXITSTATUS(status) : WTERMSIG(status))
      << "): it found a bad value or an exception, above";
  tally.writerOperations += load(record.operations);
  tally.journalRebuilds += load(record.rebuilds);

  noteDirectoryAtKill(cacheDirectory, tally);
  checkReopened(cacheDirectory, record, mayEvict, tally);
}

TEST(DiskLruCacheCrashTest, KilledWriterLosesAtMostTheEntriesBeingWritten) {
  TestRunner runner;
  testRunner = &runner;
  const int runs = crashRuns();
  const uint64_t seed = firstSeed();
  std::printf("%d runs from seed %llu (TERN_CACHE_CRASH_SEED replays them)\n", runs,
              static_cast<unsigned long long>(seed));
  Tally tally;
  int completed = 0;
  const auto start = std::chrono::steady_clock::now();
  for (int run = 0; run < runs && !::testing::Test::HasFailure(); ++run, ++completed) {
    const std::filesystem::path directory =
        std::filesystem::temp_directory_path() /
        ("tern-cache-crash-" + std::to_string(::getpid()) + "-" + std::to_string(run));
    std::filesystem::remove_all(directory);
    crashOnce(seed + run, directory, tally);
    if (!::testing::Test::HasFailure()) std::filesystem::remove_all(directory);
  }
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::printf(
      "%d runs in %.1f s; the writers completed %lld operations and saw %lld journal compactions; "
      "killed with dirty files: %d, "
      "with journal.tmp: %d, with only journal.bkp: %d, with a cut journal line: %d; entries "
      "checked: %d; keys under way lost: %d, committed: %d; evicted: %d; orphan value files: "
      "%d\n",
      completed, seconds, static_cast<long long>(tally.writerOperations),
      static_cast<long long>(tally.journalRebuilds), tally.dirtyFilesAtKill, tally.journalTmpAtKill,
      tally.onlyBackupAtKill, tally.truncatedJournal, tally.entriesChecked, tally.inFlightLost,
      tally.inFlightCommitted, tally.evicted, tally.orphanValueFiles);
}

}  // namespace
}  // namespace tern::testing::cache_crash
