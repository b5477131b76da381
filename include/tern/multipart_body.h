// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstddef>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "tern/export.h"
#include "tern/headers.h"
#include "tern/request_body.h"

namespace tern {

// A multipart body (RFC 2046 §5.1; RFC 7578 for multipart/form-data), as OkHttp's MultipartBody:
// parts separated by "--boundary" lines, each with its own headers and body.
class TERN_API MultipartBody final : public RequestBody {
 public:
  class Builder;

  // One part: optional headers (never Content-Type or Content-Length, which come from the body) and
  // a body.
  class Part {
   public:
    // A part with no headers of its own.
    static Part create(std::shared_ptr<RequestBody> body);

    // Throws std::invalid_argument if `headers` has Content-Type or Content-Length, or `body` is
    // null.
    static Part create(Headers headers, std::shared_ptr<RequestBody> body);

    // A form field: Content-Disposition: form-data; name="name".
    static Part createFormData(std::string_view name, std::string_view value);

    // A form field carrying a file: Content-Disposition: form-data; name="name";
    // filename="filename" (no filename if nullopt). Quotes, CR and LF in the name and filename are
    // escaped as %22, %0D and %0A, as browsers do.
    static Part createFormData(std::string_view name, std::optional<std::string_view> filename,
                               std::shared_ptr<RequestBody> body);

    const Headers& headers() const noexcept { return headers_; }
    const std::shared_ptr<RequestBody>& body() const noexcept { return body_; }

   private:
    Part(Headers headers, std::shared_ptr<RequestBody> body);
    Headers headers_;
    std::shared_ptr<RequestBody> body_;
  };

  // The multipart subtypes of RFC 2046 §5.1 and RFC 7578.
  static MediaType mixed();        // "multipart/mixed", the default.
  static MediaType alternative();  // "multipart/alternative"
  static MediaType digest();       // "multipart/digest"
  static MediaType parallel();     // "multipart/parallel"
  static MediaType form();         // "multipart/form-data"

  // The multipart type without the boundary ("multipart/form-data").
  const MediaType& type() const noexcept { return type_; }
  const std::string& boundary() const noexcept { return boundary_; }
  size_t size() const noexcept { return parts_.size(); }
  // The `index`th part. Throws std::out_of_range unless index < size().
  const Part& part(size_t index) const;
  const std::vector<Part>& parts() const noexcept { return parts_; }

  // type() with "; boundary=" the boundary.
  std::optional<MediaType> contentType() const override { return contentType_; }
  // The total length, or -1 if a part's length is unknown.
  int64_t contentLength() const override;
  void writeTo(BufferedSink& sink) override;
  // True if any part is one-shot.
  bool isOneShot() const override;

 private:
  struct Key {};  // Only the Builder constructs a MultipartBody.

 public:
  MultipartBody(Key, std::string boundary, MediaType type, std::vector<Part> parts);

 private:
  // Writes the framing (and, unless counting, the parts' bodies) to `sink`; returns the total
  // length when counting (-1 if a part's length is unknown). One function does both so the count
  // always matches what is written.
  int64_t writeOrCountBytes(BufferedSink* sink, bool countBytes) const;

  const std::string boundary_;
  const MediaType type_;
  const MediaType contentType_;
  const std::vector<Part> parts_;
};

// Collects the parts of a MultipartBody.
class TERN_API MultipartBody::Builder {
 public:
  // A builder with a random boundary (a UUID, as OkHttp).
  Builder();
  // A builder with the given boundary. Throws std::invalid_argument if it is empty, longer than
  // 70 characters or has characters RFC 2046 §5.1.1 does not allow.
  explicit Builder(std::string boundary);

  // Sets the multipart subtype. Throws std::invalid_argument unless its type is "multipart".
  Builder& setType(const MediaType& type);

  Builder& addPart(std::shared_ptr<RequestBody> body);
  Builder& addPart(Headers headers, std::shared_ptr<RequestBody> body);
  Builder& addPart(Part part);
  Builder& addFormDataPart(std::string_view name, std::string_view value);
  Builder& addFormDataPart(std::string_view name, std::optional<std::string_view> filename,
                           std::shared_ptr<RequestBody> body);

  // Throws std::logic_error if no part was added.
  std::shared_ptr<MultipartBody> build() const;

 private:
  std::string boundary_;
  MediaType type_;
  std::vector<Part> parts_;
};

}  // namespace tern
