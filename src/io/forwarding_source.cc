// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#include "tern/forwarding_source.h"

#include <stdexcept>

namespace tern {

namespace {
Source& checkNotNull(const std::unique_ptr<Source>& delegate) {
  if (delegate == nullptr) {
    throw std::invalid_argument("ForwardingSource: delegate is null");
  }
  return *delegate;
}
}  // namespace

ForwardingSource::ForwardingSource(std::unique_ptr<Source> delegate)
    : owned_(std::move(delegate)), delegate_(checkNotNull(owned_)) {}

ForwardingSource::ForwardingSource(Source& delegate) : delegate_(delegate) {}

int64_t ForwardingSource::read(Buffer& sink, int64_t byteCount) {
  return delegate_.read(sink, byteCount);
}

Timeout& ForwardingSource::timeout() { return delegate_.timeout(); }

void ForwardingSource::close() { delegate_.close(); }

}  // namespace tern
