// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#include "tern/request_body.h"

#include <mutex>
#include <stdexcept>
#include <system_error>
#include <utility>

#include "http/charset.h"
#include "io/gzip_sink.h"
#include "tern/buffered_sink.h"
#include "tern/file_streams.h"
#include "tern/source.h"

namespace tern {
namespace {

// Bytes in memory: the common case, written as often as needed.
class BytesRequestBody final : public RequestBody {
 public:
  BytesRequestBody(std::string bytes, std::optional<MediaType> contentType)
      : bytes_(std::move(bytes)), contentType_(std::move(contentType)) {}

  std::optional<MediaType> contentType() const override { return contentType_; }
  int64_t contentLength() const override { return static_cast<int64_t>(bytes_.size()); }
  void writeTo(BufferedSink& sink) override { sink.write(bytes_.data(), bytes_.size()); }

 private:
  const std::string bytes_;
  const std::optional<MediaType> contentType_;
};

class FileRequestBody final : public RequestBody {
 public:
  FileRequestBody(std::filesystem::path path, std::optional<MediaType> contentType)
      : path_(std::move(path)), contentType_(std::move(contentType)) {}

  std::optional<MediaType> contentType() const override { return contentType_; }

  int64_t contentLength() const override {
    std::error_code error;
    auto size = std::filesystem::file_size(path_, error);
    return error ? -1 : static_cast<int64_t>(size);
  }

  void writeTo(BufferedSink& sink) override {
    std::unique_ptr<Source> source = fileSource(path_);
    sink.writeAll(*source);
    source->close();
  }

 private:
  const std::filesystem::path path_;
  const std::optional<MediaType> contentType_;
};

class SourceRequestBody final : public RequestBody {
 public:
  SourceRequestBody(std::unique_ptr<Source> source, std::optional<MediaType> contentType,
                    int64_t contentLength)
      : source_(std::move(source)),
        contentType_(std::move(contentType)),
        contentLength_(contentLength) {}

  std::optional<MediaType> contentType() const override { return contentType_; }
  int64_t contentLength() const override { return contentLength_; }
  bool isOneShot() const override { return true; }

  void writeTo(BufferedSink& sink) override {
    std::unique_ptr<Source> source;
    {
      std::lock_guard<std::mutex> lock(mutex_);
      if (!source_) throw std::logic_error("one-shot request body was already written");
      source = std::move(source_);
    }
    sink.writeAll(*source);
    source->close();
  }

 private:
  std::mutex mutex_;
  std::unique_ptr<Source> source_;  // Guarded by mutex_; null once written.
  const std::optional<MediaType> contentType_;
  const int64_t contentLength_;
};

// Another body, gzip-compressed as it is written (OkHttp 5's RequestBody.gzip()).
class GzipRequestBody final : public RequestBody {
 public:
  explicit GzipRequestBody(std::shared_ptr<RequestBody> body) : body_(std::move(body)) {}

  std::optional<MediaType> contentType() const override { return body_->contentType(); }
  int64_t contentLength() const override { return -1; }  // Known only once compressed.
  bool isOneShot() const override { return body_->isOneShot(); }

  void writeTo(BufferedSink& sink) override {
    // The gzip stream writes into `sink` but must not close it: the exchange owns the request
    // body's end.
    NonClosingSink target(sink);
    internal::GzipSink gzipSink(target);
    std::unique_ptr<BufferedSink> compressed = tern::buffer(gzipSink);
    body_->writeTo(*compressed);
    compressed->close();  // Writes the trailer, flushing `sink` through.
  }

 private:
  class NonClosingSink final : public Sink {
   public:
    explicit NonClosingSink(BufferedSink& sink) : sink_(sink) {}
    void write(Buffer& source, int64_t byteCount) override { sink_.write(source, byteCount); }
    void flush() override { sink_.flush(); }
    Timeout& timeout() override { return sink_.timeout(); }
    void close() override { sink_.emit(); }

   private:
    BufferedSink& sink_;
  };

  const std::shared_ptr<RequestBody> body_;
};

}  // namespace

std::shared_ptr<RequestBody> RequestBody::create(std::string content,
                                                 std::optional<MediaType> contentType) {
  internal::encodeTextContent(content, contentType);
  return std::make_shared<BytesRequestBody>(std::move(content), std::move(contentType));
}

std::shared_ptr<RequestBody> RequestBody::create(std::vector<std::byte> content,
                                                 std::optional<MediaType> contentType) {
  std::string bytes(reinterpret_cast<const char*>(content.data()), content.size());
  return std::make_shared<BytesRequestBody>(std::move(bytes), std::move(contentType));
}

std::shared_ptr<RequestBody> RequestBody::fromFile(std::filesystem::path path,
                                                   std::optional<MediaType> contentType) {
  return std::make_shared<FileRequestBody>(std::move(path), std::move(contentType));
}

std::shared_ptr<RequestBody> RequestBody::fromSource(std::unique_ptr<Source> source,
                                                     std::optional<MediaType> contentType,
                                                     int64_t contentLength) {
  if (!source) throw std::invalid_argument("RequestBody::fromSource: source is null");
  return std::make_shared<SourceRequestBody>(std::move(source), std::move(contentType),
                                             contentLength);
}

std::shared_ptr<RequestBody> RequestBody::gzip(std::shared_ptr<RequestBody> body) {
  if (!body) throw std::invalid_argument("RequestBody::gzip: body is null");
  return std::make_shared<GzipRequestBody>(std::move(body));
}

}  // namespace tern
