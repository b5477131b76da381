// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#include "tern/protocol.h"

#include <ostream>
#include <string>

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
  }
  return "http/1.1";
}

Protocol parseProtocol(std::string_view identifier) {
  for (Protocol p :
       {Protocol::HTTP_1_0, Protocol::HTTP_1_1, Protocol::HTTP_2, Protocol::H2_PRIOR_KNOWLEDGE}) {
    if (toString(p) == identifier) return p;
  }
  throw IOException("Unexpected protocol: " + std::string(identifier));
}

std::ostream& operator<<(std::ostream& out, Protocol protocol) { return out << toString(protocol); }

}  // namespace tern
