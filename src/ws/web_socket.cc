// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#include "tern/web_socket.h"

namespace tern {

// Every callback does nothing unless overridden.
void WebSocketListener::onOpen(WebSocket&, const Response&) {}
void WebSocketListener::onMessage(WebSocket&, const std::string&) {}
void WebSocketListener::onMessage(WebSocket&, const std::vector<std::byte>&) {}
void WebSocketListener::onClosing(WebSocket&, int, const std::string&) {}
void WebSocketListener::onClosed(WebSocket&, int, const std::string&) {}
void WebSocketListener::onFailure(WebSocket&, const IOException&, const Response*) {}

}  // namespace tern
