// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#include "tern/tls/key_pair.h"

#include <openssl/err.h>
#include <openssl/rsa.h>

#include <limits>
#include <stdexcept>

#include "tls/openssl_access.h"
#include "tls/openssl_util.h"
#include "tls/pem.h"

namespace tern::tls {

struct KeyPair::Impl {
  internal::UniqueEvpPkey key;
};

namespace {

using internal::UniqueEvpPkey;

// Parses `der` as the private key of a PEM block labelled `label`, or throws naming what failed.
UniqueEvpPkey parsePrivateKeyDer(std::string_view label, std::span<const uint8_t> der) {
  std::string what = "failed to decode private key (" + std::string(label) + ")";
  if (der.empty() || der.size() > static_cast<size_t>(std::numeric_limits<long>::max())) {
    throw std::invalid_argument(what + ": no bytes");
  }
  const unsigned char* in = der.data();
  long length = static_cast<long>(der.size());
  UniqueEvpPkey key;
  if (label == "PRIVATE KEY") {
    internal::UniquePkcs8 pkcs8(d2i_PKCS8_PRIV_KEY_INFO(nullptr, &in, length));
    if (pkcs8 != nullptr) key.reset(EVP_PKCS82PKEY(pkcs8.get()));
  } else if (label == "RSA PRIVATE KEY") {
    key.reset(d2i_PrivateKey(EVP_PKEY_RSA, nullptr, &in, length));
  } else if (label == "EC PRIVATE KEY") {
    key.reset(d2i_PrivateKey(EVP_PKEY_EC, nullptr, &in, length));
  } else {
    throw std::invalid_argument("unexpected private key type: " + std::string(label));
  }
  if (key == nullptr) throw std::invalid_argument(internal::withOpenSslErrors(what));
  if (in != der.data() + der.size()) {
    throw std::invalid_argument(what + ": trailing bytes after the key");
  }
  return key;
}

bool isPrivateKeyLabel(std::string_view label) {
  return label == "PRIVATE KEY" || label == "RSA PRIVATE KEY" || label == "EC PRIVATE KEY";
}

}  // namespace

KeyPair KeyPair::generateEcdsa256() {
  UniqueEvpPkey key(EVP_EC_gen("P-256"));
  internal::checkOpenSsl(key != nullptr, "EC P-256 key generation failed");
  return internal::fromEvpPkey(key.get());
}

KeyPair KeyPair::generateRsa2048() {
  UniqueEvpPkey key(EVP_RSA_gen(2048));
  internal::checkOpenSsl(key != nullptr, "RSA 2048 key generation failed");
  return internal::fromEvpPkey(key.get());
}

KeyPair KeyPair::decodePem(std::string_view pem) {
  std::vector<internal::PemBlock> blocks;
  try {
    blocks = internal::decodePemBlocks(pem);
  } catch (const std::invalid_argument& e) {
    throw std::invalid_argument(std::string("failed to decode private key: ") + e.what());
  }
  const internal::PemBlock* keyBlock = nullptr;
  for (const internal::PemBlock& block : blocks) {
    if (block.label == "ENCRYPTED PRIVATE KEY") {
      throw std::invalid_argument(
          "failed to decode private key: encrypted keys (ENCRYPTED PRIVATE KEY) are not "
          "supported; decrypt it first (openssl pkcs8)");
    }
    if (!isPrivateKeyLabel(block.label)) continue;
    if (keyBlock != nullptr) {
      throw std::invalid_argument("failed to decode private key: more than one private key");
    }
    keyBlock = &block;
  }
  if (keyBlock == nullptr) {
    throw std::invalid_argument(
        "failed to decode private key: no PRIVATE KEY, RSA PRIVATE KEY or EC PRIVATE KEY PEM "
        "block");
  }
  UniqueEvpPkey key = parsePrivateKeyDer(keyBlock->label, keyBlock->der);
  return internal::fromEvpPkey(key.get());
}

std::vector<uint8_t> KeyPair::privateKeyPkcs8Der() const {
  internal::UniquePkcs8 pkcs8(EVP_PKEY2PKCS8(impl_->key.get()));
  internal::checkOpenSsl(pkcs8 != nullptr, "PKCS #8 encoding failed");
  return internal::toDer(pkcs8.get(), i2d_PKCS8_PRIV_KEY_INFO);
}

std::string KeyPair::privateKeyPkcs8Pem() const {
  std::vector<uint8_t> der = privateKeyPkcs8Der();
  std::string result = internal::encodePem("PRIVATE KEY", der);
  OPENSSL_cleanse(der.data(), der.size());
  return result;
}

std::string KeyPair::privateKeyPkcs1Pem() const {
  if (EVP_PKEY_get_base_id(impl_->key.get()) != EVP_PKEY_RSA) {
    throw std::logic_error("PKCS1 only supports RSA keys");
  }
  // For an RSA key, i2d_PrivateKey writes the type-specific RSAPrivateKey (RFC 8017 §A.1.2).
  std::vector<uint8_t> der =
      internal::toDer(static_cast<const EVP_PKEY*>(impl_->key.get()), i2d_PrivateKey);
  std::string result = internal::encodePem("RSA PRIVATE KEY", der);
  OPENSSL_cleanse(der.data(), der.size());
  return result;
}

std::vector<uint8_t> KeyPair::publicKeyDer() const {
  return internal::toDer(static_cast<const EVP_PKEY*>(impl_->key.get()), i2d_PUBKEY);
}

std::string KeyPair::algorithm() const { return internal::keyAlgorithmName(impl_->key.get()); }

bool KeyPair::operator==(const KeyPair& other) const noexcept {
  if (impl_ == other.impl_) return true;
  bool equal = EVP_PKEY_eq(impl_->key.get(), other.impl_->key.get()) == 1;
  ERR_clear_error();
  return equal;
}

}  // namespace tern::tls

namespace tern::internal {

EVP_PKEY* OpenSslAccess::evpPkey(const tls::KeyPair& keyPair) noexcept {
  return keyPair.impl_->key.get();
}

tls::KeyPair OpenSslAccess::keyPair(EVP_PKEY* key) {
  if (key == nullptr) throw std::invalid_argument("fromEvpPkey: null EVP_PKEY");
  // Only a key with its private half can be converted to PKCS #8.
  UniquePkcs8 pkcs8(EVP_PKEY2PKCS8(key));
  if (pkcs8 == nullptr) {
    ERR_clear_error();
    throw std::invalid_argument("fromEvpPkey: the key has no private key");
  }
  auto impl = std::make_shared<tls::KeyPair::Impl>();
  EVP_PKEY_up_ref(key);
  impl->key.reset(key);
  return tls::KeyPair(std::move(impl));
}

}  // namespace tern::internal
