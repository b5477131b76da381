// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstddef>
#include <string>

#include "tern/buffer.h"

namespace tern::internal {

// Lowercase hex of one byte, always two digits ("0a").
std::string hexByte(std::byte b);

// Lowercase hex of every byte in `buffer`, without consuming them.
std::string hex(const Buffer& buffer);

// The value of a hex digit [0-9a-fA-F], or -1 if `b` is not one.
int hexDigitValue(std::byte b);

}  // namespace tern::internal
