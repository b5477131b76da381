// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstdint>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "tern/exceptions.h"
#include "tern/sink.h"
#include "tern/source.h"

namespace tern::internal {

// Thrown by FileSystem::source() when the file does not exist, so a caller can tell "the cache
// lost a file" (drop the entry) from "the disk failed" (an IOException to report).
class FileNotFoundException : public IOException {
 public:
  using IOException::IOException;
};

// An exclusive lock on a file, released when destroyed.
class FileLock {
 public:
  virtual ~FileLock() = default;
};

// The file operations the disk cache needs, behind an interface (Okio's FileSystem) so tests can
// inject faults (tests/support/faulty_file_system.h): write errors, a full disk, failed renames,
// and a platform that cannot delete open files. Every method throws IOException naming the path
// and the system's reason on failure. Implementations are thread-safe.
class FileSystem {
 public:
  virtual ~FileSystem() = default;

  // Reads `file` from its start. Throws FileNotFoundException if it does not exist.
  virtual std::unique_ptr<Source> source(const std::filesystem::path& file) = 0;

  // Writes `file`, creating it; truncates it unless `append`.
  virtual std::unique_ptr<Sink> sink(const std::filesystem::path& file, bool append = false) = 0;

  // Renames `from` to `to`, replacing `to` atomically if it exists (rename(2)).
  virtual void atomicMove(const std::filesystem::path& from, const std::filesystem::path& to) = 0;

  // Deletes `file`; nothing if it does not exist.
  virtual void deleteIfExists(const std::filesystem::path& file) = 0;

  virtual bool exists(const std::filesystem::path& file) = 0;

  // The size of `file` in bytes. Throws FileNotFoundException if it does not exist.
  virtual int64_t size(const std::filesystem::path& file) = 0;

  // The entries of `directory` (full paths), in no particular order; empty if it does not exist.
  virtual std::vector<std::filesystem::path> list(const std::filesystem::path& directory) = 0;

  virtual void createDirectories(const std::filesystem::path& directory) = 0;

  // Takes an exclusive lock on `file` (creating it), excluding other processes and other
  // holders in this one; returns nullptr if someone else holds it.
  virtual std::unique_ptr<FileLock> tryLock(const std::filesystem::path& file) = 0;

  // True where a file can be deleted or replaced while it is open, its readers keeping the old
  // contents (POSIX). False on a platform like Windows: the cache then counts an entry's readers
  // and defers deleting it (a "zombie") until the last one closes, as OkHttp does.
  virtual bool deletesOpenFiles() const { return true; }

  // The real file system.
  static const std::shared_ptr<FileSystem>& system();
};

}  // namespace tern::internal
