// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#include "http/text_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
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

// `count` digits of `s` from `pos` as a number, or -1.
int digits(std::string_view s, size_t pos, size_t count) {
  if (pos + count > s.size()) return -1;
  int value = 0;
  for (size_t i = pos; i < pos + count; ++i) {
    if (s[i] < '0' || s[i] > '9') return -1;
    value = value * 10 + (s[i] - '0');
  }
  return value;
}

}  // namespace

std::optional<std::chrono::sys_seconds> parseCurlStamp(std::string_view s) {
  if (s.size() != 17 || s[8] != ' ' || s[11] != ':' || s[14] != ':') return std::nullopt;
  int year = digits(s, 0, 4), month = digits(s, 4, 2), day = digits(s, 6, 2);
  int hour = digits(s, 9, 2), minute = digits(s, 12, 2), second = digits(s, 15, 2);
  if (year < 0 || month < 0 || day < 0 || hour < 0 || minute < 0 || second < 0) {
    return std::nullopt;
  }
  std::chrono::year_month_day date{std::chrono::year(year), std::chrono::month(month),
                                   std::chrono::day(day)};
  if (!date.ok() || hour > 23 || minute > 59 || second > 60) return std::nullopt;
  return std::chrono::sys_days(date) + std::chrono::hours(hour) + std::chrono::minutes(minute) +
         std::chrono::seconds(second);
}

std::string formatCurlStamp(std::chrono::sys_seconds time) {
  std::chrono::sys_days days = std::chrono::floor<std::chrono::days>(time);
  std::chrono::year_month_day date(days);
  std::chrono::hh_mm_ss<std::chrono::seconds> clock(time - days);
  char text[64];
  std::snprintf(text, sizeof(text), "%04d%02u%02u %02d:%02d:%02d", static_cast<int>(date.year()),
                static_cast<unsigned>(date.month()), static_cast<unsigned>(date.day()),
                static_cast<int>(clock.hours().count()), static_cast<int>(clock.minutes().count()),
                static_cast<int>(clock.seconds().count()));
  return text;
}

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
