// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#include "tls/openssl_util.h"

#include <openssl/err.h>
#include <openssl/objects.h>

#include <stdexcept>

namespace tern::internal {

std::string takeOpenSslErrors() {
  std::string result;
  while (unsigned long error = ERR_get_error()) {
    char text[256];
    ERR_error_string_n(error, text, sizeof(text));
    if (!result.empty()) result += "; ";
    result += text;
  }
  return result;
}

std::string withOpenSslErrors(std::string_view what) {
  std::string errors = takeOpenSslErrors();
  std::string result(what);
  if (!errors.empty()) result += ": " + errors;
  return result;
}

void checkOpenSsl(bool ok, std::string_view what) {
  if (!ok) throw std::runtime_error(withOpenSslErrors(what));
}

std::string bioContents(BIO* bio) {
  char* data = nullptr;
  long length = BIO_get_mem_data(bio, &data);
  if (length <= 0 || data == nullptr) return {};
  return std::string(data, static_cast<size_t>(length));
}

std::vector<uint8_t> sha256(std::span<const uint8_t> bytes) {
  std::vector<uint8_t> result(32);
  unsigned int length = 0;
  checkOpenSsl(
      EVP_Digest(bytes.data(), bytes.size(), result.data(), &length, EVP_sha256(), nullptr) == 1 &&
          length == result.size(),
      "SHA-256 failed");
  return result;
}

std::string keyAlgorithmName(const EVP_PKEY* key) {
  if (key == nullptr) return "unknown";
  switch (int id = EVP_PKEY_get_base_id(key)) {
    case EVP_PKEY_EC:
      return "EC";
    case EVP_PKEY_RSA:
      return "RSA";
    case EVP_PKEY_ED25519:
      return "ED25519";
    case EVP_PKEY_ED448:
      return "ED448";
    default:
      const char* name = OBJ_nid2sn(id);
      return name != nullptr ? name : "unknown";
  }
}

}  // namespace tern::internal
