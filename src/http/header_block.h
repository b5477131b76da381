// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#pragma once

#include <string>
#include <utility>
#include <vector>

namespace tern::internal {

// A header block as it came off the wire (HTTP/2's HPACK, HTTP/3's QPACK): lower-case names,
// pseudo-headers (":status") first.
using HeaderBlock = std::vector<std::pair<std::string, std::string>>;

}  // namespace tern::internal
