// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#include "tern/form_body.h"

#include <stdexcept>
#include <utility>

#include "tern/buffered_sink.h"
#include "url/percent_encoding.h"

namespace tern {
namespace {

// What a form encodes (OkHttp's FORM_ENCODE_SET): the query component set plus '+', which in a
// form means a space.
constexpr internal::EncodeSet kFormEncodeSet = internal::kQueryComponentEncodeSet.plus("+");

const std::string& at(const std::vector<std::string>& list, size_t index, const char* what) {
  if (index >= list.size()) {
    throw std::out_of_range(std::string("FormBody::") + what + ": index " + std::to_string(index) +
                            " >= size " + std::to_string(list.size()));
  }
  return list[index];
}

}  // namespace

FormBody::FormBody(Key, std::vector<std::string> encodedNames,
                   std::vector<std::string> encodedValues)
    : encodedNames_(std::move(encodedNames)), encodedValues_(std::move(encodedValues)) {}

const std::string& FormBody::encodedName(size_t index) const {
  return at(encodedNames_, index, "encodedName");
}

std::string FormBody::name(size_t index) const {
  return internal::percentDecode(encodedName(index), /*plusIsSpace=*/true);
}

const std::string& FormBody::encodedValue(size_t index) const {
  return at(encodedValues_, index, "encodedValue");
}

std::string FormBody::value(size_t index) const {
  return internal::percentDecode(encodedValue(index), /*plusIsSpace=*/true);
}

std::optional<MediaType> FormBody::contentType() const {
  return MediaType::get("application/x-www-form-urlencoded");
}

std::string FormBody::encoded() const {
  std::string out;
  for (size_t i = 0; i < encodedNames_.size(); ++i) {
    if (i > 0) out += '&';
    out += encodedNames_[i];
    out += '=';
    out += encodedValues_[i];
  }
  return out;
}

int64_t FormBody::contentLength() const { return static_cast<int64_t>(encoded().size()); }

void FormBody::writeTo(BufferedSink& sink) { sink.writeUtf8(encoded()); }

FormBody::Builder& FormBody::Builder::add(std::string_view name, std::string_view value) {
  names_.push_back(internal::canonicalize(name, kFormEncodeSet, /*alreadyEncoded=*/false,
                                          /*plusIsSpace=*/false));
  values_.push_back(internal::canonicalize(value, kFormEncodeSet, /*alreadyEncoded=*/false,
                                           /*plusIsSpace=*/false));
  return *this;
}

FormBody::Builder& FormBody::Builder::addEncoded(std::string_view name, std::string_view value) {
  names_.push_back(internal::canonicalize(name, kFormEncodeSet, /*alreadyEncoded=*/true,
                                          /*plusIsSpace=*/true));
  values_.push_back(internal::canonicalize(value, kFormEncodeSet, /*alreadyEncoded=*/true,
                                           /*plusIsSpace=*/true));
  return *this;
}

std::shared_ptr<FormBody> FormBody::Builder::build() const {
  return std::make_shared<FormBody>(Key{}, names_, values_);
}

}  // namespace tern
