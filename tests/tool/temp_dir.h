// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#pragma once

#include "support/temp_dir.h"

namespace tern::tool::testing {

using ::tern::testing::TempDir;

}  // namespace tern::tool::testing
