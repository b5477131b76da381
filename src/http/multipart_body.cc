// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#include "tern/multipart_body.h"

#include <algorithm>
#include <cstdio>
#include <random>
#include <stdexcept>
#include <utility>

#include "tern/buffer.h"
#include "tern/buffered_sink.h"

namespace tern {
namespace {

constexpr size_t kMaxBoundaryLength = 70;  // RFC 2046 §5.1.1.

// A random version 4 UUID (RFC 9562 §5.4), OkHttp's default boundary.
std::string randomUuid() {
  std::random_device device;
  std::uniform_int_distribution<unsigned> byte(0, 255);
  unsigned char b[16];
  for (unsigned char& c : b) c = static_cast<unsigned char>(byte(device));
  b[6] = static_cast<unsigned char>((b[6] & 0x0F) | 0x40);  // Version 4.
  b[8] = static_cast<unsigned char>((b[8] & 0x3F) | 0x80);  // Variant 10.
  char out[37];
  std::snprintf(out, sizeof(out),
                "%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-%02x%02x%02x%02x%02x%02x", b[0], b[1],
                b[2], b[3], b[4], b[5], b[6], b[7], b[8], b[9], b[10], b[11], b[12], b[13], b[14],
                b[15]);
  return out;
}

// bchars of RFC 2046 §5.1.1: a space is allowed but not last.
bool isBoundaryChar(char c) {
  if ((c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z')) return true;
  return std::string_view("'()+_,-./:=? ").find(c) != std::string_view::npos;
}

void checkBoundary(const std::string& boundary) {
  bool ok = !boundary.empty() && boundary.size() <= kMaxBoundaryLength &&
            std::all_of(boundary.begin(), boundary.end(), isBoundaryChar) && boundary.back() != ' ';
  if (!ok) {
    throw std::invalid_argument("Invalid multipart boundary \"" + boundary +
                                "\": must be 1 to 70 of RFC 2046's boundary characters");
  }
}

// The boundary as a media type parameter value: quoted when it is not a token (RFC 9110 §5.6.6).
std::string boundaryParameter(const std::string& boundary) {
  // Of the boundary characters, these are not token characters.
  bool token = std::none_of(boundary.begin(), boundary.end(), [](char c) {
    return std::string_view("(),/:=? ").find(c) != std::string_view::npos;
  });
  return token ? boundary : "\"" + boundary + "\"";
}

// RFC 7578 §4.2 leaves escaping vague; like OkHttp we follow Chrome: %0A, %0D and %22.
void appendQuotedString(std::string& out, std::string_view value) {
  out += '"';
  for (char c : value) {
    switch (c) {
      case '\n':
        out += "%0A";
        break;
      case '\r':
        out += "%0D";
        break;
      case '"':
        out += "%22";
        break;
      default:
        out += c;
    }
  }
  out += '"';
}

}  // namespace

MediaType MultipartBody::mixed() { return MediaType::get("multipart/mixed"); }
MediaType MultipartBody::alternative() { return MediaType::get("multipart/alternative"); }
MediaType MultipartBody::digest() { return MediaType::get("multipart/digest"); }
MediaType MultipartBody::parallel() { return MediaType::get("multipart/parallel"); }
MediaType MultipartBody::form() { return MediaType::get("multipart/form-data"); }

MultipartBody::MultipartBody(Key, std::string boundary, MediaType type, std::vector<Part> parts)
    : boundary_(std::move(boundary)),
      type_(std::move(type)),
      contentType_(MediaType::get(type_.toString() + "; boundary=" + boundaryParameter(boundary_))),
      parts_(std::move(parts)) {}

const MultipartBody::Part& MultipartBody::part(size_t index) const {
  if (index >= parts_.size()) {
    throw std::out_of_range("MultipartBody::part: index " + std::to_string(index) + " >= size " +
                            std::to_string(parts_.size()));
  }
  return parts_[index];
}

int64_t MultipartBody::contentLength() const { return writeOrCountBytes(nullptr, true); }

void MultipartBody::writeTo(BufferedSink& sink) { writeOrCountBytes(&sink, false); }

bool MultipartBody::isOneShot() const {
  return std::any_of(parts_.begin(), parts_.end(),
                     [](const Part& part) { return part.body()->isOneShot(); });
}

int64_t MultipartBody::writeOrCountBytes(BufferedSink* sink, bool countBytes) const {
  Buffer counter;
  BufferedSink& out = countBytes ? counter : *sink;
  int64_t bodyBytes = 0;

  for (const Part& part : parts_) {
    out.writeUtf8("--").writeUtf8(boundary_).writeUtf8("\r\n");
    for (const auto& [name, value] : part.headers()) {
      out.writeUtf8(name).writeUtf8(": ").writeUtf8(value).writeUtf8("\r\n");
    }
    if (std::optional<MediaType> contentType = part.body()->contentType()) {
      out.writeUtf8("Content-Type: ").writeUtf8(contentType->toString()).writeUtf8("\r\n");
    }
    // Content-Length per part is not sent (RFC 7578 §4.8); it is only needed for the total.
    out.writeUtf8("\r\n");
    if (countBytes) {
      int64_t length = part.body()->contentLength();
      if (length == -1) return -1;  // The total cannot be known without every part's length.
      bodyBytes += length;
    } else {
      part.body()->writeTo(out);
    }
    out.writeUtf8("\r\n");
  }
  out.writeUtf8("--").writeUtf8(boundary_).writeUtf8("--\r\n");
  return countBytes ? counter.size() + bodyBytes : 0;
}

MultipartBody::Part::Part(Headers headers, std::shared_ptr<RequestBody> body)
    : headers_(std::move(headers)), body_(std::move(body)) {}

MultipartBody::Part MultipartBody::Part::create(std::shared_ptr<RequestBody> body) {
  return create(Headers(), std::move(body));
}

MultipartBody::Part MultipartBody::Part::create(Headers headers,
                                                std::shared_ptr<RequestBody> body) {
  if (!body) throw std::invalid_argument("MultipartBody::Part: body is null");
  if (headers.get("Content-Type")) {
    throw std::invalid_argument("Unexpected header: Content-Type (it comes from the part's body)");
  }
  if (headers.get("Content-Length")) {
    throw std::invalid_argument("Unexpected header: Content-Length");
  }
  return Part(std::move(headers), std::move(body));
}

MultipartBody::Part MultipartBody::Part::createFormData(std::string_view name,
                                                        std::string_view value) {
  return createFormData(name, std::nullopt, RequestBody::create(std::string(value)));
}

MultipartBody::Part MultipartBody::Part::createFormData(std::string_view name,
                                                        std::optional<std::string_view> filename,
                                                        std::shared_ptr<RequestBody> body) {
  std::string disposition = "form-data; name=";
  appendQuotedString(disposition, name);
  if (filename) {
    disposition += "; filename=";
    appendQuotedString(disposition, *filename);
  }
  Headers headers =
      Headers::Builder().addUnsafeNonAscii("Content-Disposition", disposition).build();
  return create(std::move(headers), std::move(body));
}

MultipartBody::Builder::Builder() : Builder(randomUuid()) {}

MultipartBody::Builder::Builder(std::string boundary)
    : boundary_(std::move(boundary)), type_(MultipartBody::mixed()) {
  checkBoundary(boundary_);
}

MultipartBody::Builder& MultipartBody::Builder::setType(const MediaType& type) {
  if (type.type() != "multipart") {
    throw std::invalid_argument("multipart != " + type.toString());
  }
  type_ = type;
  return *this;
}

MultipartBody::Builder& MultipartBody::Builder::addPart(std::shared_ptr<RequestBody> body) {
  return addPart(Part::create(std::move(body)));
}

MultipartBody::Builder& MultipartBody::Builder::addPart(Headers headers,
                                                        std::shared_ptr<RequestBody> body) {
  return addPart(Part::create(std::move(headers), std::move(body)));
}

MultipartBody::Builder& MultipartBody::Builder::addPart(Part part) {
  parts_.push_back(std::move(part));
  return *this;
}

MultipartBody::Builder& MultipartBody::Builder::addFormDataPart(std::string_view name,
                                                                std::string_view value) {
  return addPart(Part::createFormData(name, value));
}

MultipartBody::Builder& MultipartBody::Builder::addFormDataPart(
    std::string_view name, std::optional<std::string_view> filename,
    std::shared_ptr<RequestBody> body) {
  return addPart(Part::createFormData(name, filename, std::move(body)));
}

std::shared_ptr<MultipartBody> MultipartBody::Builder::build() const {
  if (parts_.empty()) throw std::logic_error("Multipart body must have at least one part.");
  return std::make_shared<MultipartBody>(Key{}, boundary_, type_, parts_);
}

}  // namespace tern
