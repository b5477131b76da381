// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#include "net/tls_session_cache.h"

#include <memory>

namespace tern::internal {
namespace {

void freeKey(void*, void* pointer, CRYPTO_EX_DATA*, int, long, void*) {
  delete static_cast<std::string*>(pointer);  // NOLINT: ex_data's owner frees it here.
}

// The SSL's "host:port".
int keyIndex() {
  static const int index = SSL_get_ex_new_index(0, nullptr, nullptr, nullptr, freeKey);
  return index;
}

// The SSL_CTX's cache.
int cacheIndex() {
  static const int index = SSL_CTX_get_ex_new_index(0, nullptr, nullptr, nullptr, nullptr);
  return index;
}

}  // namespace

void TlsSessionCache::install(SSL_CTX* context) {
  SSL_CTX_set_ex_data(context, cacheIndex(), this);
  // The client side only, and not OpenSSL's internal store (keyed by session ID, not by host).
  SSL_CTX_set_session_cache_mode(context, SSL_SESS_CACHE_CLIENT | SSL_SESS_CACHE_NO_INTERNAL_STORE);
  SSL_CTX_sess_set_new_cb(context, &TlsSessionCache::onNewSession);
}

void TlsSessionCache::prepare(SSL* ssl, const std::string& key) {
  auto owned = std::make_unique<std::string>(key);
  if (SSL_set_ex_data(ssl, keyIndex(), owned.get()) != 1) return;  // No memory: no resumption.
  owned.release();  // NOLINT: owned by the SSL's ex_data now, freed by freeKey.

  UniqueSslSession session;
  {
    std::lock_guard lock(mutex_);
    for (auto it = entries_.begin(); it != entries_.end(); ++it) {
      if (it->first != key) continue;
      if (SSL_SESSION_get_protocol_version(it->second.get()) == TLS1_3_VERSION) {
        session = std::move(it->second);  // Single use.
        entries_.erase(it);
      } else {
        SSL_SESSION_up_ref(it->second.get());
        session.reset(it->second.get());
      }
      break;
    }
  }
  if (session && SSL_SESSION_is_resumable(session.get())) {
    SSL_set_session(ssl, session.get());  // Takes its own reference.
  }
}

void TlsSessionCache::remove(const std::string& key) {
  std::lock_guard lock(mutex_);
  entries_.remove_if([&](const auto& entry) { return entry.first == key; });
}

size_t TlsSessionCache::size() const {
  std::lock_guard lock(mutex_);
  return entries_.size();
}

void TlsSessionCache::put(const std::string& key, UniqueSslSession session) {
  std::lock_guard lock(mutex_);
  entries_.remove_if([&](const auto& entry) { return entry.first == key; });
  entries_.emplace_front(key, std::move(session));
  while (entries_.size() > maxEntries_) entries_.pop_back();
}

int TlsSessionCache::onNewSession(SSL* ssl, SSL_SESSION* session) {
  auto* cache =
      static_cast<TlsSessionCache*>(SSL_CTX_get_ex_data(SSL_get_SSL_CTX(ssl), cacheIndex()));
  auto* key = static_cast<std::string*>(SSL_get_ex_data(ssl, keyIndex()));
  if (cache == nullptr || key == nullptr) return 0;  // Not ours to keep; OpenSSL frees it.
  cache->put(*key, UniqueSslSession(session));
  return 1;  // We hold the reference OpenSSL passed.
}

}  // namespace tern::internal
