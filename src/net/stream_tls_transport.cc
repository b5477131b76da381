// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#include "net/stream_tls_transport.h"

#include <algorithm>
#include <chrono>
#include <utility>

#include "tern/exceptions.h"

namespace tern::internal {

StreamTlsTransport::StreamTlsTransport(Source& source, Sink& sink, const TlsTransport& outer,
                                       std::string peerName)
    : source_(source), sink_(sink), outer_(outer), peerName_(std::move(peerName)) {}

const BIO_METHOD* StreamTlsTransport::bioMethod() {
  static BIO_METHOD* method = [] {
    BIO_METHOD* made = BIO_meth_new(BIO_get_new_index() | BIO_TYPE_SOURCE_SINK, "tern stream");
    BIO_meth_set_write_ex(made, bioWrite);
    BIO_meth_set_read_ex(made, bioRead);
    BIO_meth_set_ctrl(made, bioCtrl);
    BIO_meth_set_create(made, [](BIO* bio) {
      BIO_set_init(bio, 1);
      return 1;
    });
    return made;
  }();
  return method;
}

BIO* StreamTlsTransport::newBio() {
  BIO* bio = BIO_new(bioMethod());
  if (bio != nullptr) BIO_set_data(bio, this);
  return bio;
}

int StreamTlsTransport::bioWrite(BIO* bio, const char* data, size_t length, size_t* written) {
  auto* self = static_cast<StreamTlsTransport*>(BIO_get_data(bio));
  BIO_clear_retry_flags(bio);
  std::lock_guard lock(self->bufferMutex_);
  static_cast<BufferedSink&>(self->outbound_).write(data, length);
  *written = length;
  return 1;
}

int StreamTlsTransport::bioRead(BIO* bio, char* data, size_t length, size_t* read) {
  auto* self = static_cast<StreamTlsTransport*>(BIO_get_data(bio));
  BIO_clear_retry_flags(bio);
  std::lock_guard lock(self->bufferMutex_);
  if (self->inbound_.size() == 0) {
    if (!self->sourceEnded_) BIO_set_retry_read(bio);  // awaitReady() reads more.
    *read = 0;
    return 0;
  }
  const size_t n = std::min(length, static_cast<size_t>(self->inbound_.size()));
  size_t copied = 0;
  for (size_t i = 0; copied < n; ++i) {
    std::span<const std::byte> segment = self->inbound_.readableSegment(i);
    const size_t take = std::min(segment.size(), n - copied);
    std::copy_n(reinterpret_cast<const char*>(segment.data()), take, data + copied);
    copied += take;
  }
  self->inbound_.skip(static_cast<int64_t>(n));
  *read = n;
  return 1;
}

long StreamTlsTransport::bioCtrl(BIO* /*bio*/, int command, long /*number*/, void* /*pointer*/) {
  // OpenSSL flushes after writing its records; flush() sends them once the call returns.
  return command == BIO_CTRL_FLUSH ? 1 : 0;
}

void StreamTlsTransport::awaitReady(bool forWrite, const Timeout& timeout) const {
  if (forWrite) {
    flushPending();  // The memory BIO never refuses a write; this is what OpenSSL waits on.
    return;
  }
  std::lock_guard readLock(readMutex_);
  {
    std::lock_guard lock(bufferMutex_);
    if (inbound_.size() > 0 || sourceEnded_) return;  // Another reader brought bytes meanwhile.
  }
  // The wait this read may take: what is left of `timeout` (zero: none).
  const auto now = Timeout::Clock::now();
  std::optional<Timeout::Clock::time_point> until = timeout.waitDeadline(now);
  std::chrono::nanoseconds limit(0);
  if (until) limit = std::max(std::chrono::nanoseconds(1), *until - now);
  source_.timeout().timeout(limit);
  Buffer read;
  const int64_t n = source_.read(read, 16 * 1024);
  std::lock_guard lock(bufferMutex_);
  if (n == -1) {
    sourceEnded_ = true;
  } else {
    inbound_.write(read, n);
  }
}

void StreamTlsTransport::flush() { flushPending(); }

void StreamTlsTransport::flushPending() const {
  std::lock_guard writeLock(writeMutex_);
  Buffer pending;
  {
    std::lock_guard lock(bufferMutex_);
    if (outbound_.size() == 0) return;
    pending.write(outbound_, outbound_.size());
  }
  sink_.write(pending, pending.size());
  sink_.flush();
}

}  // namespace tern::internal
