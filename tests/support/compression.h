// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace tern::testing {

// Test fixtures made by the reference encoders themselves (libbrotlienc, libzstd, zlib), never by
// tern, so a decoder bug cannot hide behind a matching encoder bug.

// `data` as one Brotli stream (RFC 7932), at `quality` 0..11.
std::string brotliCompress(std::string_view data, int quality = 5);

// `data` as one zstd frame (RFC 8878) with its content checksum, at `level`; `windowLog` 0 is
// libzstd's choice for the level, else the frame's window log (10..31).
std::string zstdCompress(std::string_view data, int level = 3, int windowLog = 0);

// `data` as a gzip member (RFC 1952), zlib stream (RFC 1950) or raw DEFLATE (RFC 1951).
std::string gzipCompress(std::string_view data);
std::string zlibCompress(std::string_view data);
std::string rawDeflate(std::string_view data);

// `size` bytes of text that compress about 4:1 to 10:1 (words from a small vocabulary with
// random digits), deterministic for `seed`.
std::string compressibleText(size_t size, unsigned seed = 1);

// `size` random bytes (incompressible), deterministic for `seed`.
std::string randomBytes(size_t size, unsigned seed = 1);

}  // namespace tern::testing
