// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#include "tern/protocol.h"

#include <algorithm>
#include <ostream>
#include <stdexcept>
#include <string>

#include "http/protocol_list.h"
#include "tern/exceptions.h"

namespace tern {

std::string_view toString(Protocol protocol) noexcept {
  switch (protocol) {
    case Protocol::HTTP_1_0:
      return "http/1.0";
    case Protocol::HTTP_1_1:
      return "http/1.1";
    case Protocol::HTTP_2:
      return "h2";
    case Protocol::H2_PRIOR_KNOWLEDGE:
      return "h2_prior_knowledge";
    case Protocol::HTTP_3:
      return "h3";
  }
  return "http/1.1";
}

Protocol parseProtocol(std::string_view identifier) {
  for (Protocol p : {Protocol::HTTP_1_0, Protocol::HTTP_1_1, Protocol::HTTP_2,
                     Protocol::H2_PRIOR_KNOWLEDGE, Protocol::HTTP_3}) {
    if (toString(p) == identifier) return p;
  }
  throw IOException("Unexpected protocol: " + std::string(identifier));
}

std::ostream& operator<<(std::ostream& out, Protocol protocol) { return out << toString(protocol); }

}  // namespace tern

namespace tern::internal {

std::vector<Protocol> checkedProtocolList(const std::vector<Protocol>& protocols) {
  std::vector<Protocol> unique;
  for (Protocol protocol : protocols) {
    if (std::find(unique.begin(), unique.end(), protocol) == unique.end()) {
      unique.push_back(protocol);
    }
  }
  auto has = [&](Protocol p) { return std::find(unique.begin(), unique.end(), p) != unique.end(); };
  std::string list = "[";
  for (Protocol protocol : unique) {
    list += (list.size() > 1 ? ", " : "") + std::string(toString(protocol));
  }
  list += "]";
  // OkHttp's rules: prior knowledge alone (it cannot fall back), else HTTP/1.1 as the fallback.
  if (has(Protocol::H2_PRIOR_KNOWLEDGE)) {
    if (unique.size() > 1) {
      throw std::invalid_argument(
          "protocols containing h2_prior_knowledge cannot use other protocols: " + list);
    }
  } else if (!has(Protocol::HTTP_1_1) && !(has(Protocol::HTTP_3) && unique.size() == 1)) {
    throw std::invalid_argument(
        "protocols must contain h2_prior_knowledge, http/1.1, or be h3 alone: " + list);
  }
  if (has(Protocol::HTTP_1_0)) {
    throw std::invalid_argument("protocols must not contain http/1.0: " + list);
  }
  return unique;
}

}  // namespace tern::internal
