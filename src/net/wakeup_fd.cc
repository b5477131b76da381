// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#include "net/wakeup_fd.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <string>

#include "net/error_message.h"
#include "tern/exceptions.h"

#if defined(__linux__)
#include <sys/eventfd.h>
#endif

namespace tern::internal {

WakeupFd::WakeupFd() {
#if defined(__linux__)
  readFd_ = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
  if (readFd_ < 0) {
    const int error = errno;
    throw IOException("Cannot create a wakeup eventfd: " + errorMessage(error));
  }
  writeFd_ = readFd_;
#else
  int fds[2];
  if (pipe(fds) != 0) {
    const int error = errno;
    throw IOException("Cannot create a wakeup pipe: " + errorMessage(error));
  }
  for (int fd : fds) {
    fcntl(fd, F_SETFD, FD_CLOEXEC);
    fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK);
  }
  readFd_ = fds[0];
  writeFd_ = fds[1];
#endif
}

void WakeupFd::signal() noexcept {
  if (writeFd_ < 0) {
    return;
  }
#if defined(__linux__)
  const uint64_t one = 1;
  // A full counter (or pipe) already makes fd() readable, so a failed write loses nothing.
  [[maybe_unused]] ssize_t ignored = ::write(writeFd_, &one, sizeof(one));
#else
  const char one = 1;
  [[maybe_unused]] ssize_t ignored = ::write(writeFd_, &one, 1);
#endif
}

void WakeupFd::drain() noexcept {
  if (readFd_ < 0) {
    return;
  }
#if defined(__linux__)
  uint64_t count = 0;
  [[maybe_unused]] ssize_t ignored = ::read(readFd_, &count, sizeof(count));  // Resets it to 0.
#else
  char bytes[64];
  while (::read(readFd_, bytes, sizeof(bytes)) > 0) {
  }
#endif
}

void WakeupFd::close() noexcept {
  if (writeFd_ >= 0 && writeFd_ != readFd_) {
    ::close(writeFd_);
  }
  if (readFd_ >= 0) {
    ::close(readFd_);
  }
  readFd_ = -1;
  writeFd_ = -1;
}

}  // namespace tern::internal
