// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#include "tern/response_body.h"

#include <stdexcept>
#include <utility>

#include "http/charset.h"
#include "tern/buffer.h"
#include "tern/exceptions.h"

namespace tern {
namespace {

std::unique_ptr<BufferedSource> bufferOf(const void* data, size_t size) {
  auto buffer = std::make_unique<Buffer>();
  buffer->write(data, size);
  return buffer;
}

}  // namespace

ResponseBody::ResponseBody(std::unique_ptr<BufferedSource> source,
                           std::optional<MediaType> contentType, int64_t contentLength)
    : source_(std::move(source)),
      contentType_(std::move(contentType)),
      contentLength_(contentLength) {
  if (!source_) throw std::invalid_argument("ResponseBody: source is null");
}

ResponseBody::~ResponseBody() { close(); }

ResponseBody::ResponseBody(ResponseBody&& other) noexcept
    : source_(std::move(other.source_)),
      contentType_(std::move(other.contentType_)),
      contentLength_(other.contentLength_),
      closed_(other.closed_) {
  other.closed_ = true;  // The moved-from body has nothing left to close.
}

ResponseBody& ResponseBody::operator=(ResponseBody&& other) noexcept {
  if (this != &other) {
    close();
    source_ = std::move(other.source_);
    contentType_ = std::move(other.contentType_);
    contentLength_ = other.contentLength_;
    closed_ = other.closed_;
    other.closed_ = true;
  }
  return *this;
}

ResponseBody ResponseBody::create(std::string text, std::optional<MediaType> contentType) {
  internal::encodeTextContent(text, contentType);
  auto size = static_cast<int64_t>(text.size());
  return ResponseBody(bufferOf(text.data(), text.size()), std::move(contentType), size);
}

ResponseBody ResponseBody::create(std::vector<std::byte> bytes,
                                  std::optional<MediaType> contentType) {
  auto size = static_cast<int64_t>(bytes.size());
  return ResponseBody(bufferOf(bytes.data(), bytes.size()), std::move(contentType), size);
}

std::string ResponseBody::readAll() {
  std::string content;
  try {
    content = source_->readUtf8();
  } catch (...) {
    close();
    throw;
  }
  close();
  if (contentLength_ != -1 && contentLength_ != static_cast<int64_t>(content.size())) {
    throw IOException("Content-Length (" + std::to_string(contentLength_) +
                      ") and stream length (" + std::to_string(content.size()) + ") disagree");
  }
  return content;
}

std::vector<std::byte> ResponseBody::bytes() {
  std::string content = readAll();
  auto* begin = reinterpret_cast<const std::byte*>(content.data());
  return std::vector<std::byte>(begin, begin + content.size());
}

std::string ResponseBody::string() {
  std::optional<std::string> charset = contentType_ ? contentType_->charset() : std::nullopt;
  return internal::decodeToUtf8(readAll(), charset);
}

void ResponseBody::close() noexcept {
  if (closed_) return;
  closed_ = true;
  try {
    source_->close();
  } catch (...) {
    // Safe to drop: a source that fails to close is not reused (its connection is discarded by
    // the pool), and the caller has already stopped reading. OkHttp closes quietly too.
  }
}

}  // namespace tern
