// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#pragma once

#include "tern/address.h"
#include "tern/http_url.h"

namespace tern::internal {

// Makes the Address of each call cheaply: a client keeps one prototype address per scheme, and
// each call's address shares its settings, only the origin differs.
struct AddressAccess {
  // An address for the origin (scheme, host, port) of `url`, with `prototype`'s settings.
  // `url` must have `prototype`'s scheme.
  static Address withOrigin(const Address& prototype, const HttpUrl& url);
};

}  // namespace tern::internal
