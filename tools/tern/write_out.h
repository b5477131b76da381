// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#pragma once

#include <ostream>
#include <string>
#include <string_view>

#include "transfer_info.h"

namespace tern::tool {

// Writes curl's -w/--write-out `format` for one finished transfer. `out` is where the text goes
// first (stdout); "%{stderr}" and "%{stdout}" switch between `err` and `out`, and warnings go to
// `err`.
//
// As curl: "%{name}" is a variable (names ignore case), "%header{name}" the first value of a
// response header, "%%" a percent sign, "\n" "\r" "\t" control characters, "%{onerror}" stops
// the output unless the transfer failed. An unknown variable prints
// "tern: unknown --write-out variable: 'name'" to `err` and nothing to the output; any other
// '%' or '\' sequence is written as it is. Variables: content_type, errormsg, exitcode,
// filename_effective, http_code, http_version, method, num_connects, num_redirects, remote_ip,
// remote_port, response_code, scheme, size_download, size_header, size_upload, time_appconnect,
// time_connect, time_namelookup, time_pretransfer, time_starttransfer, time_total, url,
// url_effective, urlnum.
void writeOut(std::string_view format, const TransferInfo& info, std::ostream& out,
              std::ostream& err);

// The value of write-out variable `name` (already lower-case) for `info`, or nullopt if tern
// does not know the variable. "http_version" is "1" for HTTP/1.0, "1.1" and "2" as curl prints
// them, "0" when there was no response.
std::optional<std::string> writeOutVariable(std::string_view name, const TransferInfo& info);

}  // namespace tern::tool
