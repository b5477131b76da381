// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
// Decodes arbitrary bytes as a "Content-Encoding: br" body, as the bridge does: through
// decodingSource() with the decompression ratio guard on. The first byte picks the upstream's
// chunk size (bits 0-3: 1 byte to 32 KiB) and the ratio limit (bits 4-5: 2, 10, 1000 or 1e6); the
// rest is the body. Only ContentDecodingException may escape; every read returns at most what was
// asked; the output stays under the guard's bound.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <string_view>

#include "io/content_decoding.h"
#include "tern/buffer.h"

namespace {

void check(bool condition) {
  if (!condition) std::abort();
}

// Returns at most `chunk` bytes per read, so the decoder's states straddle reads.
class ChunkedSource final : public tern::Source {
 public:
  ChunkedSource(std::string_view data, int64_t chunk) : chunk_(chunk) { data_.writeUtf8(data); }
  int64_t read(tern::Buffer& sink, int64_t byteCount) override {
    return data_.read(sink, std::min(byteCount, chunk_));
  }
  tern::Timeout& timeout() override { return tern::Timeout::none(); }
  void close() override {}

 private:
  tern::Buffer data_;
  int64_t chunk_;
};

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace tern::internal;
  if (size == 0) return 0;
  const int64_t chunk = int64_t{1} << (data[0] & 15);
  static constexpr double kRatios[] = {2, 10, 1000, 1e6};
  const double ratio = kRatios[(data[0] >> 4) & 3];
  const std::string_view body(reinterpret_cast<const char*>(data + 1), size - 1);

  std::unique_ptr<tern::Source> source =
      decodingSource(std::make_unique<ChunkedSource>(body, chunk), {"br"}, ratio);
  tern::Buffer sink;
  int64_t total = 0;
  try {
    for (int64_t read; (read = source->read(sink, 8192)) != -1;) {
      check(read > 0 && read <= 8192 && sink.size() == read);
      total += read;
      // The guard's bound: past the floor, at most ratio × input plus one read.
      check(total <=
            std::max<double>(kDecompressionRatioFloor, ratio * static_cast<double>(body.size())) +
                8192);
      sink.clear();
    }
  } catch (const ContentDecodingException&) {
    // Corrupt, truncated, trailing bytes, or over the ratio: what a body may fail with.
  }
  source->close();
  return 0;
}
