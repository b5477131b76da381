// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#pragma once

#include <memory>
#include <optional>
#include <vector>

#include "tern/address.h"
#include "tern/http_url.h"

namespace tern::internal {

class TlsContext;
struct AddressConnectSettings;

// Makes the Address of each call cheaply: a client keeps one prototype address per scheme, and
// each call's address shares its settings, only the origin differs.
struct AddressAccess {
  // An address for the origin (scheme, host, port) of `url`, with `prototype`'s settings.
  // `url` must have `prototype`'s scheme.
  static Address withOrigin(const Address& prototype, const HttpUrl& url);

  // A copy of `address` whose HTTPS proxies are trusted through `proxySslContext`.
  static Address withProxySslContext(const Address& address,
                                     std::shared_ptr<TlsContext> proxySslContext);
  // A copy of `address` whose connections go to `unixSocket` (nullopt: over TCP) and, over TCP,
  // where `connectTo`'s rules send them.
  static Address withConnectTargets(const Address& address,
                                    std::optional<InetSocketAddress> unixSocket,
                                    std::vector<ConnectTo> connectTo);
  // The TLS context for an HTTPS proxy's certificate, or null (then the system's trust).
  static const std::shared_ptr<TlsContext>& proxySslContext(const Address& address);

  // A copy of `address` that a pool's address policy connects to with `connectSettings` (the
  // client's; see AddressConnectSettings).
  static Address withConnectSettings(const Address& address,
                                     std::shared_ptr<const AddressConnectSettings> connectSettings);
  // The settings to connect to `address` with no call, or null if no Client made it.
  static const std::shared_ptr<const AddressConnectSettings>& connectSettings(
      const Address& address);
};

}  // namespace tern::internal
