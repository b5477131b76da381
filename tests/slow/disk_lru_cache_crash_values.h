// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#pragma once

#include <atomic>
#include <charconv>
#include <cstdint>
#include <cstdio>
#include <string>
#include <string_view>

// What the DiskLruCache crash test (disk_lru_cache_crash_test.cc) and the writer it kills
// (disk_lru_cache_crash_writer.cc) agree on: the keys, a value format that checks itself, and
// the record of each key's state that the writer keeps in a file both processes map.
namespace tern::testing::cache_crash {

inline constexpr int kAppVersion = 201105;
inline constexpr int kValueCount = 2;
// Stable keys are written once before the writer says it is ready, then only read; churn keys
// are edited, replaced, aborted and removed until the writer is killed.
inline constexpr int kStableKeys = 4;
inline constexpr int kChurnKeys = 12;
inline constexpr int kKeys = kStableKeys + kChurnKeys;

// A maxSize that never evicts. Below it the test uses at least kSmallMaxSizeFloor: the writer
// reads a stable key after each operation, so at most 4 churn entries (8.6 KiB each at most) and
// the 4 small stable ones (0.6 KiB each at most) are more recent than the least recent stable
// entry, and an eviction stops before reaching it.
inline constexpr int64_t kRoomForAll = int64_t{1} << 30;
inline constexpr int64_t kSmallMaxSizeFloor = 40 * 1024;

inline std::string keyName(int index) {
  return index < kStableKeys ? "stable-" + std::to_string(index)
                             : "key-" + std::to_string(index - kStableKeys);
}

// One key's record. `acked` is the generation the writer's last completed operation left in
// the cache (kAbsent after a remove). `pending` is set before an operation starts and cleared
// once it has returned: the generation being committed, or kDropping for a remove or an abort.
// Stores go through std::atomic_ref so the compiler keeps their order; a SIGKILL leaves every
// store made so far in the shared page.
struct KeyRecord {
  int64_t acked;
  int64_t pending;
};
inline constexpr int64_t kAbsent = 0;
inline constexpr int64_t kDropping = -1;

struct SharedRecord {
  // For the test's figures: operations the writer completed, and journal compactions it saw.
  int64_t operations;
  int64_t rebuilds;
  KeyRecord keys[kKeys];
};

inline void store(int64_t& field, int64_t value) {
  std::atomic_ref<int64_t>(field).store(value, std::memory_order_seq_cst);
}

inline int64_t load(int64_t& field) {
  return std::atomic_ref<int64_t>(field).load(std::memory_order_seq_cst);
}

inline uint64_t fnv1a(std::string_view bytes) {
  uint64_t hash = 14695981039346656037ull;
  for (unsigned char c : bytes) hash = (hash ^ c) * 1099511628211ull;
  return hash;
}

// Byte `position` of the payload of value `index` of `generation` (generations are unique
// within a cache directory, so no two edits share payloads).
inline char payloadByte(int64_t generation, int index, size_t position) {
  uint64_t x = static_cast<uint64_t>(generation) * 0x9e3779b97f4a7c15ull +
               static_cast<uint64_t>(index) * 0xbf58476d1ce4e5b9ull + position;
  x = (x ^ (x >> 31)) * 0x94d049bb133111ebull;
  return static_cast<char>(x >> 56);
}

// "tern-crash <key> <index> <generation> <payload length>\n", the payload, then the FNV-1a hash
// of everything before it as 16 hex digits and "\n". A value cut short, padded, or taken from
// another key, index or edit fails verifyValue().
inline std::string makeValue(std::string_view key, int index, int64_t generation,
                             size_t payloadLength) {
  std::string value = "tern-crash " + std::string(key) + " " + std::to_string(index) + " " +
                      std::to_string(generation) + " " + std::to_string(payloadLength) + "\n";
  for (size_t i = 0; i < payloadLength; ++i) value += payloadByte(generation, index, i);
  char hash[18];
  std::snprintf(hash, sizeof hash, "%016llx\n", static_cast<unsigned long long>(fnv1a(value)));
  return value + hash;
}

// The generation of a value made by makeValue(key, index, …), or an error saying what is wrong.
struct Verdict {
  int64_t generation = -1;
  std::string error;  // Empty when the value is whole and belongs to key and index.
};

inline Verdict verifyValue(std::string_view value, std::string_view key, int index) {
  auto fail = [&](std::string what) {
    return Verdict{-1, "value " + std::to_string(index) + " of '" + std::string(key) + "' (" +
                           std::to_string(value.size()) + " bytes): " + what};
  };
  size_t headerEnd = value.find('\n');
  if (headerEnd == std::string_view::npos) return fail("no header line");
  std::string_view header = value.substr(0, headerEnd);
  std::string expectedPrefix = "tern-crash " + std::string(key) + " " + std::to_string(index) + " ";
  if (!header.starts_with(expectedPrefix)) {
    return fail("header '" + std::string(header) + "' is not for this key and index");
  }
  std::string_view numbers = header.substr(expectedPrefix.size());
  int64_t generation = 0;
  uint64_t payloadLength = 0;
  auto [afterGeneration, error1] =
      std::from_chars(numbers.data(), numbers.data() + numbers.size(), generation);
  if (error1 != std::errc() || afterGeneration == numbers.data() + numbers.size() ||
      *afterGeneration != ' ') {
    return fail("bad generation in '" + std::string(header) + "'");
  }
  auto [afterLength, error2] =
      std::from_chars(afterGeneration + 1, numbers.data() + numbers.size(), payloadLength);
  if (error2 != std::errc() || afterLength != numbers.data() + numbers.size()) {
    return fail("bad length in '" + std::string(header) + "'");
  }
  size_t expectedSize = headerEnd + 1 + payloadLength + 17;
  if (value.size() != expectedSize) {
    return fail("expected " + std::to_string(expectedSize) + " bytes for generation " +
                std::to_string(generation));
  }
  std::string expected = makeValue(key, index, generation, payloadLength);
  if (value != expected) {
    size_t at = 0;
    while (value[at] == expected[at]) ++at;
    return fail("differs from generation " + std::to_string(generation) + " at byte " +
                std::to_string(at));
  }
  return Verdict{generation, ""};
}

}  // namespace tern::testing::cache_crash
