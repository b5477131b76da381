// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#pragma once

namespace tern::internal {

// A descriptor that another thread can make readable, to wake a poll() early: an eventfd on
// Linux, a self-pipe elsewhere. Socket and ServerSocket put it in every poll set beside their
// own descriptor, so cancel() and close() wake blocked threads even where shutdown() would not
// (an accept(), a connect() in progress). Once signaled it stays readable.
//
// signal() is thread-safe and async-signal-safe; close() is not thread-safe with signal(), so
// owners guard the two with a mutex.
class WakeupFd {
 public:
  // Throws IOException if no descriptor can be made (EMFILE).
  WakeupFd();
  ~WakeupFd() { close(); }
  WakeupFd(const WakeupFd&) = delete;
  WakeupFd& operator=(const WakeupFd&) = delete;

  // The descriptor to poll for POLLIN; -1 once closed.
  int fd() const noexcept { return readFd_; }

  // Makes fd() readable. Does nothing once closed.
  void signal() noexcept;

  // Makes fd() unreadable again until the next signal(), for an owner that polls it in a loop
  // (an HTTP/3 connection's reader). Signals that race with it are not lost: either this
  // consumes them and the caller is awake anyway, or fd() stays readable.
  void drain() noexcept;

  // Releases the descriptors. Idempotent.
  void close() noexcept;

 private:
  int readFd_ = -1;
  int writeFd_ = -1;  // Equal to readFd_ for an eventfd.
};

}  // namespace tern::internal
