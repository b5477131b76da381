// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstdint>
#include <memory>

#include "tern/export.h"
#include "tern/sink.h"

namespace tern {

// A Sink that passes every call to another sink, as Okio's ForwardingSink. Subclass it and
// override write() to observe or change what flows through, e.g. to count bytes for an upload
// progress bar. Not thread-safe.
class TERN_API ForwardingSink : public Sink {
 public:
  // Forwards to `delegate` and owns it. Throws std::invalid_argument if it is null.
  explicit ForwardingSink(std::unique_ptr<Sink> delegate);

  // Forwards to `delegate` without owning it; `delegate` must outlive this sink.
  explicit ForwardingSink(Sink& delegate);

  // The sink calls are forwarded to.
  Sink& delegate() const noexcept { return delegate_; }

  void write(Buffer& source, int64_t byteCount) override;
  void flush() override;
  Timeout& timeout() override;
  void close() override;

 private:
  std::unique_ptr<Sink> owned_;
  Sink& delegate_;
};

}  // namespace tern
