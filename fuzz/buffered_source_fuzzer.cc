// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
// Runs BufferedSource's parsers (lines, decimal and hex numbers, searches) over arbitrary bytes
// delivered in arbitrary chunk sizes. Only IOException and its subtypes may escape a parser.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string_view>

#include "tern/buffer.h"
#include "tern/buffered_source.h"
#include "tern/exceptions.h"

namespace {

// Returns at most `chunk` bytes per read, so values straddle reads.
class ChunkedSource final : public tern::Source {
 public:
  ChunkedSource(tern::Buffer& data, int64_t chunk) : data_(data), chunk_(chunk) {}
  int64_t read(tern::Buffer& sink, int64_t byteCount) override {
    return data_.read(sink, std::min(byteCount, chunk_));
  }
  tern::Timeout& timeout() override { return tern::Timeout::none(); }
  void close() override {}

 private:
  tern::Buffer& data_;
  int64_t chunk_;
};

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size < 2) {
    return 0;
  }
  // First byte: chunk size; second: a seed for the sequence of operations.
  int64_t chunk = data[0] % 16 + 1;
  uint8_t ops = data[1];
  tern::Buffer input;
  input.write(data + 2, size - 2);
  ChunkedSource chunked(input, chunk);
  std::unique_ptr<tern::BufferedSource> source = tern::buffer(chunked);
  for (int step = 0; step < 64 && !source->exhausted(); ++step) {
    try {
      switch ((ops + step) % 8) {
        case 0:
          source->readUtf8LineStrict(step * 3);
          break;
        case 1:
          source->readDecimalLong();
          break;
        case 2:
          source->readHexadecimalUnsignedLong();
          break;
        case 3:
          source->readUtf8Line();
          break;
        case 4:
          source->indexOf(std::string_view("\r\n"), step);
          source->readByte();
          break;
        case 5:
          source->rangeEquals(step, "HTTP/1.1");
          source->skip(1);
          break;
        case 6:
          source->peek()->readUtf8LineStrict(8);
          source->readInt();
          break;
        default:
          source->readUtf8(std::min<int64_t>(step, source->buffer().size()));
          break;
      }
    } catch (const tern::IOException&) {
      // Malformed or truncated input is reported this way; anything else is a bug.
      source->skip(std::min<int64_t>(1, source->buffer().size()));
    }
  }
  return 0;
}
