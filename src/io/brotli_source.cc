// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#include "io/brotli_source.h"

#include <brotli/decode.h>

#include <algorithm>
#include <new>
#include <stdexcept>
#include <string>

#include "tern/buffer.h"
#include "tern/exceptions.h"

namespace tern::internal {

// Owns libbrotli's decoder state: the RAII boundary to libbrotlidec.
struct BrotliDecoder {
  BrotliDecoder() : state(BrotliDecoderCreateInstance(nullptr, nullptr, nullptr)) {
    if (state == nullptr) throw std::bad_alloc();
  }
  ~BrotliDecoder() { BrotliDecoderDestroyInstance(state); }
  BrotliDecoder(const BrotliDecoder&) = delete;
  BrotliDecoder& operator=(const BrotliDecoder&) = delete;

  BrotliDecoderState* const state;
};

namespace {

// "br decoding failed: PADDING_1": libbrotli's name for the error.
std::string errorMessage(const BrotliDecoderState* state) {
  std::string name = BrotliDecoderErrorString(BrotliDecoderGetErrorCode(state));
  size_t start = name.find_first_not_of('_');
  return "br decoding failed: " + (start == std::string::npos ? name : name.substr(start));
}

}  // namespace

BrotliSource::BrotliSource(std::unique_ptr<Source> source)
    : source_(tern::buffer(std::move(source))), decoder_(std::make_unique<BrotliDecoder>()) {}

BrotliSource::~BrotliSource() = default;

int64_t BrotliSource::read(Buffer& sink, int64_t byteCount) {
  if (byteCount < 0) throw std::invalid_argument("byteCount < 0: " + std::to_string(byteCount));
  if (closed_) throw std::logic_error("closed");
  if (finished_) {
    // The stream ended in an earlier read, which returned its last bytes; now what follows it.
    if (!trailerChecked_) {
      trailerChecked_ = true;
      if (!source_->exhausted()) throw IOException("br finished without exhausting source");
    }
    return -1;
  }
  if (byteCount == 0) return 0;

  Buffer& input = source_->buffer();
  while (true) {
    // Offer the decoder the first buffered segment and one segment of room in `sink`, then
    // account for exactly what it consumed and produced.
    std::span<const std::byte> in;
    if (input.size() > 0) in = input.readableSegment(0);
    size_t availableIn = in.size();
    const auto* nextIn = reinterpret_cast<const uint8_t*>(in.data());
    std::span<std::byte> out = sink.writableSegment(1);
    size_t room = std::min<size_t>(out.size(), static_cast<size_t>(byteCount));
    size_t availableOut = room;
    auto* nextOut = reinterpret_cast<uint8_t*>(out.data());

    BrotliDecoderResult result = BrotliDecoderDecompressStream(
        decoder_->state, &availableIn, &nextIn, &availableOut, &nextOut, nullptr);
    size_t produced = room - availableOut;
    sink.commitWrite(produced);
    if (size_t consumed = in.size() - availableIn; consumed > 0) {
      input.skip(static_cast<int64_t>(consumed));
    }

    switch (result) {
      case BROTLI_DECODER_RESULT_ERROR:
        throw IOException(errorMessage(decoder_->state));
      case BROTLI_DECODER_RESULT_SUCCESS:
        finished_ = true;
        if (produced > 0) return static_cast<int64_t>(produced);
        return read(sink, byteCount);  // Checks what follows the stream.
      case BROTLI_DECODER_RESULT_NEEDS_MORE_INPUT:
        if (produced > 0) return static_cast<int64_t>(produced);
        if (input.size() == 0 && !source_->request(1)) throw EOFException("br stream truncated");
        break;
      case BROTLI_DECODER_RESULT_NEEDS_MORE_OUTPUT:
        if (produced > 0) return static_cast<int64_t>(produced);
        break;
    }
  }
}

Timeout& BrotliSource::timeout() { return source_->timeout(); }

void BrotliSource::close() {
  if (closed_) return;
  closed_ = true;
  source_->close();
}

}  // namespace tern::internal
