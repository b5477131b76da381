// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#pragma once

#include <array>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include "tern/export.h"

namespace tern {

// Orders strings ignoring ASCII case ("Content-Type" and "content-type" are equivalent), as header
// names compare (RFC 9110 §5.1). No locale is consulted.
struct TERN_API CaseInsensitiveLess {
  using is_transparent = void;
  bool operator()(std::string_view a, std::string_view b) const noexcept;
};

// The header fields of one HTTP message (RFC 9110 §5): an ordered list of name/value pairs. Names
// compare ignoring case, order is kept, and a name may repeat. A field whose value holds several
// comma-separated values on one line is one value here; splitting is the caller's business (that
// keeps Set-Cookie and dates intact). Values never have leading or trailing whitespace.
//
// Immutable and cheap to copy (copies share one list); safe to read from many threads. Build with
// Headers::Builder or Headers::of.
class TERN_API Headers {
 public:
  class Builder;
  using value_type = std::pair<std::string, std::string>;
  using const_iterator = std::vector<value_type>::const_iterator;
  using iterator = const_iterator;

  // No headers.
  Headers() = default;

  // Headers from name/value pairs, in order: Headers::of({{"Accept", "*/*"}, {"A", "1"}}). Names
  // and values are trimmed, then validated as Builder::add does; throws std::invalid_argument
  // naming the bad header.
  static Headers of(std::initializer_list<std::pair<std::string_view, std::string_view>> pairs);

  // Headers from alternating names and values, as OkHttp's headersOf:
  // Headers::of("Accept", "*/*", "A", "1"). An odd count does not compile. Trimmed and validated
  // as the pair form.
  template <typename... Strings>
  static Headers of(const Strings&... namesAndValues) {
    static_assert((std::is_convertible_v<const Strings&, std::string_view> && ...),
                  "Headers::of expects strings");
    static_assert(sizeof...(Strings) % 2 == 0,
                  "Headers::of expects alternating header names and values");
    const std::array<std::string_view, sizeof...(Strings)> list{
        std::string_view(namesAndValues)...};
    std::vector<std::pair<std::string_view, std::string_view>> pairs;
    for (std::size_t i = 0; i + 1 < list.size(); i += 2) {
      pairs.emplace_back(list[i], list[i + 1]);
    }
    return ofPairs(pairs);
  }

  // The last value of the field `name` (ignoring case), or nullopt if absent.
  std::optional<std::string> get(std::string_view name) const;

  // The last value of `name` parsed as an HTTP date (see tern/http_date.h), or nullopt if it is
  // absent or not a date.
  std::optional<std::chrono::system_clock::time_point> getDate(std::string_view name) const;

  // The number of fields (a name with two values counts twice).
  std::size_t size() const noexcept { return entries().size(); }
  bool empty() const noexcept { return entries().empty(); }

  // The name and value of field `index`, in message order. Throws std::out_of_range past size().
  const std::string& name(std::size_t index) const;
  const std::string& value(std::size_t index) const;

  // The distinct field names, sorted ignoring case; each name as first spelled.
  std::set<std::string, CaseInsensitiveLess> names() const;

  // Every value of `name` (ignoring case), in message order; empty if absent.
  std::vector<std::string> values(std::string_view name) const;

  // The bytes these headers take in HTTP/1.1 ("Name: value\r\n" per field), also roughly their
  // HTTP/2 size before HPACK. A metric: smaller headers are cheaper to send.
  int64_t byteCount() const noexcept;

  // Values grouped by lower-cased name; lookups in the map also ignore case.
  std::map<std::string, std::vector<std::string>, CaseInsensitiveLess> toMultimap() const;

  // A builder holding these fields, to derive modified headers.
  Builder newBuilder() const;

  // Iterates over (name, value) pairs in message order.
  const_iterator begin() const noexcept { return entries().begin(); }
  const_iterator end() const noexcept { return entries().end(); }

  // Same names (same case), same values, same order. Headers that differ only in name case or
  // order are semantically equal but not ==, as in OkHttp.
  bool operator==(const Headers& other) const noexcept { return entries() == other.entries(); }

  // "Name: value\n" per field. Values of Authorization, Cookie, Proxy-Authorization and Set-Cookie
  // are redacted to "██" so headers can be logged safely.
  std::string toString() const;

 private:
  explicit Headers(std::vector<value_type> entries);
  explicit Headers(std::shared_ptr<const std::vector<value_type>> entries);
  static Headers ofPairs(const std::vector<std::pair<std::string_view, std::string_view>>& pairs);
  const std::vector<value_type>& entries() const noexcept;

  std::shared_ptr<const std::vector<value_type>> entries_;  // Null when empty.
};

// Accumulates header fields for a Headers. Not thread-safe; methods return *this for chaining.
// A builder from Headers::newBuilder() shares that list until its first change, so passing
// headers through a builder unchanged (as Request and Response builders do) copies nothing.
class TERN_API Headers::Builder {
 public:
  Builder() = default;

  // Adds a line "Name: value" (a literal colon; whitespace around the name is trimmed). Throws
  // std::invalid_argument if there is no colon or the name or value is invalid.
  Builder& add(std::string_view line);

  // Adds a field. The name must be a non-empty RFC 9110 token; the value may not hold control
  // characters other than HTAB, nor non-ASCII bytes. Throws std::invalid_argument naming the
  // header and the offending character and position (never echoing a sensitive header's value).
  Builder& add(std::string_view name, std::string_view value);

  // Adds a field whose value is `date` formatted as an IMF-fixdate (RFC 9110 §5.6.7).
  Builder& add(std::string_view name, std::chrono::system_clock::time_point date);

  // As add(name, value) but the value may hold non-ASCII bytes (sent as they are, e.g. UTF-8).
  // Control characters are still rejected, so the value cannot split the header line.
  Builder& addUnsafeNonAscii(std::string_view name, std::string_view value);

  // Adds every field of `headers`, in order.
  Builder& addAll(const Headers& headers);

  // For parsers of bytes from a peer or a cache only: adds a received header line without
  // validation, as OkHttp's addLenient. The name ends at the first colon after the first byte; a
  // line that starts with ':' and has no other colon gets an empty name (old SPDY caches wrote
  // such lines); a line with no colon is all value under an empty name. The value is trimmed.
  Builder& addLenient(std::string_view line);

  // For parsers only: adds `name` and the trimmed `value` without validation (servers send
  // obs-text, RFC 9110 §5.5).
  Builder& addLenient(std::string_view name, std::string_view value);

  // Replaces every field named `name` (ignoring case) with one field; validates as add().
  Builder& set(std::string_view name, std::string_view value);
  Builder& set(std::string_view name, std::chrono::system_clock::time_point date);

  // Removes every field named `name`, ignoring case.
  Builder& removeAll(std::string_view name);

  // The last value of `name`, as build().get(name) would return it.
  std::optional<std::string> get(std::string_view name) const;

  Headers build() const&;
  Headers build() &&;

 private:
  friend class Headers;
  static constexpr std::size_t kMinCapacity = 8;
  // The list to change: entries_, after copying the shared list into it if there is one.
  std::vector<value_type>& mutableEntries();

  std::shared_ptr<const std::vector<value_type>> shared_;  // The fields while unchanged, or null.
  std::vector<value_type> entries_;                        // The fields once shared_ is null.
};

}  // namespace tern
