// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "tern/exceptions.h"
#include "tern/source.h"

namespace tern::internal {

// A body's content coding could not be decoded: the encoded bytes are corrupt or truncated, go
// on after the end of the coded stream, or expand past the decompression ratio limit. The message
// is the decoder's ("br decoding failed: ...", "CRC: actual ... != expected ...", "zstd stream
// truncated"), or the limit's. Failures of the connection under the body are not this: they
// keep their own type, so a caller (the tool's curl exit codes) can tell the two apart.
class ContentDecodingException final : public IOException {
 public:
  using IOException::IOException;
};

// Below this much decoded output the ratio limit never trips: a small body cannot exhaust
// memory, however well it compressed (a 200-byte JSON of zeros can beat 1000:1).
inline constexpr int64_t kDecompressionRatioFloor = 1024 * 1024;

// True if `coding` (a Content-Encoding token, case-insensitive) is one decodingSource() decodes:
// gzip, deflate, br or zstd (RFC 9110 §8.4.1, RFC 7932, RFC 8878).
bool isDecodableContentCoding(std::string_view coding);

// A Source of the decoded bytes of `raw`, an encoded body whose codings (each decodable) are
// listed in the order they were applied, as Content-Encoding lists them (RFC 9110 §8.4): the last
// is decoded first. Streams with bounded memory. An empty `raw` decodes to nothing, as curl and
// browsers take an empty body with a Content-Encoding.
//
// `maxRatio` bounds decoded bytes per encoded byte read: once the output is at least
// kDecompressionRatioFloor and more than `maxRatio` times the input read so far, reading throws
// ContentDecodingException("decompressed body over 1000× its compressed size (16 MiB from 16 KiB):
// refusing a possible decompression bomb"). 0: no limit.
//
// Failures of the decoders throw ContentDecodingException with the decoder's message; failures of
// `raw` itself pass through unchanged. Closing the result closes `raw`.
std::unique_ptr<Source> decodingSource(std::unique_ptr<Source> raw,
                                       const std::vector<std::string>& codings, double maxRatio);

// "16 MiB", "1.5 KiB", "512 B": a byte count for messages.
std::string formatByteCount(int64_t bytes);

}  // namespace tern::internal
