// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#include "tern/forwarding_sink.h"

#include <stdexcept>

namespace tern {

namespace {
Sink& checkNotNull(const std::unique_ptr<Sink>& delegate) {
  if (delegate == nullptr) {
    throw std::invalid_argument("ForwardingSink: delegate is null");
  }
  return *delegate;
}
}  // namespace

ForwardingSink::ForwardingSink(std::unique_ptr<Sink> delegate)
    : owned_(std::move(delegate)), delegate_(checkNotNull(owned_)) {}

ForwardingSink::ForwardingSink(Sink& delegate) : delegate_(delegate) {}

void ForwardingSink::write(Buffer& source, int64_t byteCount) {
  delegate_.write(source, byteCount);
}

void ForwardingSink::flush() { delegate_.flush(); }

Timeout& ForwardingSink::timeout() { return delegate_.timeout(); }

void ForwardingSink::close() { delegate_.close(); }

}  // namespace tern
