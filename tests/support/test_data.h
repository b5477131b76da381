// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#pragma once

#include <string>

namespace tern::testing {

// The absolute path of a file under tests/data/, where tests keep the public data they use.
inline std::string testDataPath(const std::string& name) {
  return std::string(TERN_TEST_DATA_DIR) + "/" + name;
}

// The whole contents of a file under tests/data/; throws std::runtime_error if it is missing.
std::string readTestData(const std::string& name);

}  // namespace tern::testing
