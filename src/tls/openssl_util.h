// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#pragma once

#include <openssl/bio.h>
#include <openssl/evp.h>
#include <openssl/ssl.h>
#include <openssl/x509.h>
#include <openssl/x509v3.h>

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "tern/export.h"

namespace tern::internal {

// RAII owners for OpenSSL objects, so nothing leaks on the many early returns and throws.
template <auto FreeFunction>
struct OpenSslDeleter {
  template <typename T>
  void operator()(T* object) const noexcept {
    FreeFunction(object);
  }
};

using UniqueBio = std::unique_ptr<BIO, OpenSslDeleter<&BIO_free_all>>;
using UniqueEvpPkey = std::unique_ptr<EVP_PKEY, OpenSslDeleter<&EVP_PKEY_free>>;
using UniqueX509 = std::unique_ptr<X509, OpenSslDeleter<&X509_free>>;
using UniqueX509Store = std::unique_ptr<X509_STORE, OpenSslDeleter<&X509_STORE_free>>;
using UniqueX509StoreCtx = std::unique_ptr<X509_STORE_CTX, OpenSslDeleter<&X509_STORE_CTX_free>>;
using UniqueSsl = std::unique_ptr<SSL, OpenSslDeleter<&SSL_free>>;
using UniqueSslCtx = std::unique_ptr<SSL_CTX, OpenSslDeleter<&SSL_CTX_free>>;
using UniqueBignum = std::unique_ptr<BIGNUM, OpenSslDeleter<&BN_free>>;
using UniqueGeneralNames = std::unique_ptr<GENERAL_NAMES, OpenSslDeleter<&GENERAL_NAMES_free>>;
using UniquePkcs8 = std::unique_ptr<PKCS8_PRIV_KEY_INFO, OpenSslDeleter<&PKCS8_PRIV_KEY_INFO_free>>;

// Drains OpenSSL's thread-local error queue into one line ("error:0680007B:asn1 encoding
// routines::header too long; ..."), or "" if it is empty. Call it right after a failed OpenSSL
// call, so a stale error never shows up in a later message.
std::string takeOpenSslErrors();

// `what` + ": " + takeOpenSslErrors() (or just `what` when the queue is empty).
TERN_INTERNAL_API std::string withOpenSslErrors(std::string_view what);

// Throws std::runtime_error(withOpenSslErrors(what)) when `ok` is false: for calls that fail only
// when memory runs out or on a bug, never on bad input.
void checkOpenSsl(bool ok, std::string_view what);

// The bytes written to a memory BIO.
std::string bioContents(BIO* bio);

// The DER encoding of `object` by one of OpenSSL's i2d_* functions. Throws std::runtime_error if
// it cannot be encoded.
template <typename T, typename I2d>
std::vector<uint8_t> toDer(T* object, I2d i2d) {
  int length = i2d(object, nullptr);
  checkOpenSsl(length > 0, "DER encoding failed");
  std::vector<uint8_t> result(static_cast<size_t>(length));
  unsigned char* out = result.data();
  checkOpenSsl(i2d(object, &out) == length, "DER encoding failed");
  return result;
}

// SHA-256 of `bytes`.
std::vector<uint8_t> sha256(std::span<const uint8_t> bytes);

// The algorithm of `key` as Java names it: "EC", "RSA", "ED25519", "ED448", else OpenSSL's short
// name for its type, or "unknown". Null gives "unknown".
std::string keyAlgorithmName(const EVP_PKEY* key);

}  // namespace tern::internal
