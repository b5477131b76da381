// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace tern::internal {

// The WHATWG URL Standard's host parser (§3.5) for special URLs: "[...]" is an IPv6 address;
// anything else is percent-decoded, must be UTF-8, goes through domain to ASCII (IDNA), and is an
// IPv4 address if it ends in a number. Returns the serialized host: a domain, dotted-decimal IPv4,
// or "[...]" IPv6; std::nullopt if the host is not valid. `input` must not be empty.
std::optional<std::string> parseHost(std::string_view input);

// True for a serialized IPv4 or IPv6 host (as parseHost returns, with or without brackets).
bool isIpAddressHost(std::string_view host) noexcept;

}  // namespace tern::internal
