// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#include "net/socket_bio.h"

#include <sys/socket.h>

#include <cerrno>
#include <climits>
#include <new>

namespace tern::internal {
namespace {

#if defined(MSG_NOSIGNAL)
constexpr int kSendFlags = MSG_NOSIGNAL;
#else
constexpr int kSendFlags = 0;  // Socket sets SO_NOSIGPIPE instead.
#endif

// The BIO's state, in BIO_get_data().
struct SocketBioState {
  int fd = -1;
  int lastError = 0;
  bool eof = false;
};

SocketBioState* state(BIO* bio) { return static_cast<SocketBioState*>(BIO_get_data(bio)); }

bool isRetriable(int error) { return error == EAGAIN || error == EWOULDBLOCK || error == EINTR; }

int socketBioWrite(BIO* bio, const char* data, int length) {
  SocketBioState* s = state(bio);
  BIO_clear_retry_flags(bio);
  if (length <= 0) return 0;
  const ssize_t n = ::send(s->fd, data, static_cast<size_t>(length), kSendFlags);
  if (n >= 0) return static_cast<int>(n);
  s->lastError = errno;
  if (isRetriable(s->lastError)) BIO_set_retry_write(bio);
  return -1;
}

int socketBioRead(BIO* bio, char* data, int length) {
  SocketBioState* s = state(bio);
  BIO_clear_retry_flags(bio);
  if (length <= 0) return 0;
  const ssize_t n = ::recv(s->fd, data, static_cast<size_t>(length), 0);
  if (n > 0) return static_cast<int>(n);
  if (n == 0) {
    s->eof = true;
    return 0;
  }
  s->lastError = errno;
  if (isRetriable(s->lastError)) BIO_set_retry_read(bio);
  return -1;
}

int socketBioPuts(BIO* bio, const char* text) {
  size_t length = 0;
  while (text[length] != '\0' && length < INT_MAX) ++length;
  return socketBioWrite(bio, text, static_cast<int>(length));
}

long socketBioCtrl(BIO* bio, int command, long, void* pointer) {
  SocketBioState* s = state(bio);
  switch (command) {
    case BIO_CTRL_FLUSH:
      return 1;  // Every write went straight to the kernel.
    case BIO_CTRL_EOF:
      return s->eof ? 1 : 0;
    case BIO_C_GET_FD:
      if (pointer != nullptr) *static_cast<int*>(pointer) = s->fd;
      return s->fd;
    default:
      return 0;
  }
}

int socketBioCreate(BIO* bio) {
  BIO_set_data(bio, new (std::nothrow) SocketBioState());  // NOLINT: owned by the BIO.
  BIO_set_init(bio, BIO_get_data(bio) != nullptr ? 1 : 0);
  return BIO_get_data(bio) != nullptr ? 1 : 0;
}

int socketBioDestroy(BIO* bio) {
  delete state(bio);  // NOLINT: the BIO's C API owns its state; this is its one release.
  BIO_set_data(bio, nullptr);
  return 1;
}

// This BIO's type number, so its state is only ever read from BIOs of this kind.
int socketBioType() {
  static const int type = BIO_get_new_index() | BIO_TYPE_SOURCE_SINK;
  return type;
}

BIO_METHOD* socketBioMethod() {
  static BIO_METHOD* method = [] {
    BIO_METHOD* m = BIO_meth_new(socketBioType(), "tern socket");
    if (m == nullptr) return m;
    BIO_meth_set_write(m, socketBioWrite);
    BIO_meth_set_read(m, socketBioRead);
    BIO_meth_set_puts(m, socketBioPuts);
    BIO_meth_set_ctrl(m, socketBioCtrl);
    BIO_meth_set_create(m, socketBioCreate);
    BIO_meth_set_destroy(m, socketBioDestroy);
    return m;
  }();
  return method;
}

}  // namespace

BIO* newSocketBio(int fd) {
  BIO_METHOD* method = socketBioMethod();
  if (method == nullptr) return nullptr;
  BIO* bio = BIO_new(method);
  if (bio == nullptr) return nullptr;
  state(bio)->fd = fd;
  return bio;
}

namespace {

SocketBioState* stateIfSocketBio(BIO* bio) {
  if (bio == nullptr || BIO_method_type(bio) != socketBioType()) return nullptr;
  return state(bio);
}

}  // namespace

int socketBioLastError(BIO* bio) {
  SocketBioState* s = stateIfSocketBio(bio);
  return s != nullptr ? s->lastError : 0;
}

void socketBioClearLastError(BIO* bio) {
  if (SocketBioState* s = stateIfSocketBio(bio)) s->lastError = 0;
}

bool socketBioSawEof(BIO* bio) {
  SocketBioState* s = stateIfSocketBio(bio);
  return s != nullptr && s->eof;
}

}  // namespace tern::internal
