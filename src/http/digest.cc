// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#include "http/digest.h"

#include <openssl/evp.h>
#include <openssl/rand.h>

#include <vector>

#include "io/ascii.h"
#include "tern/exceptions.h"

namespace tern::internal {
namespace {

std::string hex(const unsigned char* bytes, size_t size) {
  static constexpr char kDigits[] = "0123456789abcdef";
  std::string result;
  result.reserve(size * 2);
  for (size_t i = 0; i < size; ++i) {
    result += kDigits[bytes[i] >> 4];
    result += kDigits[bytes[i] & 0xf];
  }
  return result;
}

const EVP_MD* messageDigest(DigestAlgorithm algorithm) {
  switch (algorithm) {
    case DigestAlgorithm::kMd5:
      return EVP_md5();
    case DigestAlgorithm::kSha256:
      return EVP_sha256();
    case DigestAlgorithm::kSha512_256:
      return EVP_sha512_256();
  }
  return EVP_md5();
}

}  // namespace

std::optional<DigestAlgorithmName> parseDigestAlgorithm(std::string_view name) {
  DigestAlgorithmName result;
  constexpr std::string_view kSess = "-sess";
  if (name.size() > kSess.size() &&
      equalsIgnoreCase(name.substr(name.size() - kSess.size()), kSess)) {
    result.session = true;
    name.remove_suffix(kSess.size());
  }
  if (equalsIgnoreCase(name, "MD5")) {
    result.algorithm = DigestAlgorithm::kMd5;
  } else if (equalsIgnoreCase(name, "SHA-256")) {
    result.algorithm = DigestAlgorithm::kSha256;
  } else if (equalsIgnoreCase(name, "SHA-512-256")) {
    result.algorithm = DigestAlgorithm::kSha512_256;
  } else {
    return std::nullopt;
  }
  return result;
}

std::string digestAlgorithmName(DigestAlgorithmName name) {
  std::string result = name.algorithm == DigestAlgorithm::kMd5      ? "MD5"
                       : name.algorithm == DigestAlgorithm::kSha256 ? "SHA-256"
                                                                    : "SHA-512-256";
  if (name.session) result += "-sess";
  return result;
}

std::string digestHash(DigestAlgorithm algorithm, std::string_view data) {
  unsigned char out[EVP_MAX_MD_SIZE];
  unsigned int size = 0;
  if (EVP_Digest(data.data(), data.size(), out, &size, messageDigest(algorithm), nullptr) != 1) {
    throw IOException("Digest authentication: OpenSSL could not hash with " +
                      digestAlgorithmName({algorithm, false}));
  }
  return hex(out, size);
}

std::string digestResponse(const DigestInput& in) {
  DigestAlgorithm h = in.algorithm.algorithm;
  std::string ha1 = digestHash(h, in.username + ":" + in.realm + ":" + in.password);
  if (in.algorithm.session) ha1 = digestHash(h, ha1 + ":" + in.nonce + ":" + in.cnonce);
  std::string ha2 = digestHash(h, in.method + ":" + in.uri);
  if (in.qop.empty()) return digestHash(h, ha1 + ":" + in.nonce + ":" + ha2);
  return digestHash(
      h, ha1 + ":" + in.nonce + ":" + in.nc + ":" + in.cnonce + ":" + in.qop + ":" + ha2);
}

std::string digestUserhash(DigestAlgorithm algorithm, std::string_view username,
                           std::string_view realm) {
  return digestHash(algorithm, std::string(username) + ":" + std::string(realm));
}

std::string quoteDigestValue(std::string_view value) {
  std::string result = "\"";
  for (char c : value) {
    if (c == '"' || c == '\\') result += '\\';
    result += c;
  }
  result += '"';
  return result;
}

std::string randomDigestCnonce(size_t length) {
  std::vector<unsigned char> bytes(length);
  if (RAND_bytes(bytes.data(), static_cast<int>(bytes.size())) != 1) {
    throw IOException("Digest authentication: OpenSSL has no random bytes for a cnonce");
  }
  return hex(bytes.data(), bytes.size());
}

}  // namespace tern::internal
