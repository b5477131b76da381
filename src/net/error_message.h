// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#pragma once

#include <string>
#include <system_error>

namespace tern::internal {

// strerror() for an errno value, but thread-safe: "Connection refused". Callers copy errno into
// a local first, because building the rest of a message may allocate and change errno.
inline std::string errorMessage(int error) { return std::generic_category().message(error); }

}  // namespace tern::internal
