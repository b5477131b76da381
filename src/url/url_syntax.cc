// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#include "url/url_syntax.h"

namespace tern::internal {

bool isSingleDotSegment(std::string_view segment) noexcept {
  return segment == "." || equalsIgnoreCase(segment, "%2e");
}

bool isDoubleDotSegment(std::string_view segment) noexcept {
  return segment == ".." || equalsIgnoreCase(segment, ".%2e") ||
         equalsIgnoreCase(segment, "%2e.") || equalsIgnoreCase(segment, "%2e%2e");
}

std::vector<QueryParameter> splitQuery(std::string_view query) {
  std::vector<QueryParameter> result;
  size_t pos = 0;
  while (true) {
    size_t ampersand = query.find('&', pos);
    if (ampersand == std::string_view::npos) {
      ampersand = query.size();
    }
    const std::string_view parameter = query.substr(pos, ampersand - pos);
    const size_t equals = parameter.find('=');
    if (equals == std::string_view::npos) {
      result.emplace_back(parameter, std::nullopt);
    } else {
      result.emplace_back(parameter.substr(0, equals), parameter.substr(equals + 1));
    }
    if (ampersand == query.size()) {
      return result;
    }
    pos = ampersand + 1;
  }
}

}  // namespace tern::internal
