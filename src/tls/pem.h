// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace tern::internal {

// One PEM block (RFC 7468): "-----BEGIN LABEL-----", base64 of `der`, "-----END LABEL-----".
struct PemBlock {
  std::string label;  // "CERTIFICATE", "PRIVATE KEY", ...
  std::vector<uint8_t> der;
};

// Every PEM block in `text`, in order. Text between blocks is ignored (RFC 7468 §2 explanatory
// text). Throws std::invalid_argument naming the problem: a BEGIN line without its END line
// ("unterminated PEM block CERTIFICATE"), a malformed BEGIN line, RFC 1421 headers (encrypted
// legacy keys), or a body that is not base64. Runs in time linear in `text`.
std::vector<PemBlock> decodePemBlocks(std::string_view text);

// "-----BEGIN LABEL-----\n" + base64 of `der` in lines of 64 + "-----END LABEL-----\n", the form
// RFC 7468 §3 calls strict.
std::string encodePem(std::string_view label, std::span<const uint8_t> der);

}  // namespace tern::internal
