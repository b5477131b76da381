// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#pragma once

#include <chrono>

#include "tern/source.h"

namespace tern::internal {

// Reads `source` to its end within `duration`, as Okio's discard/skipAll. Returns false if the
// time ran out or the read failed (an IOException, swallowed). The deadline is also checked
// between reads, so a source that never blocks but never ends cannot hold us. The source's own
// deadline is restored afterwards. Used to finish a body cheaply before giving it up: an
// HTTP/1.1 connection stays reusable, a cached response is completely stored.
bool discard(Source& source, std::chrono::nanoseconds duration);

}  // namespace tern::internal
