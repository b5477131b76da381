// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstdint>
#include <memory>

#include "tern/export.h"
#include "tern/source.h"

namespace tern {

// A Source that passes every call to another source, as Okio's ForwardingSource. Subclass it
// and override read() to observe or change what flows through, e.g. to count bytes for a
// download progress bar. Not thread-safe.
class TERN_API ForwardingSource : public Source {
 public:
  // Forwards to `delegate` and owns it. Throws std::invalid_argument if it is null.
  explicit ForwardingSource(std::unique_ptr<Source> delegate);

  // Forwards to `delegate` without owning it; `delegate` must outlive this source.
  explicit ForwardingSource(Source& delegate);

  // The source calls are forwarded to.
  Source& delegate() const noexcept { return delegate_; }

  int64_t read(Buffer& sink, int64_t byteCount) override;
  Timeout& timeout() override;
  void close() override;

 private:
  std::unique_ptr<Source> owned_;
  Source& delegate_;
};

}  // namespace tern
