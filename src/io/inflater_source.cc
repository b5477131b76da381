// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#include "io/inflater_source.h"

#include <algorithm>
#include <stdexcept>
#include <string>

#include "io/zlib_stream.h"
#include "tern/buffer.h"
#include "tern/exceptions.h"

namespace tern::internal {
namespace {

int windowBits(InflaterSource::Format format) {
  return format == InflaterSource::Format::kRaw ? -MAX_WBITS : MAX_WBITS;
}

}  // namespace

InflaterSource::InflaterSource(BufferedSource& source, Format format)
    : source_(source), z_(std::make_unique<ZStream>(ZStream::Mode::kInflate, windowBits(format))) {}

InflaterSource::InflaterSource(std::unique_ptr<Source> source, Format format)
    : owned_(tern::buffer(std::move(source))),
      source_(*owned_),
      z_(std::make_unique<ZStream>(ZStream::Mode::kInflate, windowBits(format))) {}

InflaterSource::~InflaterSource() = default;

int64_t InflaterSource::read(Buffer& sink, int64_t byteCount) {
  while (true) {
    int64_t read = readOrInflate(sink, byteCount);
    if (read != 0 || byteCount == 0) {
      return read;
    }
    // The inflater wants more input than is buffered.
    if (!source_.request(source_.buffer().size() + 1)) {
      throw EOFException("source exhausted prematurely");
    }
  }
}

int64_t InflaterSource::readOrInflate(Buffer& sink, int64_t byteCount) {
  if (byteCount < 0) {
    throw std::invalid_argument("byteCount < 0: " + std::to_string(byteCount));
  }
  if (closed_) {
    throw std::logic_error("closed");
  }
  if (finished_) {
    return -1;
  }
  if (byteCount == 0) {
    return 0;
  }

  // Offer zlib the first buffered segment of input and a segment of room in `sink`, then account
  // for exactly what it consumed and produced.
  Buffer& input = source_.buffer();
  z_stream& z = z_->stream;
  std::span<const std::byte> in;
  if (input.size() > 0) {
    in = input.readableSegment(0);
  }
  z.next_in = reinterpret_cast<Bytef*>(const_cast<std::byte*>(in.data()));
  z.avail_in = static_cast<uInt>(in.size());
  std::span<std::byte> out = sink.writableSegment(1);
  size_t room = std::min<size_t>(out.size(), static_cast<size_t>(byteCount));
  z.next_out = reinterpret_cast<Bytef*>(out.data());
  z.avail_out = static_cast<uInt>(room);

  int result = ::inflate(&z, Z_NO_FLUSH);
  size_t consumed = in.size() - z.avail_in;
  size_t produced = room - z.avail_out;
  sink.commitWrite(produced);
  if (consumed > 0) {
    input.skip(static_cast<int64_t>(consumed));
  }

  switch (result) {
    case Z_OK:
    case Z_BUF_ERROR:  // No progress without more input: not an error.
      break;
    case Z_STREAM_END:
      finished_ = true;
      if (produced == 0) {
        return -1;
      }
      break;
    default:
      throw IOException("Inflater failed: " + z_->message(result));
  }
  return static_cast<int64_t>(produced);
}

Timeout& InflaterSource::timeout() { return source_.timeout(); }

void InflaterSource::close() {
  if (closed_) {
    return;
  }
  closed_ = true;
  source_.close();
}

}  // namespace tern::internal
