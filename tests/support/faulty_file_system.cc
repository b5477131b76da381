// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#include "support/faulty_file_system.h"

#include "tern/buffer.h"
#include "tern/exceptions.h"

namespace tern::testing {

class FaultyFileSystem::TrackedSource final : public Source {
 public:
  TrackedSource(FaultyFileSystem& fs, std::filesystem::path file, std::unique_ptr<Source> delegate)
      : fs_(fs), file_(std::move(file)), delegate_(std::move(delegate)) {
    fs_.opened(file_);
  }
  ~TrackedSource() override {
    if (!closed_) fs_.closed(file_);
  }
  int64_t read(Buffer& sink, int64_t byteCount) override {
    return delegate_->read(sink, byteCount);
  }
  Timeout& timeout() override { return delegate_->timeout(); }
  void close() override {
    if (closed_) return;
    closed_ = true;
    fs_.closed(file_);
    delegate_->close();
  }

 private:
  FaultyFileSystem& fs_;
  std::filesystem::path file_;
  std::unique_ptr<Source> delegate_;
  bool closed_ = false;
};

class FaultyFileSystem::FaultySink final : public Sink {
 public:
  FaultySink(FaultyFileSystem& fs, std::filesystem::path file, std::unique_ptr<Sink> delegate)
      : fs_(fs), file_(std::move(file)), delegate_(std::move(delegate)) {
    fs_.opened(file_);
  }
  ~FaultySink() override {
    if (!closed_) fs_.closed(file_);
  }
  void write(Buffer& source, int64_t byteCount) override {
    fs_.checkWrite(file_, byteCount);
    delegate_->write(source, byteCount);
  }
  void flush() override { delegate_->flush(); }
  Timeout& timeout() override { return delegate_->timeout(); }
  void close() override {
    if (closed_) return;
    closed_ = true;
    fs_.closed(file_);
    delegate_->close();
  }

 private:
  FaultyFileSystem& fs_;
  std::filesystem::path file_;
  std::unique_ptr<Sink> delegate_;
  bool closed_ = false;
};

FaultyFileSystem::FaultyFileSystem(std::shared_ptr<internal::FileSystem> delegate, bool windows)
    : delegate_(std::move(delegate)), windows_(windows) {}

void FaultyFileSystem::setFaultyWrite(const std::filesystem::path& file, bool faulty) {
  std::lock_guard<std::mutex> lock(mutex_);
  faulty ? (void)faultyWrites_.insert(file) : (void)faultyWrites_.erase(file);
}

void FaultyFileSystem::setFaultyRename(const std::filesystem::path& file, bool faulty) {
  std::lock_guard<std::mutex> lock(mutex_);
  faulty ? (void)faultyRenames_.insert(file) : (void)faultyRenames_.erase(file);
}

void FaultyFileSystem::setFaultyDelete(const std::filesystem::path& file, bool faulty) {
  std::lock_guard<std::mutex> lock(mutex_);
  faulty ? (void)faultyDeletes_.insert(file) : (void)faultyDeletes_.erase(file);
}

void FaultyFileSystem::setFreeSpace(int64_t bytes) {
  std::lock_guard<std::mutex> lock(mutex_);
  freeSpace_ = bytes;
}

int FaultyFileSystem::openFileCount() {
  std::lock_guard<std::mutex> lock(mutex_);
  int count = 0;
  for (const auto& [file, n] : openFiles_) count += n;
  return count;
}

void FaultyFileSystem::opened(const std::filesystem::path& file) {
  std::lock_guard<std::mutex> lock(mutex_);
  openFiles_[file]++;
}

void FaultyFileSystem::closed(const std::filesystem::path& file) {
  std::lock_guard<std::mutex> lock(mutex_);
  if (--openFiles_[file] == 0) openFiles_.erase(file);
}

void FaultyFileSystem::checkWrite(const std::filesystem::path& file, int64_t byteCount) {
  std::lock_guard<std::mutex> lock(mutex_);
  if (faultyWrites_.count(file)) throw IOException("boom! (faulty write to " + file.string() + ")");
  if (freeSpace_ >= 0) {
    if (byteCount > freeSpace_) {
      freeSpace_ = 0;
      throw IOException("Failed to write " + file.string() + ": No space left on device");
    }
    freeSpace_ -= byteCount;
  }
}

void FaultyFileSystem::checkNotOpen(const std::filesystem::path& file, const char* action) {
  if (windows_ && openFiles_.count(file)) {
    throw IOException(std::string("Failed to ") + action + " " + file.string() +
                      ": file is open (Windows)");
  }
}

std::unique_ptr<Source> FaultyFileSystem::source(const std::filesystem::path& file) {
  return std::make_unique<TrackedSource>(*this, file, delegate_->source(file));
}

std::unique_ptr<Sink> FaultyFileSystem::sink(const std::filesystem::path& file, bool append) {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (faultyWrites_.count(file)) {
      throw IOException("boom! (faulty open of " + file.string() + ")");
    }
    checkNotOpen(file, "write");
  }
  return std::make_unique<FaultySink>(*this, file, delegate_->sink(file, append));
}

void FaultyFileSystem::atomicMove(const std::filesystem::path& from,
                                  const std::filesystem::path& to) {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (faultyRenames_.count(from) || faultyRenames_.count(to)) {
      throw IOException("boom! (faulty rename of " + from.string() + " to " + to.string() + ")");
    }
    checkNotOpen(from, "rename");
    checkNotOpen(to, "replace");
  }
  delegate_->atomicMove(from, to);
}

void FaultyFileSystem::deleteIfExists(const std::filesystem::path& file) {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (faultyDeletes_.count(file))
      throw IOException("boom! (faulty delete of " + file.string() + ")");
    checkNotOpen(file, "delete");
  }
  delegate_->deleteIfExists(file);
}

bool FaultyFileSystem::exists(const std::filesystem::path& file) { return delegate_->exists(file); }

int64_t FaultyFileSystem::size(const std::filesystem::path& file) { return delegate_->size(file); }

std::vector<std::filesystem::path> FaultyFileSystem::list(const std::filesystem::path& directory) {
  return delegate_->list(directory);
}

void FaultyFileSystem::createDirectories(const std::filesystem::path& directory) {
  delegate_->createDirectories(directory);
}

std::unique_ptr<internal::FileLock> FaultyFileSystem::tryLock(const std::filesystem::path& file) {
  return delegate_->tryLock(file);
}

}  // namespace tern::testing
