// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#include "http/text_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <system_error>
#include <utility>

#include "tern/exceptions.h"

namespace tern::internal {
namespace {

std::string errorText(int error) {
  return std::error_code(error, std::generic_category()).message();
}

// Closes a file descriptor on every path out.
class FdCloser {
 public:
  explicit FdCloser(int fd) : fd_(fd) {}
  ~FdCloser() {
    if (fd_ >= 0) ::close(fd_);
  }
  FdCloser(const FdCloser&) = delete;
  FdCloser& operator=(const FdCloser&) = delete;
  int release() { return std::exchange(fd_, -1); }

 private:
  int fd_;
};

}  // namespace

std::optional<std::string> readTextFile(const std::filesystem::path& path, std::string_view what) {
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    if (errno == ENOENT) return std::nullopt;
    throw IOException(std::string(what) + " " + path.string() + ": " + errorText(errno));
  }
  FdCloser closer(fd);
  std::string text;
  char buffer[8192];
  while (true) {
    ssize_t n = ::read(fd, buffer, sizeof(buffer));
    if (n == 0) break;
    if (n < 0) {
      if (errno == EINTR) continue;
      throw IOException(std::string(what) + " " + path.string() + ": " + errorText(errno));
    }
    text.append(buffer, static_cast<size_t>(n));
  }
  return text;
}

void writeTextFileAtomically(const std::filesystem::path& path, std::string_view text,
                             std::string_view what) {
  auto throwError = [&](std::string_view step, int error) {
    throw IOException(std::string(what) + " " + path.string() + ": " + std::string(step) + ": " +
                      errorText(error));
  };
  std::filesystem::path directory = path.parent_path();
  if (directory.empty()) directory = ".";
  // The temporary file is in the target's directory, so the rename stays on one file system and
  // is atomic.
  std::string tempName = (directory / ("." + path.filename().string() + ".XXXXXX")).string();
  int fd = ::mkstemp(tempName.data());
  if (fd < 0) throwError("creating a temporary file in " + directory.string(), errno);
  FdCloser closer(fd);
  auto fail = [&](std::string_view step) {
    int error = errno;
    ::unlink(tempName.c_str());
    throwError(step, error);
  };
  // Keep the old file's permissions; a new file stays private (0600, mkstemp's): cookies are
  // credentials, and the hosts one visits are private too.
  struct stat old {};
  if (::stat(path.c_str(), &old) == 0 && ::fchmod(fd, old.st_mode & 07777) != 0) fail("chmod");
  size_t written = 0;
  while (written < text.size()) {
    ssize_t n = ::write(fd, text.data() + written, text.size() - written);
    if (n < 0) {
      if (errno == EINTR) continue;
      fail("write");
    }
    written += static_cast<size_t>(n);
  }
  if (::fsync(fd) != 0) fail("fsync");
  if (::close(closer.release()) != 0) fail("close");
  if (::rename(tempName.c_str(), path.c_str()) != 0) fail("rename");
  // Make the rename itself durable. A failure here leaves a complete file either way.
  int dirFd = ::open(directory.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (dirFd >= 0) {
    ::fsync(dirFd);
    ::close(dirFd);
  }
}

}  // namespace tern::internal
