// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#include "io/content_decoding.h"

#include <cmath>
#include <cstdio>
#include <stdexcept>
#include <utility>

#include "io/ascii.h"
#include "io/brotli_source.h"
#include "io/deflate_source.h"
#include "io/gzip_source.h"
#include "io/zstd_source.h"
#include "tern/buffer.h"
#include "tern/buffered_source.h"

namespace tern::internal {
namespace {

// What the decoders read and write, shared by the two ends of the pipeline.
struct DecodingCounts {
  int64_t encoded = 0;          // Bytes read from the raw body so far.
  int64_t decoded = 0;          // Bytes the last decoder produced so far.
  bool upstreamFailed = false;  // The raw body's own read threw: not a decoding failure.
};

// The bottom of the pipeline: counts the raw body's bytes and marks its own failures.
class EncodedSide final : public Source {
 public:
  EncodedSide(std::unique_ptr<Source> raw, std::shared_ptr<DecodingCounts> counts)
      : raw_(std::move(raw)), counts_(std::move(counts)) {}

  int64_t read(Buffer& sink, int64_t byteCount) override {
    int64_t read;
    try {
      read = raw_->read(sink, byteCount);
    } catch (...) {
      counts_->upstreamFailed = true;
      throw;
    }
    if (read > 0) counts_->encoded += read;
    return read;
  }
  Timeout& timeout() override { return raw_->timeout(); }
  void close() override { raw_->close(); }

 private:
  std::unique_ptr<Source> raw_;
  std::shared_ptr<DecodingCounts> counts_;
};

// The top of the pipeline: the ratio limit, and decoders' failures typed as such.
class DecodedSide final : public Source {
 public:
  DecodedSide(BufferedSource& encoded, std::unique_ptr<Source> decoder,
              std::shared_ptr<DecodingCounts> counts, double maxRatio)
      : encoded_(encoded),
        decoder_(std::move(decoder)),
        counts_(std::move(counts)),
        maxRatio_(maxRatio) {}

  int64_t read(Buffer& sink, int64_t byteCount) override {
    try {
      if (!started_) {
        started_ = true;
        if (encoded_.exhausted()) empty_ = true;
      }
      if (empty_) return -1;
      int64_t read = decoder_->read(sink, byteCount);
      if (read > 0) checkRatio(read);
      return read;
    } catch (const ContentDecodingException&) {
      throw;
    } catch (const IOException& e) {
      if (counts_->upstreamFailed) throw;
      throw ContentDecodingException(e.what());
    }
  }
  Timeout& timeout() override { return decoder_->timeout(); }
  void close() override { decoder_->close(); }

 private:
  void checkRatio(int64_t read) {
    counts_->decoded += read;
    const int64_t decoded = counts_->decoded;
    const int64_t encoded = counts_->encoded;
    if (maxRatio_ <= 0 || decoded < kDecompressionRatioFloor) return;
    if (static_cast<double>(decoded) <= maxRatio_ * static_cast<double>(encoded)) return;
    char ratio[32];
    std::snprintf(ratio, sizeof(ratio), "%g", maxRatio_);
    throw ContentDecodingException("decompressed body over " + std::string(ratio) +
                                   "\xC3\x97 its compressed size (" + formatByteCount(decoded) +
                                   " from " + formatByteCount(encoded) +
                                   "): refusing a possible decompression bomb");
  }

  BufferedSource& encoded_;  // Peeked once, to let an empty body through; decoder_ owns it.
  std::unique_ptr<Source> decoder_;
  std::shared_ptr<DecodingCounts> counts_;
  const double maxRatio_;
  bool started_ = false;
  bool empty_ = false;
};

std::unique_ptr<Source> decoderFor(std::string_view coding, std::unique_ptr<Source> encoded) {
  if (equalsIgnoreCase(coding, "gzip")) return std::make_unique<GzipSource>(std::move(encoded));
  if (equalsIgnoreCase(coding, "deflate")) {
    return std::make_unique<DeflateSource>(std::move(encoded));
  }
  if (equalsIgnoreCase(coding, "br")) return std::make_unique<BrotliSource>(std::move(encoded));
  if (equalsIgnoreCase(coding, "zstd")) return std::make_unique<ZstdSource>(std::move(encoded));
  throw std::invalid_argument("not a decodable content coding: " + std::string(coding));
}

// The source the innermost decoder reads: the buffered raw body, which DecodedSide also peeks.
class EncodedBuffer final : public Source {
 public:
  explicit EncodedBuffer(std::unique_ptr<BufferedSource> source) : source_(std::move(source)) {}
  int64_t read(Buffer& sink, int64_t byteCount) override { return source_->read(sink, byteCount); }
  Timeout& timeout() override { return source_->timeout(); }
  void close() override { source_->close(); }

 private:
  std::unique_ptr<BufferedSource> source_;
};

}  // namespace

bool isDecodableContentCoding(std::string_view coding) {
  return equalsIgnoreCase(coding, "gzip") || equalsIgnoreCase(coding, "deflate") ||
         equalsIgnoreCase(coding, "br") || equalsIgnoreCase(coding, "zstd");
}

std::unique_ptr<Source> decodingSource(std::unique_ptr<Source> raw,
                                       const std::vector<std::string>& codings, double maxRatio) {
  if (!raw) throw std::invalid_argument("decodingSource: raw is null");
  if (codings.empty()) throw std::invalid_argument("decodingSource: no codings");
  auto counts = std::make_shared<DecodingCounts>();
  std::unique_ptr<BufferedSource> encoded =
      tern::buffer(std::make_unique<EncodedSide>(std::move(raw), counts));
  BufferedSource& peek = *encoded;
  std::unique_ptr<Source> decoder = std::make_unique<EncodedBuffer>(std::move(encoded));
  for (auto it = codings.rbegin(); it != codings.rend(); ++it) {
    decoder = decoderFor(*it, std::move(decoder));
  }
  return std::make_unique<DecodedSide>(peek, std::move(decoder), std::move(counts), maxRatio);
}

std::string formatByteCount(int64_t bytes) {
  static constexpr const char* kUnits[] = {"B", "KiB", "MiB", "GiB", "TiB"};
  auto value = static_cast<double>(bytes);
  size_t unit = 0;
  while (value >= 1024 && unit + 1 < std::size(kUnits)) {
    value /= 1024;
    ++unit;
  }
  char text[32];
  double rounded = std::round(value * 10) / 10;
  if (unit == 0 || rounded == std::floor(rounded)) {
    std::snprintf(text, sizeof(text), "%.0f %s", rounded, kUnits[unit]);
  } else {
    std::snprintf(text, sizeof(text), "%.1f %s", rounded, kUnits[unit]);
  }
  return text;
}

}  // namespace tern::internal
