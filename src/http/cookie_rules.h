// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#pragma once

#include <string_view>

namespace tern::internal {

// The matching rules of RFC 6265 that Cookie and the jars share.

// True if `host` domain-matches `domain` (§5.1.3): equal, or a subdomain of it (never for an IP
// address host). Both canonical (lowercase, no leading dot).
bool cookieDomainMatch(std::string_view host, std::string_view domain);

// True if the request path `path` path-matches the cookie path `cookiePath` (§5.1.4).
bool cookiePathMatch(std::string_view path, std::string_view cookiePath);

}  // namespace tern::internal
