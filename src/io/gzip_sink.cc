// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#include "io/gzip_sink.h"

#include <stdexcept>
#include <string>

#include "io/zlib_stream.h"
#include "tern/buffer.h"
#include "tern/exceptions.h"

namespace tern::internal {
namespace {

// zlib writes the gzip header and trailer itself when windowBits has 16 added.
constexpr int kGzipWindowBits = 16 + MAX_WBITS;

Sink& checked(const std::unique_ptr<Sink>& sink) {
  if (!sink) {
    throw std::invalid_argument("GzipSink: sink == null");
  }
  return *sink;
}

}  // namespace

GzipSink::GzipSink(std::unique_ptr<Sink> sink, int level)
    : owned_(std::move(sink)),
      sink_(checked(owned_)),
      z_(std::make_unique<ZStream>(ZStream::Mode::kDeflate, kGzipWindowBits, level)) {}

GzipSink::GzipSink(Sink& sink, int level)
    : sink_(sink), z_(std::make_unique<ZStream>(ZStream::Mode::kDeflate, kGzipWindowBits, level)) {}

GzipSink::~GzipSink() = default;

void GzipSink::write(Buffer& source, int64_t byteCount) {
  if (closed_) {
    throw std::logic_error("GzipSink: closed");
  }
  if (byteCount < 0 || byteCount > source.size()) {
    throw std::invalid_argument("GzipSink: byteCount " + std::to_string(byteCount) +
                                " out of range [0, " + std::to_string(source.size()) + "]");
  }
  z_stream& z = z_->stream;
  while (byteCount > 0) {
    std::span<const std::byte> segment = source.readableSegment(0);
    size_t count = std::min<size_t>(segment.size(), static_cast<size_t>(byteCount));
    z.next_in = reinterpret_cast<Bytef*>(const_cast<std::byte*>(segment.data()));
    z.avail_in = static_cast<uInt>(count);
    deflate(Z_NO_FLUSH);
    source.skip(static_cast<int64_t>(count));
    byteCount -= static_cast<int64_t>(count);
  }
}

void GzipSink::deflate(int flush) {
  z_stream& z = z_->stream;
  Buffer out;
  while (true) {
    std::span<std::byte> room = out.writableSegment(1);
    z.next_out = reinterpret_cast<Bytef*>(room.data());
    z.avail_out = static_cast<uInt>(room.size());
    int result = ::deflate(&z, flush);
    out.commitWrite(room.size() - z.avail_out);
    if (result == Z_STREAM_END) {
      break;
    }
    if (result != Z_OK && result != Z_BUF_ERROR) {
      throw IOException("Deflater failed: " + z_->message(result));
    }
    // Done once zlib has taken all input and, for a flush, had room left over.
    if (flush != Z_FINISH && z.avail_in == 0 && z.avail_out != 0) {
      break;
    }
  }
  z.next_in = nullptr;
  z.avail_in = 0;
  if (out.size() > 0) {
    sink_.write(out, out.size());
  }
}

void GzipSink::flush() {
  if (closed_) {
    throw std::logic_error("GzipSink: closed");
  }
  deflate(Z_SYNC_FLUSH);
  sink_.flush();
}

Timeout& GzipSink::timeout() { return sink_.timeout(); }

void GzipSink::close() {
  if (closed_) {
    return;
  }
  closed_ = true;
  // Finish the stream, then close the sink even if finishing failed; report the first failure.
  try {
    deflate(Z_FINISH);
  } catch (...) {
    try {
      sink_.close();
    } catch (const IOException&) {
      // Safe to drop: the deflate failure is the one the caller needs to see.
    }
    throw;
  }
  sink_.close();
}

}  // namespace tern::internal
