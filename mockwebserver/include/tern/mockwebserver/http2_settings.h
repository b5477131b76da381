// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstdint>
#include <optional>

#include "tern/export.h"

namespace tern::mockwebserver {

// HTTP/2 SETTINGS (RFC 9113 §6.5.2) that MockWebServer sends on an HTTP/2 connection before a
// response's headers (MockResponse::Builder::settings()), as OkHttp's MockResponse.settings. Only
// the values set are sent; an empty Http2Settings sends no SETTINGS frame. A client applies them
// to the whole connection, so they shape every stream that follows: a lower
// maxConcurrentStreams makes the client open further streams on another connection.
struct TERN_API Http2Settings {
  std::optional<uint32_t> headerTableSize;
  std::optional<uint32_t> maxConcurrentStreams;
  std::optional<uint32_t> initialWindowSize;
  std::optional<uint32_t> maxFrameSize;
  std::optional<uint32_t> maxHeaderListSize;

  // True if no value is set.
  bool empty() const noexcept {
    return !headerTableSize && !maxConcurrentStreams && !initialWindowSize && !maxFrameSize &&
           !maxHeaderListSize;
  }

  bool operator==(const Http2Settings&) const = default;
};

}  // namespace tern::mockwebserver
