// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "tern/buffered_source.h"
#include "tern/headers.h"

namespace tern::internal {

// Reads HTTP/1 header lines (the status line, header fields and trailer fields) from a source
// with one budget for all of them, as OkHttp's HeadersReader: at most kHeaderLimit bytes of line
// content (terminators excluded) over the whole exchange, so a peer cannot make us buffer
// without bound. Not thread-safe; `source` must outlive it.
class HeadersReader {
 public:
  // 256 KiB, OkHttp's limit.
  static constexpr int64_t kHeaderLimit = int64_t{256} * 1024;

  explicit HeadersReader(BufferedSource& source, int64_t headerLimit = kHeaderLimit)
      : source_(source), headerLimit_(headerLimit) {}

  // Reads one line ending in "\n" or "\r\n" and charges its length to the budget. Throws
  // ProtocolException("HTTP header line exceeds the N byte limit") if the line does not fit in
  // what is left of the budget, and EOFException if the stream ends before the line does. The
  // view, without its terminator, is valid until the next call on this reader.
  std::string_view readLine();

  // Reads header lines up to the empty line that ends them, leniently (Headers::Builder::
  // addLenient: servers send obs-text and odd names). An obsolete line folding (RFC 9112 §5.2: a
  // line starting with SP or HTAB) is joined to the previous value with one space. Throws like
  // readLine(). Each field is parsed from a reused line buffer, so the only allocations are the
  // fields' own strings and the list.
  Headers readHeaders();

  // What is left of the budget.
  int64_t remaining() const noexcept { return headerLimit_; }

 private:
  // True if the next buffered line starts with SP or HTAB: an obs-fold continues this field.
  bool nextLineIsFolded();

  // Lines up to this long are copied here rather than into line_, which would allocate.
  static constexpr std::size_t kInlineLine = 256;

  BufferedSource& source_;
  int64_t headerLimit_;
  char inline_[kInlineLine];
  std::string line_;  // Longer lines.
};

}  // namespace tern::internal
