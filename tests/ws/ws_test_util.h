// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#pragma once

#include <zlib.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "io/hex.h"
#include "tern/buffer.h"

namespace tern::internal::wstest {

// The bytes that `hex` spells ("810548656c6c6f"; spaces ignored), case-insensitive.
inline std::string unhex(std::string_view hex) {
  std::string digits;
  for (char c : hex) {
    if (c != ' ') digits.push_back(c);  // Spaces may group the bytes.
  }
  std::string out;
  for (size_t i = 0; i + 1 < digits.size(); i += 2) {
    out.push_back(static_cast<char>(hexDigitValue(std::byte(digits[i])) * 16 +
                                    hexDigitValue(std::byte(digits[i + 1]))));
  }
  return out;
}

inline Buffer bufferOfHex(std::string_view hexBytes) {
  Buffer buffer;
  buffer.writeUtf8(unhex(hexBytes));
  return buffer;
}

inline Buffer bufferOf(std::string_view bytes) {
  Buffer buffer;
  buffer.writeUtf8(bytes);
  return buffer;
}

// Raw DEFLATE of `zeroBytes` zero bytes, made by zlib itself a megabyte at a time, flushed with
// Z_SYNC_FLUSH and with the 00 00 ff ff tail removed: a permessage-deflate message body (RFC 7692
// §7.2.1). A gigabyte of zeros comes to about a megabyte: a decompression bomb.
inline std::string deflatedZeros(int64_t zeroBytes) {
  z_stream z{};
  deflateInit2(&z, Z_DEFAULT_COMPRESSION, Z_DEFLATED, -MAX_WBITS, 8, Z_DEFAULT_STRATEGY);
  const std::string zeros(1 << 20, '\0');
  std::string out;
  std::string chunk(1 << 16, '\0');
  for (int64_t left = zeroBytes; left >= 0;) {
    const int64_t n = std::min<int64_t>(left, static_cast<int64_t>(zeros.size()));
    left -= n;
    const int flush = left == 0 ? Z_SYNC_FLUSH : Z_NO_FLUSH;
    z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(zeros.data()));
    z.avail_in = static_cast<uInt>(n);
    do {
      z.next_out = reinterpret_cast<Bytef*>(chunk.data());
      z.avail_out = static_cast<uInt>(chunk.size());
      deflate(&z, flush);
      out.append(chunk.data(), chunk.size() - z.avail_out);
    } while (z.avail_out == 0 || z.avail_in != 0);
    if (left == 0) break;
  }
  deflateEnd(&z);
  out.resize(out.size() - 4);  // The empty stored block's LEN and NLEN.
  return out;
}

}  // namespace tern::internal::wstest
