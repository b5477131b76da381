// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#include "cache/file_system.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <system_error>

#include "tern/file_streams.h"

namespace tern::internal {

namespace {

IOException fileError(std::string_view action, const std::filesystem::path& path, int error) {
  return IOException(std::string(action) + " " + path.string() + ": " +
                     std::generic_category().message(error));
}

// An open file description locked with F_OFD_SETLK: unlike flock() it conflicts with the POSIX
// record locks the JVM's FileChannel.tryLock() takes, so OkHttp and tern exclude each other on
// one directory; unlike classic fcntl() locks it also excludes a second holder in this process
// and is not dropped when some other descriptor of the file is closed.
class OfdLock final : public FileLock {
 public:
  explicit OfdLock(int fd) : fd_(fd) {}
  ~OfdLock() override { ::close(fd_); }  // Closing the description releases the lock.
  OfdLock(const OfdLock&) = delete;
  OfdLock& operator=(const OfdLock&) = delete;

 private:
  int fd_;
};

class SystemFileSystem final : public FileSystem {
 public:
  std::unique_ptr<Source> source(const std::filesystem::path& file) override {
    try {
      return fileSource(file);
    } catch (const IOException& e) {
      if (!exists(file)) throw FileNotFoundException(e.what());
      throw;
    }
  }

  std::unique_ptr<Sink> sink(const std::filesystem::path& file, bool append) override {
    return fileSink(file, append);
  }

  void atomicMove(const std::filesystem::path& from, const std::filesystem::path& to) override {
    if (::rename(from.c_str(), to.c_str()) != 0) {
      throw fileError("Failed to rename " + from.string() + " to", to, errno);
    }
  }

  void deleteIfExists(const std::filesystem::path& file) override {
    if (::unlink(file.c_str()) != 0 && errno != ENOENT) {
      throw fileError("Failed to delete", file, errno);
    }
  }

  bool exists(const std::filesystem::path& file) override {
    struct stat st;
    return ::stat(file.c_str(), &st) == 0;
  }

  int64_t size(const std::filesystem::path& file) override {
    struct stat st;
    if (::stat(file.c_str(), &st) != 0) {
      if (errno == ENOENT) throw FileNotFoundException("No such file: " + file.string());
      throw fileError("Failed to stat", file, errno);
    }
    return static_cast<int64_t>(st.st_size);
  }

  std::vector<std::filesystem::path> list(const std::filesystem::path& directory) override {
    std::vector<std::filesystem::path> result;
    std::error_code error;
    for (std::filesystem::directory_iterator it(directory, error), end; !error && it != end;
         it.increment(error)) {
      result.push_back(it->path());
    }
    if (error && error != std::errc::no_such_file_or_directory) {
      throw fileError("Failed to list", directory, error.value());
    }
    return result;
  }

  void createDirectories(const std::filesystem::path& directory) override {
    std::error_code error;
    std::filesystem::create_directories(directory, error);
    if (error) throw fileError("Failed to create directory", directory, error.value());
  }

  std::unique_ptr<FileLock> tryLock(const std::filesystem::path& file) override {
    int fd = ::open(file.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0666);
    if (fd < 0) throw fileError("Failed to open", file, errno);
    struct flock lock = {};
    lock.l_type = F_WRLCK;
    lock.l_whence = SEEK_SET;
    if (::fcntl(fd, F_OFD_SETLK, &lock) != 0) {
      int error = errno;
      ::close(fd);
      if (error == EACCES || error == EAGAIN) return nullptr;
      throw fileError("Failed to lock", file, error);
    }
    return std::make_unique<OfdLock>(fd);
  }
};

}  // namespace

const std::shared_ptr<FileSystem>& FileSystem::system() {
  static const std::shared_ptr<FileSystem> instance = std::make_shared<SystemFileSystem>();
  return instance;
}

}  // namespace tern::internal
