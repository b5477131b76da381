// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
// Opens a DiskLruCache on a directory whose journal is the input. Beyond "no crash, no hang, no
// out-of-bounds read" it checks that opening ends in a usable cache or an IOException (a corrupt
// journal resets the cache), that every snapshot served has all its values, and that what the
// cache writes after reading the input reads back: an edit committed, the cache closed and opened
// again, the entry is there. The first byte says which of the keys k0..k3 have value files on
// disk (bit i: k<i>.0 and k<i>.1 hold "abc"); the rest is the journal.
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <string>
#include <system_error>

#include "cache/disk_lru_cache.h"
#include "concurrent/task_runner.h"
#include "tern/buffer.h"
#include "tern/buffered_sink.h"
#include "tern/exceptions.h"

namespace {

using tern::internal::DiskLruCache;
using tern::internal::FileSystem;
using tern::internal::TaskRunner;

void check(bool condition) {
  if (!condition) std::abort();
}

// A backend that never runs a task: trims and rebuilds wait (a real runner's threads would make
// runs nondeterministic); the cache's own paths are what is fuzzed.
class IdleBackend final : public TaskRunner::Backend {
 public:
  std::chrono::nanoseconds nanoTime() override { return std::chrono::nanoseconds(0); }
  void coordinatorNotify(TaskRunner&) override {}
  bool coordinatorWait(TaskRunner&, std::unique_lock<std::mutex>&,
                       std::chrono::nanoseconds) override {
    return false;
  }
  void execute(TaskRunner&, std::function<void()>) override {}
};

void writeFile(const std::filesystem::path& file, const void* data, size_t size) {
  std::ofstream out(file, std::ios::binary | std::ios::trunc);
  out.write(static_cast<const char*>(data), static_cast<std::streamsize>(size));
}

std::string readAll(tern::Source& source) {
  tern::Buffer buffer;
  while (source.read(buffer, 8192) != -1) {
    check(buffer.size() <= 1 << 20);
  }
  return buffer.readUtf8();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  static const std::shared_ptr<TaskRunner> runner =
      TaskRunner::create(std::make_shared<IdleBackend>());
  // One scratch directory per process, removed when the process exits.
  static const struct ScratchDirectory {
    std::filesystem::path path = std::filesystem::temp_directory_path() /
                                 ("tern-disk-lru-cache-fuzz-" + std::to_string(::getpid()));
    ~ScratchDirectory() {
      std::error_code ignored;
      std::filesystem::remove_all(path, ignored);
    }
  } scratch;
  const std::filesystem::path& dir = scratch.path;
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  for (int i = 0; i < 4; i++) {
    if (data[0] & (1 << i)) {
      writeFile(dir / ("k" + std::to_string(i) + ".0"), "abc", 3);
      writeFile(dir / ("k" + std::to_string(i) + ".1"), "abc", 3);
    }
  }
  writeFile(dir / "journal", data + 1, size - 1);

  const auto& fs = FileSystem::system();
  {
    auto cache = DiskLruCache::open(fs, dir, 100, 2, 1 << 20, runner);
    try {
      cache->initialize();
    } catch (const tern::IOException&) {
      return 0;  // A clear error is an acceptable end.
    }
    for (int i = 0; i < 4; i++) {
      auto snapshot = cache->get("k" + std::to_string(i));
      if (snapshot) {
        readAll(snapshot->getSource(0));
        readAll(snapshot->getSource(1));
        check(snapshot->getLength(0) >= 0 && snapshot->getLength(1) >= 0);
      }
    }
    cache->remove("k1");
    auto editor = cache->edit("fuzz");
    check(editor != nullptr);  // Nothing else edits it, and the disk works.
    for (int i = 0; i < 2; i++) {
      auto sink = tern::buffer(editor->newSink(i));
      sink->writeUtf8("value" + std::to_string(i));
      sink->close();
    }
    editor->commit();
    cache->flush();
    cache->close();
  }
  {
    // What the cache wrote after reading the input must read back.
    auto cache = DiskLruCache::open(fs, dir, 100, 2, 1 << 20, runner);
    cache->initialize();
    auto snapshot = cache->get("fuzz");
    check(snapshot != nullptr);
    check(readAll(snapshot->getSource(0)) == "value0");
    check(readAll(snapshot->getSource(1)) == "value1");
    check(cache->get("k1") == nullptr);
    snapshot.reset();
    cache->close();
  }
  return 0;
}
