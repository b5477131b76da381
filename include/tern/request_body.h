// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "tern/export.h"
#include "tern/media_type.h"

namespace tern {

class BufferedSink;
class Source;

// The content of a request: its type, its length and a way to write it, as OkHttp's
// RequestBody. Subclass it to stream a body; use the create functions for content in memory, a
// file, or a one-time source.
//
// A body may be written more than once (a redirect or retry sends it again) unless isOneShot()
// says otherwise. Request holds bodies by std::shared_ptr, so a body is shared by the copies of a
// request; writeTo() must therefore be safe to call again after a previous write finished.
class TERN_API RequestBody {
 public:
  virtual ~RequestBody() = default;

  // The Content-Type to send, or nullopt to send none.
  virtual std::optional<MediaType> contentType() const = 0;

  // The number of bytes writeTo() will write, or -1 if unknown (the body is then sent chunked
  // over HTTP/1.1).
  virtual int64_t contentLength() const { return -1; }

  // Writes the body's bytes to `sink`. Throws IOException if the content cannot be produced.
  virtual void writeTo(BufferedSink& sink) = 0;

  // True if the request and response stream at once (HTTP/2 only): the call returns the response
  // while the body is still being written, and writeTo() may run on another thread.
  virtual bool isDuplex() const { return false; }

  // True if writeTo() may be called at most once, so the call will not retry or follow a redirect
  // that needs the body again (OkHttp's isOneShot()).
  virtual bool isOneShot() const { return false; }

  // A body holding `content`. If `contentType` has no charset, "; charset=utf-8" is added to it,
  // as OkHttp does; if it names another charset, the UTF-8 `content` is transcoded to it (a
  // character the charset lacks becomes '?').
  static std::shared_ptr<RequestBody> create(std::string content,
                                             std::optional<MediaType> contentType = std::nullopt);

  // A body holding `content`, sent as it is.
  static std::shared_ptr<RequestBody> create(std::vector<std::byte> content,
                                             std::optional<MediaType> contentType = std::nullopt);

  // A body streamed from the file at `path` each time it is written. Its length is the file's size
  // when it is written (-1 if the file cannot be read then). Writing throws IOException naming the
  // path if the file cannot be opened.
  static std::shared_ptr<RequestBody> fromFile(std::filesystem::path path,
                                               std::optional<MediaType> contentType = std::nullopt);

  // A one-shot body streamed from `source`, which is read to its end and closed. `contentLength`
  // is -1 if unknown. Writing it twice throws std::logic_error. Throws std::invalid_argument if
  // `source` is null.
  static std::shared_ptr<RequestBody> fromSource(std::unique_ptr<Source> source,
                                                 std::optional<MediaType> contentType,
                                                 int64_t contentLength = -1);

  // `body` gzip-compressed (RFC 1952) as it is written, as OkHttp 5's RequestBody.gzip(): the same
  // content type, an unknown length (so it goes chunked over HTTP/1.1), one-shot if `body` is.
  // Not every server takes compressed requests, so this is never automatic; the caller adds
  // "Content-Encoding: gzip":
  //   Request::Builder().url(url).header("Content-Encoding", "gzip")
  //       .post(RequestBody::gzip(RequestBody::create(json, MediaType::get("application/json"))))
  // Throws std::invalid_argument if `body` is null.
  static std::shared_ptr<RequestBody> gzip(std::shared_ptr<RequestBody> body);
};

}  // namespace tern
