// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#include "ws/web_socket_protocol.h"

#include <openssl/rand.h>
#include <openssl/sha.h>

#include <array>
#include <stdexcept>
#include <string>

#include "io/base64.h"

namespace tern::internal::ws {

std::string acceptHeader(std::string_view key) {
  std::string input(key);
  input += kAcceptMagic;
  std::array<uint8_t, SHA_DIGEST_LENGTH> digest{};
  SHA1(reinterpret_cast<const unsigned char*>(input.data()), input.size(), digest.data());
  return encodeBase64(digest);
}

std::string newKey() {
  std::array<uint8_t, 16> nonce{};
  if (RAND_bytes(nonce.data(), static_cast<int>(nonce.size())) != 1) {
    throw std::runtime_error("RAND_bytes failed");
  }
  return encodeBase64(nonce);
}

std::optional<std::string> closeCodeExceptionMessage(int code) {
  // §7.4.2: below 1000 is unused; 5000 and up is not defined. 1004-1006 and 1015 are reserved
  // for reporting and never sent (§7.4.1); 1016-2999 are for future protocol use (IANA).
  if (code < 1000 || code >= 5000) {
    return "Code must be in range [1000,5000): " + std::to_string(code);
  }
  if ((code >= 1004 && code <= 1006) || (code >= 1015 && code <= 2999)) {
    return "Code " + std::to_string(code) + " is reserved and may not be used.";
  }
  return std::nullopt;
}

size_t toggleMask(std::span<std::byte> bytes, std::span<const std::byte, 4> key, size_t keyOffset) {
  size_t k = keyOffset % 4;
  for (std::byte& b : bytes) {
    b ^= key[k];
    k = (k + 1) % 4;
  }
  return k;
}

}  // namespace tern::internal::ws
