// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#pragma once

#include <exception>

namespace tern::internal {

// A new exception of the same tern type and message as `e` (an IOException subtype; anything
// else becomes IOException(what())). A stream's failure is thrown to more than one thread (the
// body reader, a duplex writer) and outlives each throw: each throw gets its own copy, so no
// exception object is shared between threads.
std::exception_ptr copyOf(const std::exception_ptr& e);

}  // namespace tern::internal
