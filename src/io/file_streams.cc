// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#include "tern/file_streams.h"

#include <fcntl.h>
#include <sys/uio.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <stdexcept>
#include <string>
#include <system_error>

#include "tern/buffer.h"
#include "tern/exceptions.h"

namespace tern {

namespace {

// At most this many segments go to one writev() call (well under IOV_MAX).
constexpr size_t kMaxIovecs = 64;

IOException fileError(std::string_view action, const std::filesystem::path& path, int error) {
  return IOException(std::string(action) + " " + path.string() + ": " +
                     std::generic_category().message(error));
}

// An open file descriptor, closed on destruction.
class FileDescriptor {
 public:
  explicit FileDescriptor(int fd) : fd_(fd) {}
  ~FileDescriptor() {
    // Destruction cannot report failure; close() is the way to learn of one.
    if (fd_ >= 0) {
      ::close(fd_);
    }
  }
  FileDescriptor(const FileDescriptor&) = delete;
  FileDescriptor& operator=(const FileDescriptor&) = delete;

  int get() const noexcept { return fd_; }
  bool isOpen() const noexcept { return fd_ >= 0; }

  // Closes the descriptor; returns 0 or the errno of a failed close(). EINTR counts as success:
  // on Linux the descriptor is released regardless, and retrying could close another file.
  int close() noexcept {
    int fd = fd_;
    fd_ = -1;
    if (fd < 0 || ::close(fd) == 0 || errno == EINTR) {
      return 0;
    }
    return errno;
  }

 private:
  int fd_;
};

int openOrThrow(const std::filesystem::path& path, int flags) {
  int fd = ::open(path.c_str(), flags | O_CLOEXEC, 0666);
  if (fd < 0) {
    throw fileError("Failed to open", path, errno);
  }
  return fd;
}

class FileSource final : public Source {
 public:
  explicit FileSource(const std::filesystem::path& path)
      : path_(path), fd_(openOrThrow(path, O_RDONLY)) {}

  int64_t read(Buffer& sink, int64_t byteCount) override {
    if (byteCount < 0) {
      throw std::invalid_argument("fileSource read: byteCount < 0: " + std::to_string(byteCount));
    }
    if (!fd_.isOpen()) {
      throw std::logic_error("fileSource " + path_.string() + " is closed");
    }
    if (byteCount == 0) {
      return 0;
    }
    timeout_.throwIfReached();
    // Read straight into the sink's tail segment: no intermediate copy.
    std::span<std::byte> space = sink.writableSegment(1);
    size_t want = std::min(space.size(), static_cast<size_t>(byteCount));
    ssize_t n;
    do {
      n = ::read(fd_.get(), space.data(), want);
    } while (n < 0 && errno == EINTR);
    int error = errno;
    sink.commitWrite(n > 0 ? static_cast<size_t>(n) : 0);
    if (n < 0) {
      throw fileError("Failed to read", path_, error);
    }
    return n == 0 ? -1 : n;
  }

  Timeout& timeout() override { return timeout_; }

  void close() override {
    if (int error = fd_.close(); error != 0) {
      throw fileError("Failed to close", path_, error);
    }
  }

 private:
  std::filesystem::path path_;
  FileDescriptor fd_;
  Timeout timeout_;
};

class FileSink final : public Sink {
 public:
  FileSink(const std::filesystem::path& path, bool append)
      : path_(path), fd_(openOrThrow(path, O_WRONLY | O_CREAT | (append ? O_APPEND : O_TRUNC))) {}

  void write(Buffer& source, int64_t byteCount) override {
    if (byteCount < 0 || byteCount > source.size()) {
      throw std::invalid_argument("fileSink write: byteCount=" + std::to_string(byteCount) +
                                  " outside [0, source.size=" + std::to_string(source.size()) +
                                  "]");
    }
    if (!fd_.isOpen()) {
      throw std::logic_error("fileSink " + path_.string() + " is closed");
    }
    timeout_.throwIfReached();
    while (byteCount > 0) {
      // Hand the segments themselves to writev(): no intermediate copy.
      iovec iov[kMaxIovecs];
      size_t count = 0;
      int64_t planned = 0;
      for (; count < kMaxIovecs && count < source.segmentCount() && planned < byteCount; ++count) {
        std::span<const std::byte> bytes = source.readableSegment(count);
        size_t n = std::min(bytes.size(), static_cast<size_t>(byteCount - planned));
        iov[count] = {const_cast<std::byte*>(bytes.data()), n};
        planned += static_cast<int64_t>(n);
      }
      ssize_t written;
      do {
        written = ::writev(fd_.get(), iov, static_cast<int>(count));
      } while (written < 0 && errno == EINTR);
      if (written < 0) {
        throw fileError("Failed to write", path_, errno);
      }
      source.skip(written);
      byteCount -= written;
    }
  }

  void flush() override {
    if (!fd_.isOpen()) {
      throw std::logic_error("fileSink " + path_.string() + " is closed");
    }
  }

  Timeout& timeout() override { return timeout_; }

  void close() override {
    if (int error = fd_.close(); error != 0) {
      throw fileError("Failed to close", path_, error);
    }
  }

 private:
  std::filesystem::path path_;
  FileDescriptor fd_;
  Timeout timeout_;
};

}  // namespace

std::unique_ptr<Source> fileSource(const std::filesystem::path& path) {
  return std::make_unique<FileSource>(path);
}

std::unique_ptr<Sink> fileSink(const std::filesystem::path& path, bool append) {
  return std::make_unique<FileSink>(path, append);
}

}  // namespace tern
