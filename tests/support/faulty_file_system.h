// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstdint>
#include <filesystem>
#include <map>
#include <memory>
#include <mutex>
#include <set>

#include "cache/file_system.h"

namespace tern::testing {

// A FileSystem that fails on command, over a real one (OkHttp's FaultyFileSystem): writes to a
// chosen file, renames from or to one, deletes of one, and a disk that fills up after a number
// of bytes. With `windows`, it also refuses to delete or replace a file that is open, as Windows
// does, and says so through deletesOpenFiles(), so the cache's zombie path is tested on Linux.
// Thread-safe.
class FaultyFileSystem final : public internal::FileSystem {
 public:
  explicit FaultyFileSystem(std::shared_ptr<internal::FileSystem> delegate, bool windows = false);

  // Writes (and opening for writing) to `file` throw IOException while set.
  void setFaultyWrite(const std::filesystem::path& file, bool faulty);
  // Renames from or to `file` throw IOException while set.
  void setFaultyRename(const std::filesystem::path& file, bool faulty);
  // Deleting `file` throws IOException while set.
  void setFaultyDelete(const std::filesystem::path& file, bool faulty);
  // After `bytes` more bytes written (to any file), writes throw "No space left on device";
  // -1 for unlimited.
  void setFreeSpace(int64_t bytes);

  // How many files are open now (sources and sinks), to check that nothing leaks.
  int openFileCount();

  std::unique_ptr<Source> source(const std::filesystem::path& file) override;
  std::unique_ptr<Sink> sink(const std::filesystem::path& file, bool append) override;
  void atomicMove(const std::filesystem::path& from, const std::filesystem::path& to) override;
  void deleteIfExists(const std::filesystem::path& file) override;
  bool exists(const std::filesystem::path& file) override;
  int64_t size(const std::filesystem::path& file) override;
  std::vector<std::filesystem::path> list(const std::filesystem::path& directory) override;
  void createDirectories(const std::filesystem::path& directory) override;
  std::unique_ptr<internal::FileLock> tryLock(const std::filesystem::path& file) override;
  bool deletesOpenFiles() const override { return !windows_; }

 private:
  class TrackedSource;
  class FaultySink;
  void opened(const std::filesystem::path& file);
  void closed(const std::filesystem::path& file);
  void checkWrite(const std::filesystem::path& file, int64_t byteCount);
  void checkNotOpen(const std::filesystem::path& file, const char* action);

  const std::shared_ptr<internal::FileSystem> delegate_;
  const bool windows_;
  std::mutex mutex_;
  std::set<std::filesystem::path> faultyWrites_;
  std::set<std::filesystem::path> faultyRenames_;
  std::set<std::filesystem::path> faultyDeletes_;
  int64_t freeSpace_ = -1;
  std::map<std::filesystem::path, int> openFiles_;
};

}  // namespace tern::testing
