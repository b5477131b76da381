// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "options.h"
#include "tern/headers.h"
#include "tern/http_url.h"
#include "tern/request.h"
#include "tern/request_body.h"

namespace tern::tool {

// Parses a URL from the command line. As curl, a URL without "scheme://" is taken as http.
// Throws ToolException: exit 1 for a scheme other than http and https, 3 for a malformed URL.
HttpUrl parseCommandLineUrl(std::string_view url);

// The request curl would send for `url` with `options`:
// - the method: -X, else HEAD for -I, POST for -d or -F, else GET;
// - headers: "User-Agent: tern/VERSION" (-A replaces it, -A "" drops it), "Accept: */*",
//   "Authorization: Basic ..." for -u; then -H lines as curl reads them: "Name: value" replaces
//   a header tern sets and otherwise adds one, "Name:" drops it, "Name;" sends it empty, a line
//   with neither ':' nor ';' is ignored;
// - the body: -d data as application/x-www-form-urlencoded (or the -H Content-Type), -F fields
//   as multipart/form-data, an empty body for -X POST and the like without data.
// Throws ToolException: as parseCommandLineUrl; 26 if a -F file cannot be read; 43 for a header,
// method or type tern cannot send (including a body with GET or HEAD, which tern does not send).
Request buildRequest(const Options& options, std::string_view url);

// The empty body tern's Request needs for POST, PUT and the like when curl sends no body (-X PUT
// without data, or after a redirect dropped the data): one instance, so the network observer can
// tell it from an empty -d "" and send no Content-Length for it, as curl does.
const std::shared_ptr<RequestBody>& placeholderBody();

// True for the methods tern's Request refuses without a body (POST, PUT, PATCH, PROPPATCH,
// REPORT).
bool methodNeedsBody(std::string_view method);

// "login:password" for `host` from the netrc file `path` (its "machine" entry, else its
// "default"), or nullopt if it has none or cannot be read.
std::optional<std::string> netrcLogin(const std::string& path, std::string_view host);

// The Accept-Encoding --compressed sends: curl 7.88's with brotli and zstd built in.
inline constexpr const char* kCompressedAcceptEncoding = "deflate, gzip, br, zstd";

// The method curl implies without -X: HEAD for -I, POST for -d or -F, else GET.
std::string impliedMethod(const Options& options);

// The headers the client is about to send (after its Bridge added Host, Connection,
// Accept-Encoding, Content-Length ...), reshaped to what curl sends: Host, Authorization,
// User-Agent, Accept, Accept-Encoding (only with --compressed), the -H headers in their order,
// Content-Length, Content-Type, then the rest; no "Connection: Keep-Alive" (HTTP/1.1's
// default, which curl does not send), and nothing -H "Name:" dropped.
// `placeholder` says the request's body is placeholderBody(): no Content-Length then.
Headers curlRequestHeaders(const Headers& sent, const Options& options, bool placeholder = false);

// The names of headers that -H "Name:" drops and that the client would add by itself (Host,
// Connection, Accept-Encoding, User-Agent), so a network interceptor can remove them after the
// client adds them. Content-Length and Transfer-Encoding are never dropped: they frame the body.
std::vector<std::string> droppedClientHeaders(const Options& options);

// The Authorization value for -u "user:password": "Basic " and base64 of the UTF-8 bytes (RFC 7617
// §2). A value without ':' is a user with an empty password.
std::string basicAuthorization(std::string_view userAndPassword);

// "tern/VERSION", the User-Agent tern sends unless -A says otherwise.
std::string defaultUserAgent();

}  // namespace tern::tool
