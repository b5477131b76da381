// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#include "server_socket.h"

#include <poll.h>
#include <sys/eventfd.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <ctime>
#include <span>
#include <stdexcept>

#include "tls/openssl_util.h"

namespace tern::mockwebserver::internal {

std::string errnoMessage(int error) {
  return std::string(std::strerror(error)) + " (errno " + std::to_string(error) + ")";
}

// FileDescriptor -------------------------------------------------------------------------------

FileDescriptor& FileDescriptor::operator=(FileDescriptor&& other) noexcept {
  if (this != &other) {
    reset();
    fd_ = other.release();
  }
  return *this;
}

int FileDescriptor::release() noexcept {
  const int fd = fd_;
  fd_ = -1;
  return fd;
}

void FileDescriptor::reset() noexcept {
  if (fd_ >= 0) {
    // Linux releases the descriptor even when close() reports EINTR, so it is never retried.
    ::close(fd_);
    fd_ = -1;
  }
}

// CloseSignal ----------------------------------------------------------------------------------

CloseSignal::CloseSignal() : fd_(::eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK)) {
  if (!fd_.valid()) {
    throw IOException("MockWebServer: eventfd() failed: " + errnoMessage(errno));
  }
}

void CloseSignal::fire() noexcept {
  if (fired_.exchange(true, std::memory_order_acq_rel)) return;
  const uint64_t one = 1;
  // The counter is never read, so it stays non-zero (readable) from now on. A failed write
  // (impossible short of counter overflow) still leaves fired_ set for the checks below.
  [[maybe_unused]] ssize_t written = ::write(fd_.get(), &one, sizeof(one));
}

void CloseSignal::sleep(std::chrono::nanoseconds duration) const {
  using Clock = std::chrono::steady_clock;
  const Clock::time_point deadline = Clock::now() + duration;
  while (true) {
    if (fired()) throw ServerClosedException();
    const auto remaining = deadline - Clock::now();
    if (remaining <= Clock::duration::zero()) return;
    const auto seconds = std::chrono::duration_cast<std::chrono::seconds>(remaining);
    const timespec timeout{static_cast<time_t>(seconds.count()),
                           static_cast<long>((remaining - seconds).count())};
    pollfd pfd{fd_.get(), POLLIN, 0};
    ::ppoll(&pfd, 1, &timeout, nullptr);  // Returns early on EINTR; the loop re-checks.
  }
}

void CloseSignal::awaitClose() const {
  while (!fired()) {
    pollfd pfd{fd_.get(), POLLIN, 0};
    ::poll(&pfd, 1, -1);
  }
  throw ServerClosedException();
}

short awaitReady(int fd, short events, const CloseSignal& closing) {
  while (true) {
    if (closing.fired()) throw ServerClosedException();
    pollfd fds[2] = {{fd, events, 0}, {closing.fd(), POLLIN, 0}};
    const int result = ::poll(fds, 2, -1);
    if (result < 0) {
      if (errno == EINTR) continue;
      throw IOException("MockWebServer: poll() failed: " + errnoMessage(errno));
    }
    if (fds[1].revents != 0) throw ServerClosedException();
    if (fds[0].revents != 0) return fds[0].revents;
  }
}

// ConnectionSocket -----------------------------------------------------------------------------

ConnectionSocket::ConnectionSocket(FileDescriptor fd, const CloseSignal& closing)
    : fd_(std::move(fd)), closing_(closing) {}

ConnectionSocket::~ConnectionSocket() { close(); }

void ConnectionSocket::startTls(SSL_CTX* context) {
  tern::internal::UniqueSsl ssl(SSL_new(context));
  if (!ssl) throw IOException(tern::internal::withOpenSslErrors("MockWebServer: SSL_new"));
  SSL_set_accept_state(ssl.get());
  auto tls = std::make_unique<tern::internal::TlsSocket>(transport_, std::move(ssl));
  tls->handshake(std::chrono::milliseconds(0));  // No limit: close() ends the wait.
  tls_ = std::move(tls);
}

void ConnectionSocket::close() noexcept {
  if (tls_ && fd_.valid()) tls_->sendCloseNotify();
  fd_.reset();
}

void ConnectionSocket::Transport::awaitReady(bool forWrite, const Timeout&) const {
  internal::awaitReady(socket_.requireOpen(), forWrite ? POLLOUT : POLLIN, socket_.closing_);
}

void ConnectionSocket::Transport::checkOpen() const {
  if (socket_.closing_.fired()) throw ServerClosedException();
  socket_.requireOpen();
}

int ConnectionSocket::requireOpen() const {
  if (!fd_.valid()) throw IOException("MockWebServer: socket closed");
  return fd_.get();
}

void ConnectionSocket::shutdownInput() noexcept {
  if (fd_.valid()) ::shutdown(fd_.get(), SHUT_RD);
}

void ConnectionSocket::shutdownOutput() noexcept {
  if (!fd_.valid()) return;
  if (tls_) tls_->sendCloseNotify();
  ::shutdown(fd_.get(), SHUT_WR);
}

int64_t ConnectionSocket::SocketSource::read(Buffer& sink, int64_t byteCount) {
  if (byteCount < 0) {
    throw std::invalid_argument("read: byteCount < 0: " + std::to_string(byteCount));
  }
  if (byteCount == 0) return 0;
  if (socket_.tls_) return socket_.tls_->source().read(sink, byteCount);
  while (true) {
    const int fd = socket_.requireOpen();
    std::span<std::byte> target = sink.writableSegment(1);
    const size_t toRead = std::min(target.size(), static_cast<size_t>(byteCount));
    const ssize_t n = ::recv(fd, target.data(), toRead, MSG_DONTWAIT);
    if (n > 0) {
      sink.commitWrite(static_cast<size_t>(n));
      return n;
    }
    sink.commitWrite(0);
    if (n == 0) return -1;
    if (errno == EINTR) continue;
    if (errno == EAGAIN || errno == EWOULDBLOCK) {
      awaitReady(fd, POLLIN, socket_.closing_);
      continue;
    }
    throw IOException("MockWebServer: read failed: " + errnoMessage(errno));
  }
}

void ConnectionSocket::SocketSink::write(Buffer& source, int64_t byteCount) {
  if (byteCount < 0 || byteCount > source.size()) {
    throw std::invalid_argument("write: byteCount " + std::to_string(byteCount) + " out of range");
  }
  if (socket_.tls_) {
    socket_.tls_->sink().write(source, byteCount);
    return;
  }
  while (byteCount > 0) {
    const int fd = socket_.requireOpen();
    std::span<const std::byte> segment = source.readableSegment(0);
    const size_t toWrite = std::min(segment.size(), static_cast<size_t>(byteCount));
    // MSG_NOSIGNAL: a client that went away must not kill the test process with SIGPIPE.
    const ssize_t n = ::send(fd, segment.data(), toWrite, MSG_NOSIGNAL | MSG_DONTWAIT);
    if (n >= 0) {
      source.skip(n);
      byteCount -= n;
      continue;
    }
    if (errno == EINTR) continue;
    if (errno == EAGAIN || errno == EWOULDBLOCK) {
      awaitReady(fd, POLLOUT, socket_.closing_);
      continue;
    }
    throw IOException("MockWebServer: write failed: " + errnoMessage(errno));
  }
}

}  // namespace tern::mockwebserver::internal
