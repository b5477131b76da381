// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace tern::internal {

// The WHATWG URL Standard's "domain to ASCII" with beStrict false (§3.3): UTS #46 ToASCII with
// CheckHyphens=false, CheckBidi=true, CheckJoiners=true, UseSTD3ASCIIRules=false,
// Transitional_Processing=false, VerifyDnsLength=false and IgnoreInvalidPunycode=false; then the
// result must be non-empty and free of forbidden domain code points. `domain` must be valid UTF-8.
// Returns the lowercase ASCII domain, or std::nullopt on failure.
//
// An all-ASCII domain is lowercased without further IDNA processing (its "xn--" labels are not
// decoded), as the URL Standard's conformance tests expect. Other labels go through libidn2; where
// libidn2 is stricter than UTS #46 (IDNA2008 rules, hyphen and length checks) this compensates as
// far as libidn2's API allows; see idna.cc for what remains. To bound the work per host, a
// non-ASCII domain over 16 KiB or with a label over 1024 code points is rejected.
std::optional<std::string> domainToAscii(std::string_view domain);

// True for the URL Standard's forbidden domain code points: the forbidden host code points, C0
// controls, "%" and DEL.
bool isForbiddenDomainCodePoint(unsigned char c) noexcept;

}  // namespace tern::internal
