// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#include "url/public_suffix.h"

#include <libpsl.h>

#include <memory>

namespace tern::internal {
namespace {

struct PslDeleter {
  void operator()(psl_ctx_t* ctx) const noexcept { psl_free(ctx); }
};

// The list to consult: psl_latest() picks the newest of the system's list and the built-in one.
// Loaded once; libpsl lookups on a loaded context are read-only and thread-safe.
const psl_ctx_t* publicSuffixList() {
  static const std::unique_ptr<psl_ctx_t, PslDeleter> latest(psl_latest(nullptr));
  return latest ? latest.get() : psl_builtin();
}

}  // namespace

std::optional<std::string> registrableDomain(std::string_view domain) {
  const psl_ctx_t* psl = publicSuffixList();
  if (psl == nullptr || domain.empty()) {
    return std::nullopt;
  }
  const std::string host(domain);
  const char* registrable = psl_registrable_domain(psl, host.c_str());
  if (registrable == nullptr) {
    return std::nullopt;
  }
  return std::string(registrable);
}

}  // namespace tern::internal
