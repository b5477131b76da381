// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace tern::internal {

// An IPv6 address as its eight 16-bit pieces, most significant first.
using Ipv6Address = std::array<uint16_t, 8>;

// The WHATWG URL Standard's "ends in a number checker" (§3.5): true if the last label of `domain`
// (ignoring one trailing dot) is all digits or "0x" followed by hex digits, so the host must be
// parsed as an IPv4 address ("1.2.3.4", "0x7f.1", "foo.09" which then fails).
bool endsInANumber(std::string_view domain) noexcept;

// The WHATWG IPv4 parser (§3.5): one to four dot-separated parts, each decimal, octal ("0" prefix)
// or hex ("0x" prefix); all but the last at most 255, the last filling the remaining bytes; one
// trailing dot allowed. std::nullopt on failure. Never overflows, whatever the input's length.
std::optional<uint32_t> parseIpv4(std::string_view input) noexcept;

// Dotted decimal: "127.0.0.1".
std::string serializeIpv4(uint32_t address);

// The WHATWG IPv6 parser (§3.5): hex pieces, one "::" compression, an optional trailing embedded
// IPv4 address in strict dotted decimal. `input` is the text between the brackets.
std::optional<Ipv6Address> parseIpv6(std::string_view input) noexcept;

// The WHATWG IPv6 serializer (§3.6), which follows RFC 5952 §4: lowercase hex without leading
// zeros, the first longest run of two or more zero pieces compressed to "::". No brackets, and an
// embedded IPv4 address is written as hex pieces ("::ffff:c000:280").
std::string serializeIpv6(const Ipv6Address& address);

}  // namespace tern::internal
