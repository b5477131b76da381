// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstddef>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "tern/export.h"
#include "tern/request_body.h"

namespace tern {

// An HTML form body, "application/x-www-form-urlencoded" (WHATWG URL §5), as OkHttp's FormBody:
// name=value pairs joined by '&', each percent-encoded.
class TERN_API FormBody final : public RequestBody {
 public:
  class Builder;

  // The number of name/value pairs.
  size_t size() const noexcept { return encodedNames_.size(); }

  // The `index`th name or value, as sent (encodedName/encodedValue) or decoded. Throw
  // std::out_of_range unless index < size().
  const std::string& encodedName(size_t index) const;
  std::string name(size_t index) const;
  const std::string& encodedValue(size_t index) const;
  std::string value(size_t index) const;

  // "application/x-www-form-urlencoded".
  std::optional<MediaType> contentType() const override;
  int64_t contentLength() const override;
  void writeTo(BufferedSink& sink) override;

 private:
  struct Key {};  // Only the Builder constructs a FormBody.

 public:
  FormBody(Key, std::vector<std::string> encodedNames, std::vector<std::string> encodedValues);

 private:
  std::string encoded() const;

  const std::vector<std::string> encodedNames_;
  const std::vector<std::string> encodedValues_;
};

// Collects the pairs of a FormBody.
class TERN_API FormBody::Builder {
 public:
  // Adds a pair, percent-encoding both parts: a space becomes "%20", '+' becomes "%2B" and every
  // byte the form encode set holds is escaped, as OkHttp does.
  Builder& add(std::string_view name, std::string_view value);

  // Adds a pair that is already encoded: valid "%XX" escapes and '+' are kept as they are;
  // anything else that must be escaped still is.
  Builder& addEncoded(std::string_view name, std::string_view value);

  std::shared_ptr<FormBody> build() const;

 private:
  std::vector<std::string> names_;
  std::vector<std::string> values_;
};

}  // namespace tern
