// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#pragma once

#include <chrono>
#include <memory>

#include "connection/connection_settings.h"

namespace tern::internal {

class RouteDatabase;

// How to open a connection to an address when no call asks for it: what a pool's address
// policy (RealConnectionPool::setPolicy) connects with. The Client that makes an Address attaches
// its own (AddressAccess::withConnectSettings), so a warm connection is made exactly as the
// client's calls would make it: the same timeouts, TLS fallback, fast fallback and route
// database. Not part of the Address's equality: it says how to connect, not where.
struct AddressConnectSettings {
  ConnectionSettings settings;
  // The client's defaults (a call's own may differ: an interceptor chain can change them). The
  // read and write timeouts only shape the codec the warming discards.
  std::chrono::milliseconds connectTimeout{10'000};
  std::chrono::milliseconds readTimeout{10'000};
  std::chrono::milliseconds writeTimeout{10'000};
  // The client's, while it lives. Weak: the route database keeps failed routes, whose addresses
  // hold these settings (a strong reference would be a cycle, never freed).
  std::weak_ptr<RouteDatabase> routeDatabase;
};

}  // namespace tern::internal
