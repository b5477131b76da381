// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#pragma once

#include <string>
#include <string_view>

#include "tern/headers.h"
#include "tern/protocol.h"
#include "tern/request.h"

namespace tern::tool {

// HTTP messages as text, the way curl shows them with -i, -I and -v.

// "HTTP/1.1", "HTTP/1.0" or "HTTP/2".
std::string_view httpVersionText(Protocol protocol);

// A response's head as received: "HTTP/1.1 200 OK\r\n", one "Name: value\r\n" per header, then
// "\r\n". Its length is what curl counts in %{size_header}.
std::string responseHead(Protocol protocol, int code, std::string_view message,
                         const Headers& headers);

// A request's head as curl -v shows it: "GET /path?query HTTP/1.1\r\n", the headers, "\r\n".
// Over HTTP/2 (`protocol` HTTP_2 or H2_PRIOR_KNOWLEDGE) the line ends "HTTP/2" and the
// connection-specific headers HTTP/2 does not send (Connection, Keep-Alive, ...) are left out.
// Through an HTTP proxy without a tunnel (`usesHttpProxy`), an http URL's line names the whole
// URL ("GET http://host/path HTTP/1.1"), as it is sent.
std::string requestHead(const Request& request, Protocol protocol = Protocol::HTTP_1_1,
                        bool usesHttpProxy = false);

}  // namespace tern::tool
