// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#pragma once

#include <memory>
#include <ostream>
#include <string>
#include <vector>

#include "call_trace.h"

namespace tern::tool {

// Writes the calls of a run as a waterfall chart in SVG (--waterfall FILE.svg), as a browser's
// network panel draws one: a row per call (`<g class="row">`, labelled with its number and URL),
// and on a time axis shared by every row, coloured segments for what the call spent its time on:
// waiting in the Dispatcher's queue, DNS, connecting, TLS, waiting for the response (request sent,
// no byte back yet), downloading. A call on a pooled connection is marked "reused" (a ring
// where it took the connection); a failed one is labelled in red. Hovering a segment shows its
// name and duration (<title>). A legend explains the colours.
//
// The SVG is standalone (no scripts, no external styles) and well-formed XML: text is escaped.
void writeWaterfall(const std::vector<std::shared_ptr<const CallTrace>>& traces, std::ostream& out);

// The same, into the file `path`. Throws std::runtime_error naming the file if it cannot be
// written.
void writeWaterfallFile(const std::vector<std::shared_ptr<const CallTrace>>& traces,
                        const std::string& path);

}  // namespace tern::tool
