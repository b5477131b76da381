// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
// Reads a cache entry's metadata (value 0 of an HTTP cache entry, OkHttp's format) from the
// input. Beyond "no crash, no hang, no out-of-bounds read" it checks that reading ends in an
// IOException or an entry that survives a round trip: written and read again it is the same
// entry, field by field, and written again it is the same bytes. The entry must also make a
// response, and match the request that response carries.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <optional>
#include <string>
#include <string_view>

#include "cache/cache_entry.h"
#include "tern/buffer.h"
#include "tern/buffered_sink.h"
#include "tern/exceptions.h"

namespace {

using tern::internal::CacheEntry;

void check(bool condition) {
  if (!condition) std::abort();
}

std::string write(const CacheEntry& entry) {
  tern::Buffer buffer;
  entry.writeTo(buffer);  // Anything read must be writable: no exception here.
  return buffer.readUtf8();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  tern::Buffer input;
  input.writeUtf8(std::string_view(reinterpret_cast<const char*>(data), size));
  std::optional<CacheEntry> entry;
  try {
    entry.emplace(CacheEntry::readFrom(input));
  } catch (const tern::IOException&) {
    return 0;  // A clear error is an acceptable end; any other exception is a finding.
  }

  std::string bytes = write(*entry);
  tern::Buffer again;
  again.writeUtf8(bytes);
  CacheEntry back = CacheEntry::readFrom(again);
  check(again.size() == 0);  // It read exactly what was written.
  check(back.url() == entry->url());
  check(back.requestMethod() == entry->requestMethod());
  check(back.varyHeaders() == entry->varyHeaders());
  check(back.protocol() == entry->protocol());
  check(back.code() == entry->code());
  check(back.message() == entry->message());
  check(back.responseHeaders() == entry->responseHeaders());
  check(back.sentRequestMillis() == entry->sentRequestMillis());
  check(back.receivedResponseMillis() == entry->receivedResponseMillis());
  check(back.handshake() == entry->handshake());
  check(back == *entry);
  check(write(back) == bytes);

  check(tern::internal::cacheKey(entry->url()).size() == 32);
  tern::internal::hasVaryAll(entry->responseHeaders());
  tern::Response response = entry->responseWithoutBody();
  check(response.code() == entry->code());
  check(entry->matches(response.request(), entry->url()));
  return 0;
}
