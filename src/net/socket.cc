// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#include "net/socket.h"

#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/socket.h>
#include <sys/uio.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <stdexcept>
#include <string>

#include "concurrent/fiber.h"
#include "concurrent/fiber_reactor.h"
#include "net/error_message.h"
#include "net/socket_address.h"
#include "tern/buffer.h"
#include "tern/exceptions.h"

namespace tern::internal {
namespace {

#if defined(MSG_NOSIGNAL)
constexpr int kSendFlags = MSG_NOSIGNAL;
#else
constexpr int kSendFlags = 0;  // SO_NOSIGPIPE is set on the socket instead.
#endif

// Segments per sendmsg(); 64 × 8 KiB is plenty per system call and well under IOV_MAX.
constexpr size_t kMaxIovecs = 64;
// The most segments one read fills.
constexpr size_t kMaxReadSegments = 8;

const char* operationName(Socket::Operation operation) {
  switch (operation) {
    case Socket::Operation::kConnect:
      return "Connect";
    case Socket::Operation::kRead:
      return "Read";
    case Socket::Operation::kWrite:
      return "Write";
  }
  return "I/O";
}

// When a wait must end and why: the per-operation timeout (timeout > 0), or the deadline
// (timeout == 0 with `until` set), or never.
struct WaitLimit {
  std::optional<Timeout::Clock::time_point> until;
  std::chrono::nanoseconds timeout{0};
};

WaitLimit waitLimit(const Timeout& timeout) {
  const auto now = Timeout::Clock::now();
  WaitLimit limit{timeout.waitDeadline(now), timeout.timeoutNanos()};
  // The deadline fired if it comes no later than the per-operation timeout.
  if (limit.until && limit.timeout.count() > 0 && timeout.hasDeadline() &&
      timeout.deadlineNanoTime() <= now + limit.timeout) {
    limit.timeout = std::chrono::nanoseconds(0);
  }
  return limit;
}

void setOptions(int fd) {
  // Best effort: a socket that refuses TCP_NODELAY still works, only slower for small writes.
  const int one = 1;
  setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
#if defined(SO_NOSIGPIPE)
  setsockopt(fd, SOL_SOCKET, SO_NOSIGPIPE, &one, sizeof(one));
#endif
}

}  // namespace

SocketTimeoutException timeoutException(std::string_view operation,
                                        std::chrono::nanoseconds timeout, std::string_view where) {
  std::string message(operation);
  if (timeout.count() > 0) {
    const auto millis = std::chrono::duration_cast<std::chrono::milliseconds>(timeout);
    message += " timed out after " + std::to_string(millis.count()) + " ms: ";
  } else {
    message += " deadline reached: ";
  }
  message += where;
  return SocketTimeoutException(message);
}

Socket::Socket() = default;

Socket::~Socket() { close(); }

std::unique_ptr<Socket> Socket::connectTo(const InetSocketAddress& address,
                                          std::chrono::milliseconds connectTimeout) {
  auto socket = std::make_unique<Socket>();
  socket->connect(address, connectTimeout);
  return socket;
}

std::unique_ptr<Socket> Socket::adopt(int fd) {
  if (fd < 0) {
    throw std::invalid_argument("Socket::adopt: invalid fd " + std::to_string(fd));
  }
  std::unique_ptr<Socket> socket;
  try {
    socket = std::make_unique<Socket>();
  } catch (...) {
    ::close(fd);  // We own it from the call on, even when we fail.
    throw;
  }
  socket->adoptFd(fd);
  if (fcntl(fd, F_SETFD, FD_CLOEXEC) != 0 ||
      fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK) != 0) {
    const int error = errno;
    throw IOException("Socket::adopt: fcntl failed: " + errorMessage(error));
  }
  sockaddr_storage peer{};
  socklen_t length = sizeof(peer);
  if (getpeername(fd, reinterpret_cast<sockaddr*>(&peer), &length) != 0) {
    const int error = errno;
    throw IOException("Socket::adopt: not a connected socket: " + errorMessage(error));
  }
  socket->remote_ = fromSockaddr(peer, length);
  socket->connected_ = true;
  return socket;
}

void Socket::adoptFd(int fd) {
  std::lock_guard<std::mutex> lock(fdLock_);
  fd_ = fd;
  setOptions(fd);
  // A cancel() that came before the descriptor existed could not shut it down; do it now so a
  // connect() in progress is aborted as well as woken.
  if (canceled_.load(std::memory_order_acquire)) {
    ::shutdown(fd_, SHUT_RDWR);
  }
}

void Socket::connect(const InetSocketAddress& address, std::chrono::milliseconds connectTimeout) {
  if (closed_) {
    throw IOException("Socket closed");
  }
  if (connected_ || fd_ >= 0) {
    throw std::logic_error("Socket::connect: already connected to " + remote_->describe());
  }
  if (connectTimeout.count() < 0) {
    throw std::invalid_argument("Socket::connect: connectTimeout < 0: " +
                                std::to_string(connectTimeout.count()));
  }
  remote_ = address;
  if (isCanceled()) {
    throw InterruptedIOException("Canceled");
  }

  const SockaddrStorage target = toSockaddr(address);
  const int fd = ::socket(target.storage.ss_family, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
  if (fd < 0) {
    const int error = errno;
    throw ConnectException("Failed to connect to " + address.describe() +
                           ": cannot create a socket: " + errorMessage(error));
  }
  adoptFd(fd);

  try {
    int result = ::connect(fd, reinterpret_cast<const sockaddr*>(&target.storage), target.length);
    if (result != 0 && errno != EINPROGRESS && errno != EINTR) {
      const int error = errno;
      if (isCanceled()) {
        throw InterruptedIOException("Canceled");
      }
      throw ConnectException("Failed to connect to " + address.describe() + ": " +
                             errorMessage(error));
    }
    if (result != 0) {
      // RFC 793's handshake runs in the kernel; wait for it, bounded by the connect timeout.
      WaitLimit limit;
      if (connectTimeout.count() > 0) {
        limit.until = Timeout::Clock::now() + connectTimeout;
        limit.timeout = connectTimeout;
      }
      await(Operation::kConnect, limit.until, limit.timeout);
      int error = 0;
      socklen_t length = sizeof(error);
      if (getsockopt(fd, SOL_SOCKET, SO_ERROR, &error, &length) != 0) {
        error = errno;
      }
      if (isCanceled()) {
        throw InterruptedIOException("Canceled");
      }
      if (error != 0) {
        throw ConnectException("Failed to connect to " + address.describe() + ": " +
                               errorMessage(error));
      }
    }
  } catch (...) {
    close();
    throw;
  }
  connected_ = true;
}

int64_t Socket::SocketSource::read(Buffer& sink, int64_t byteCount) {
  if (byteCount < 0) {
    throw std::invalid_argument("Socket read: byteCount < 0: " + std::to_string(byteCount));
  }
  socket_.checkOpen();
  if (byteCount == 0) {
    return 0;
  }
  if (socket_.inputShutdown_) {
    return -1;
  }

  std::optional<WaitLimit> limit;  // Computed at the first wait, so it bounds this whole read.
  // Right after a request went out its answer is seldom there yet: wait for it first rather than
  // try a read that would only say EAGAIN (one system call less per exchange).
  if (socket_.readAfterWrite_.exchange(false, std::memory_order_relaxed)) {
    limit = waitLimit(timeout_);
    socket_.await(Operation::kRead, limit->until, limit->timeout);
  }
  while (true) {
    // Up to kMaxReadSegments segments in one system call: a large body arrives in 64 KiB reads
    // rather than 8 KiB ones.
    std::span<std::byte> spans[kMaxReadSegments];
    const size_t wanted = static_cast<size_t>(std::min<int64_t>(
        byteCount, kMaxReadSegments * static_cast<int64_t>(Buffer::kSegmentSize)));
    const size_t count = sink.writableSegments(spans, wanted);
    iovec iov[kMaxReadSegments];
    size_t room = 0;
    for (size_t i = 0; i < count; ++i) {
      iov[i].iov_base = spans[i].data();
      iov[i].iov_len = std::min(spans[i].size(), wanted - room);
      room += iov[i].iov_len;
    }
    msghdr message{};
    message.msg_iov = iov;
    message.msg_iovlen = count;
    const ssize_t n = ::recvmsg(socket_.fd_, &message, 0);
    const int error = errno;
    if (n > 0) {
      sink.commitWrite(static_cast<size_t>(n));
      return n;
    }
    sink.commitWrite(0);
    if (socket_.isCanceled()) {
      throw InterruptedIOException("Canceled");
    }
    if (n == 0) {
      return -1;
    }
    if (error == EINTR) {
      continue;
    }
    if (error == EAGAIN || error == EWOULDBLOCK) {
      if (!limit) {
        limit = waitLimit(timeout_);
      }
      socket_.await(Operation::kRead, limit->until, limit->timeout);
      continue;
    }
    socket_.throwErrno(error);
  }
}

void Socket::SocketSink::write(Buffer& source, int64_t byteCount) {
  if (byteCount < 0 || byteCount > source.size()) {
    throw std::invalid_argument("Socket write: byteCount " + std::to_string(byteCount) +
                                " out of range [0, " + std::to_string(source.size()) + "]");
  }
  socket_.checkOpen();
  if (socket_.outputShutdown_) {
    throw IOException("Socket output is shutdown");
  }

  // Each wait gets the full write timeout again once the peer has taken some bytes: the write
  // fails only when the peer stops accepting them. The deadline, if any, stays fixed.
  std::optional<WaitLimit> limit;
  while (byteCount > 0) {
    iovec iov[kMaxIovecs];
    size_t count = 0;
    int64_t remaining = byteCount;
    for (size_t i = 0; i < source.segmentCount() && count < kMaxIovecs && remaining > 0; ++i) {
      std::span<const std::byte> segment = source.readableSegment(i);
      const size_t length = std::min(segment.size(), static_cast<size_t>(remaining));
      // sendmsg() takes non-const iovecs but only reads them.
      iov[count].iov_base = const_cast<std::byte*>(segment.data());
      iov[count].iov_len = length;
      remaining -= static_cast<int64_t>(length);
      ++count;
    }
    msghdr message{};
    message.msg_iov = iov;
    message.msg_iovlen = count;
    const ssize_t n = ::sendmsg(socket_.fd_, &message, kSendFlags);
    const int error = errno;
    if (n >= 0) {
      source.skip(n);
      byteCount -= n;
      limit.reset();
      continue;
    }
    if (socket_.isCanceled()) {
      throw InterruptedIOException("Canceled");
    }
    if (error == EINTR) {
      continue;
    }
    if (error == EAGAIN || error == EWOULDBLOCK) {
      if (!limit) {
        limit = waitLimit(timeout_);
      }
      socket_.await(Operation::kWrite, limit->until, limit->timeout);
      continue;
    }
    socket_.throwWriteErrno(error);
  }
  socket_.readAfterWrite_.store(true, std::memory_order_relaxed);
}

void Socket::SocketSink::flush() {
  // Every write() already handed its bytes to the kernel; nothing is held here.
}

void Socket::awaitReady(Operation operation, const Timeout& timeout) const {
  checkOpen();
  const WaitLimit limit = waitLimit(timeout);
  await(operation, limit.until, limit.timeout);
}

void Socket::await(Operation operation, std::optional<Timeout::Clock::time_point> until,
                   std::chrono::nanoseconds timeout) const {
  const short events = operation == Operation::kRead ? POLLIN : POLLOUT;
  pollfd fds[2] = {{fd_, events, 0}, {wakeup_.fd(), POLLIN, 0}};
  while (true) {
    if (isCanceled()) {
      throw InterruptedIOException("Canceled");
    }
    const auto now = Timeout::Clock::now();
    if (until && *until <= now) {
      throw timeoutException(operationName(operation), timeout,
                             remote_ ? remote_->describe() : std::string("?"));
    }
    // On a fiber (an enqueued call) the reactor's epoll watches instead, and no thread waits.
    // Then a poll() that does not wait says what the wake-up was.
    int ready;
    if (Fiber::parkable() != nullptr &&
        FiberReactor::instance().awaitFd(fd_, events, wakeup_.fd(), until)) {
      ready = ::poll(fds, 2, 0);
    } else {
      BlockingScope blocking;  // A fiber that cannot park holds its carrier: another may run.
      ready = ::poll(fds, 2, Timeout::pollTimeoutMillis(until, now));
    }
    if (ready < 0) {
      if (errno == EINTR) {
        continue;
      }
      const int error = errno;
      throw IOException("poll() failed: " + errorMessage(error));
    }
    if (isCanceled()) {
      throw InterruptedIOException("Canceled");
    }
    // Readable, writable, hung up or failed: the next system call says which.
    if (ready > 0 && fds[0].revents != 0) {
      return;
    }
  }
}

void Socket::checkOpen() const {
  if (closed_) {
    throw IOException("Socket closed");
  }
  if (isCanceled()) {
    throw InterruptedIOException("Canceled");
  }
  if (!connected_) {
    throw std::logic_error("Socket is not connected");
  }
}

void Socket::throwErrno(int error) const {
  const std::string where = remote_ ? remote_->describe() : std::string("?");
  throw IOException(errorMessage(error) + ": " + where);
}

void Socket::throwWriteErrno(int error) const {
  const std::string where = remote_ ? remote_->describe() : std::string("?");
  throw SocketWriteException(errorMessage(error) + ": " + where, error);
}

void Socket::cancel() noexcept {
  canceled_.store(true, std::memory_order_release);
  std::lock_guard<std::mutex> lock(fdLock_);
  if (closed_) {
    return;
  }
  // shutdown() makes the peer see the connection end and wakes most waits by itself (it even
  // aborts a connect in progress on Linux); the wakeup descriptor covers every other case.
  if (fd_ >= 0) {
    ::shutdown(fd_, SHUT_RDWR);
  }
  wakeup_.signal();
}

void Socket::close() noexcept {
  std::lock_guard<std::mutex> lock(fdLock_);
  if (closed_) {
    return;
  }
  closed_ = true;
  if (fd_ >= 0) {
    ::close(fd_);
  }
  fd_ = -1;
  wakeup_.close();
}

bool Socket::isClosed() const noexcept {
  std::lock_guard<std::mutex> lock(fdLock_);
  return closed_;
}

bool Socket::isHealthy(bool doExtensiveChecks) const {
  if (isClosed() || !connected_ || isCanceled() || inputShutdown_ || outputShutdown_) {
    return false;
  }
  if (!doExtensiveChecks) {
    return true;
  }
  // A peer that closed leaves EOF (0) or an error (a reset) to read; one that is quiet leaves
  // nothing (EAGAIN). Bytes waiting are not our concern here: the codec decides about those.
  char byte;
  const ssize_t n = ::recv(fd_, &byte, 1, MSG_PEEK | MSG_DONTWAIT);
  if (n > 0) {
    return true;
  }
  if (n == 0) {
    return false;
  }
  return errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR;
}

void Socket::shutdownOutput() {
  checkOpen();
  if (outputShutdown_) {
    return;
  }
  if (::shutdown(fd_, SHUT_WR) != 0) {
    throwErrno(errno);
  }
  outputShutdown_ = true;
}

void Socket::shutdownInput() {
  checkOpen();
  if (inputShutdown_) {
    return;
  }
  if (::shutdown(fd_, SHUT_RD) != 0) {
    throwErrno(errno);
  }
  inputShutdown_ = true;
}

InetSocketAddress Socket::localAddress() const {
  if (closed_) {
    throw IOException("Socket closed");
  }
  if (fd_ < 0) {
    throw std::logic_error("Socket is not connected");
  }
  sockaddr_storage local{};
  socklen_t length = sizeof(local);
  if (getsockname(fd_, reinterpret_cast<sockaddr*>(&local), &length) != 0) {
    const int error = errno;
    throw IOException("getsockname() failed: " + errorMessage(error));
  }
  return fromSockaddr(local, length);
}

const InetSocketAddress& Socket::remoteAddress() const {
  if (!connected_) {
    throw std::logic_error("Socket is not connected");
  }
  return *remote_;
}

}  // namespace tern::internal
