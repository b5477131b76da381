// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#include "support/test_data.h"

#include <fstream>
#include <sstream>
#include <stdexcept>

namespace tern::testing {

std::string readTestData(const std::string& name) {
  std::ifstream in(testDataPath(name), std::ios::binary);
  if (!in) throw std::runtime_error("missing test data file: " + testDataPath(name));
  std::ostringstream out;
  out << in.rdbuf();
  return out.str();
}

}  // namespace tern::testing
