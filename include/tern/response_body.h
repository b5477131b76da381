// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "tern/buffered_source.h"
#include "tern/export.h"
#include "tern/media_type.h"

namespace tern {

// The body of a response, streamed from its source (usually the connection), as OkHttp's
// ResponseBody. Read it once: all at once with string() or bytes(), or incrementally from
// source(). Either way it must be closed so the connection goes back to the pool: string() and
// bytes() close it, and destroying the body closes it too, so a body dropped unread never leaks
// its connection.
//
// Move-only (it owns its source). Not thread-safe: one thread reads it at a time, though the
// call that produced it may be canceled from another thread, which makes reads throw.
class TERN_API ResponseBody final {
 public:
  // A body reading from `source`, which it owns and closes. `contentLength` is -1 if unknown.
  // Throws std::invalid_argument if `source` is null.
  ResponseBody(std::unique_ptr<BufferedSource> source, std::optional<MediaType> contentType,
               int64_t contentLength);
  ~ResponseBody();
  ResponseBody(ResponseBody&&) noexcept;
  ResponseBody& operator=(ResponseBody&&) noexcept;
  ResponseBody(const ResponseBody&) = delete;
  ResponseBody& operator=(const ResponseBody&) = delete;

  // A body holding `text`: "; charset=utf-8" is added to a content type without a charset, and
  // `text` (UTF-8) is encoded in the charset it names, as OkHttp's toResponseBody.
  static ResponseBody create(std::string text, std::optional<MediaType> contentType = std::nullopt);
  // A body holding `bytes` as they are.
  static ResponseBody create(std::vector<std::byte> bytes,
                             std::optional<MediaType> contentType = std::nullopt);

  const std::optional<MediaType>& contentType() const noexcept { return contentType_; }
  // The number of bytes in the body, from Content-Length, or -1 if unknown.
  int64_t contentLength() const noexcept { return contentLength_; }

  // The stream of the body's bytes. Reading it after close() throws std::logic_error; reading it
  // after the call was canceled, or when the peer breaks off, throws IOException.
  BufferedSource& source() { return *source_; }

  // Reads the whole body, closes it and returns its bytes. Throws IOException if the body breaks
  // off, or if it has a Content-Length and the stream's length differs from it.
  std::vector<std::byte> bytes();

  // Reads the whole body, closes it, and returns it as UTF-8 text, decoded from the charset of a
  // byte-order mark, else of the Content-Type, else UTF-8. Throws like bytes().
  std::string string();

  // Closes the source, releasing the connection. Closing twice does nothing. Never throws: a
  // failure to close means the connection is not reused, which the pool already handles.
  void close() noexcept;

 private:
  std::string readAll();

  std::unique_ptr<BufferedSource> source_;
  std::optional<MediaType> contentType_;
  int64_t contentLength_;
  bool closed_ = false;
};

}  // namespace tern
