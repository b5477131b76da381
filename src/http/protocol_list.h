// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#pragma once

#include <vector>

#include "tern/export.h"
#include "tern/protocol.h"

namespace tern::internal {

// `protocols` without duplicates (first occurrence kept), checked by OkHttp's rules for a
// client's (and MockWebServer's) protocol list: h2_prior_knowledge alone, or else http/1.1 among
// them as the fallback, and never http/1.0. h3 may stand beside http/1.1 and h2 (found by
// Alt-Svc, so TCP still needs its fallback), or alone (HTTP/3 only, no TCP at all). Throws
// std::invalid_argument naming the list.
TERN_INTERNAL_API std::vector<Protocol> checkedProtocolList(const std::vector<Protocol>& protocols);

}  // namespace tern::internal
