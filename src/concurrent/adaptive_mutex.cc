// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#include "concurrent/adaptive_mutex.h"

#include <pthread.h>

namespace tern::internal {

AdaptiveMutex::AdaptiveMutex() {
  // libstdc++'s std::mutex is a pthread mutex made with the default attributes; made again with
  // the adaptive type, it behaves the same except that lock() spins before it sleeps. No thread
  // can use it yet.
  pthread_mutexattr_t attributes;
  if (pthread_mutexattr_init(&attributes) != 0) return;  // Keeps the default type.
  if (pthread_mutexattr_settype(&attributes, PTHREAD_MUTEX_ADAPTIVE_NP) == 0) {
    pthread_mutex_t* handle = native().native_handle();
    pthread_mutex_destroy(handle);
    pthread_mutex_init(handle, &attributes);
  }
  pthread_mutexattr_destroy(&attributes);
}

}  // namespace tern::internal
