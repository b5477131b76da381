// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#include "tern/headers.h"

#include <algorithm>
#include <stdexcept>

#include "http/http_syntax.h"
#include "tern/http_date.h"

namespace tern {
namespace {

constexpr std::string_view kRedacted = "\xE2\x96\x88\xE2\x96\x88";  // "██" in UTF-8.

}  // namespace

using internal::equalsIgnoreCase;
using internal::trimAsciiWhitespace;

bool CaseInsensitiveLess::operator()(std::string_view a, std::string_view b) const noexcept {
  std::size_t n = std::min(a.size(), b.size());
  for (std::size_t i = 0; i < n; ++i) {
    char x = internal::toLowerAscii(a[i]);
    char y = internal::toLowerAscii(b[i]);
    if (x != y) {
      return static_cast<unsigned char>(x) < static_cast<unsigned char>(y);
    }
  }
  return a.size() < b.size();
}

Headers::Headers(std::vector<value_type> entries)
    : entries_(entries.empty()
                   ? nullptr
                   : std::make_shared<const std::vector<value_type>>(std::move(entries))) {}

Headers::Headers(std::shared_ptr<const std::vector<value_type>> entries)
    : entries_(std::move(entries)) {}

const std::vector<Headers::value_type>& Headers::entries() const noexcept {
  static const std::vector<value_type> kEmpty;
  return entries_ ? *entries_ : kEmpty;
}

Headers Headers::of(std::initializer_list<std::pair<std::string_view, std::string_view>> pairs) {
  return ofPairs(std::vector<std::pair<std::string_view, std::string_view>>(pairs));
}

Headers Headers::ofPairs(const std::vector<std::pair<std::string_view, std::string_view>>& pairs) {
  std::vector<value_type> entries;
  entries.reserve(pairs.size());
  for (const auto& [rawName, rawValue] : pairs) {
    std::string_view name = trimAsciiWhitespace(rawName);
    std::string_view value = trimAsciiWhitespace(rawValue);
    internal::checkHeaderName(name);
    internal::checkHeaderValue(value, name, /*allowNonAscii=*/false);
    entries.emplace_back(std::string(name), std::string(value));
  }
  return Headers(std::move(entries));
}

std::optional<std::string> Headers::get(std::string_view name) const {
  const auto& list = entries();
  for (auto it = list.rbegin(); it != list.rend(); ++it) {
    if (equalsIgnoreCase(it->first, name)) {
      return it->second;
    }
  }
  return std::nullopt;
}

std::optional<std::chrono::system_clock::time_point> Headers::getDate(std::string_view name) const {
  std::optional<std::string> value = get(name);
  if (!value) {
    return std::nullopt;
  }
  return parseHttpDate(*value);
}

const std::string& Headers::name(std::size_t index) const {
  if (index >= size()) {
    throw std::out_of_range("name[" + std::to_string(index) + "]");
  }
  return entries()[index].first;
}

const std::string& Headers::value(std::size_t index) const {
  if (index >= size()) {
    throw std::out_of_range("value[" + std::to_string(index) + "]");
  }
  return entries()[index].second;
}

std::set<std::string, CaseInsensitiveLess> Headers::names() const {
  std::set<std::string, CaseInsensitiveLess> result;
  for (const auto& entry : entries()) {
    result.insert(entry.first);
  }
  return result;
}

std::vector<std::string> Headers::values(std::string_view name) const {
  std::vector<std::string> result;
  for (const auto& entry : entries()) {
    if (equalsIgnoreCase(entry.first, name)) {
      result.push_back(entry.second);
    }
  }
  return result;
}

int64_t Headers::byteCount() const noexcept {
  // Each name has 2 bytes of overhead for ": " and each value 2 bytes for "\r\n".
  int64_t result = 0;
  for (const auto& entry : entries()) {
    result += static_cast<int64_t>(entry.first.size() + entry.second.size()) + 4;
  }
  return result;
}

std::map<std::string, std::vector<std::string>, CaseInsensitiveLess> Headers::toMultimap() const {
  std::map<std::string, std::vector<std::string>, CaseInsensitiveLess> result;
  for (const auto& entry : entries()) {
    result[internal::toLowerAscii(entry.first)].push_back(entry.second);
  }
  return result;
}

Headers::Builder Headers::newBuilder() const {
  Builder result;
  result.shared_ = entries_;  // Copied only if the builder changes it.
  return result;
}

std::string Headers::toString() const {
  std::string result;
  for (const auto& [name, value] : entries()) {
    result += name;
    result += ": ";
    result += internal::isSensitiveHeader(name) ? kRedacted : value;
    result += '\n';
  }
  return result;
}

Headers::Builder& Headers::Builder::add(std::string_view line) {
  std::size_t colon = line.find(':');
  if (colon == std::string_view::npos) {
    throw std::invalid_argument("Unexpected header: " + internal::escapeForMessage(line));
  }
  return add(trimAsciiWhitespace(line.substr(0, colon)), line.substr(colon + 1));
}

Headers::Builder& Headers::Builder::add(std::string_view name, std::string_view value) {
  internal::checkHeaderName(name);
  internal::checkHeaderValue(value, name, /*allowNonAscii=*/false);
  return addLenient(name, value);
}

Headers::Builder& Headers::Builder::add(std::string_view name,
                                        std::chrono::system_clock::time_point date) {
  return add(name, formatHttpDate(date));
}

Headers::Builder& Headers::Builder::addUnsafeNonAscii(std::string_view name,
                                                      std::string_view value) {
  internal::checkHeaderName(name);
  internal::checkHeaderValue(value, name, /*allowNonAscii=*/true);
  return addLenient(name, value);
}

Headers::Builder& Headers::Builder::addAll(const Headers& headers) {
  std::vector<value_type>& entries = mutableEntries();
  entries.insert(entries.end(), headers.begin(), headers.end());
  return *this;
}

Headers::Builder& Headers::Builder::addLenient(std::string_view line) {
  // Search from index 1 so that a leading ':' (SPDY-era cache entries like ":status: 200") stays
  // part of the name.
  std::size_t colon = line.size() > 1 ? line.find(':', 1) : std::string_view::npos;
  if (colon != std::string_view::npos) {
    return addLenient(line.substr(0, colon), line.substr(colon + 1));
  }
  if (!line.empty() && line[0] == ':') {
    return addLenient("", line.substr(1));
  }
  return addLenient("", line);
}

Headers::Builder& Headers::Builder::addLenient(std::string_view name, std::string_view value) {
  mutableEntries().emplace_back(std::string(name), std::string(trimAsciiWhitespace(value)));
  return *this;
}

Headers::Builder& Headers::Builder::set(std::string_view name, std::string_view value) {
  internal::checkHeaderName(name);
  internal::checkHeaderValue(value, name, /*allowNonAscii=*/false);
  removeAll(name);
  return addLenient(name, value);
}

Headers::Builder& Headers::Builder::set(std::string_view name,
                                        std::chrono::system_clock::time_point date) {
  return set(name, formatHttpDate(date));
}

Headers::Builder& Headers::Builder::removeAll(std::string_view name) {
  std::erase_if(mutableEntries(),
                [&](const value_type& entry) { return equalsIgnoreCase(entry.first, name); });
  return *this;
}

std::optional<std::string> Headers::Builder::get(std::string_view name) const {
  const std::vector<value_type>& entries = shared_ ? *shared_ : entries_;
  for (auto it = entries.rbegin(); it != entries.rend(); ++it) {
    if (equalsIgnoreCase(it->first, name)) {
      return it->second;
    }
  }
  return std::nullopt;
}

std::vector<Headers::value_type>& Headers::Builder::mutableEntries() {
  if (shared_) {
    entries_.reserve(shared_->size() + kMinCapacity / 2);
    entries_.assign(shared_->begin(), shared_->end());
    shared_.reset();
  } else if (entries_.capacity() == 0) {
    entries_.reserve(kMinCapacity);  // One allocation for a typical message's fields.
  }
  return entries_;
}

Headers Headers::Builder::build() const& { return shared_ ? Headers(shared_) : Headers(entries_); }

Headers Headers::Builder::build() && {
  return shared_ ? Headers(std::move(shared_)) : Headers(std::move(entries_));
}

}  // namespace tern
