// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#pragma once

#include "tern/client.h"
#include "tern/http_url.h"

namespace tern::internal {

// True if a request to `url` with an Upgrade header (a WebSocket handshake), made on `client`
// now, would go out as an extended CONNECT stream on one of its pooled HTTP/2 connections
// (RFC 8441: the peer announced SETTINGS_ENABLE_CONNECT_PROTOCOL) instead of needing an HTTP/1.1
// connection of its own to switch protocols on.
bool upgradesOverHttp2(const Client& client, const HttpUrl& url);

}  // namespace tern::internal
