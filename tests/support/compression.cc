// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#include "support/compression.h"

#include <brotli/encode.h>
#include <zlib.h>
#include <zstd.h>

#include <random>
#include <stdexcept>

namespace tern::testing {
namespace {

std::string zlibDeflate(std::string_view data, int windowBits) {
  z_stream z{};
  if (deflateInit2(&z, Z_BEST_COMPRESSION, Z_DEFLATED, windowBits, 8, Z_DEFAULT_STRATEGY) != Z_OK) {
    throw std::runtime_error("deflateInit2");
  }
  std::string out(deflateBound(&z, data.size()) + 64, '\0');
  z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(data.data()));
  z.avail_in = static_cast<uInt>(data.size());
  z.next_out = reinterpret_cast<Bytef*>(out.data());
  z.avail_out = static_cast<uInt>(out.size());
  int result = deflate(&z, Z_FINISH);
  out.resize(z.total_out);
  deflateEnd(&z);
  if (result != Z_STREAM_END) throw std::runtime_error("deflate");
  return out;
}

}  // namespace

std::string brotliCompress(std::string_view data, int quality) {
  std::string out(BrotliEncoderMaxCompressedSize(data.size()) + 16, '\0');
  size_t size = out.size();
  if (!BrotliEncoderCompress(quality, BROTLI_DEFAULT_WINDOW, BROTLI_MODE_GENERIC, data.size(),
                             reinterpret_cast<const uint8_t*>(data.data()), &size,
                             reinterpret_cast<uint8_t*>(out.data()))) {
    throw std::runtime_error("BrotliEncoderCompress");
  }
  out.resize(size);
  return out;
}

std::string zstdCompress(std::string_view data, int level, int windowLog) {
  ZSTD_CCtx* context = ZSTD_createCCtx();
  ZSTD_CCtx_setParameter(context, ZSTD_c_compressionLevel, level);
  ZSTD_CCtx_setParameter(context, ZSTD_c_checksumFlag, 1);
  if (windowLog != 0) ZSTD_CCtx_setParameter(context, ZSTD_c_windowLog, windowLog);
  std::string out(ZSTD_compressBound(data.size()), '\0');
  size_t size = ZSTD_compress2(context, out.data(), out.size(), data.data(), data.size());
  ZSTD_freeCCtx(context);
  if (ZSTD_isError(size)) throw std::runtime_error(ZSTD_getErrorName(size));
  out.resize(size);
  return out;
}

std::string gzipCompress(std::string_view data) { return zlibDeflate(data, 16 + MAX_WBITS); }
std::string zlibCompress(std::string_view data) { return zlibDeflate(data, MAX_WBITS); }
std::string rawDeflate(std::string_view data) { return zlibDeflate(data, -MAX_WBITS); }

std::string compressibleText(size_t size, unsigned seed) {
  static constexpr std::string_view kWords[] = {"alpha ", "bravo ",   "charlie ", "delta ",
                                                "echo ",  "foxtrot ", "golf ",    "hotel "};
  std::mt19937 random(seed);
  std::string text;
  text.reserve(size + 16);
  while (text.size() < size) {
    text += kWords[random() % std::size(kWords)];
    if (random() % 4 == 0) text += static_cast<char>('0' + random() % 10);
  }
  text.resize(size);
  return text;
}

std::string randomBytes(size_t size, unsigned seed) {
  std::mt19937 random(seed);
  std::string bytes(size, '\0');
  for (char& c : bytes) c = static_cast<char>(random());
  return bytes;
}

}  // namespace tern::testing
