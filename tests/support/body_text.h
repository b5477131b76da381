// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#pragma once

#include <string>

#include "tern/buffer.h"
#include "tern/request_body.h"

namespace tern::testing {

// The bytes `body` writes, as a string: what a server would receive.
inline std::string writtenBody(RequestBody& body) {
  Buffer buffer;
  body.writeTo(buffer);
  return buffer.readUtf8();
}

}  // namespace tern::testing
