// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "tern/address.h"

namespace tern::tool {

// --connect-to's lines, "HOST1:PORT1:HOST2:PORT2", read as curl 7.88 reads them (url.c's
// parse_connect_to_slist()): a transfer to HOST1 at PORT1 connects to HOST2 at PORT2 instead;
// an empty HOST1 or PORT1 matches any, an empty HOST2 or PORT2 keeps the URL's, IPv6 addresses
// go in brackets ("[::1]"). The first line that matches and changes something wins. As curl, a
// line is only judged when it matches: HOST2:PORT2 with a bad port then fails the transfer (exit
// 49), and a line that cannot match (no PORT1 number, too few colons) is never used.
class ConnectToTable {
 public:
  explicit ConnectToTable(const std::vector<std::string>& lines);

  // The rules for Client::Builder::connectTo(): every line that can match and parses, in order.
  const std::vector<ConnectTo>& rules() const { return rules_; }

  // The rule a transfer to `host` and `port` connects by, or nullopt for none. Throws
  // ToolException (49, "No valid port number in connect to host string (PORT2)") when the line
  // that matches first has a bad port.
  std::optional<ConnectTo> match(const std::string& host, int port) const;

 private:
  struct Line {
    ConnectTo rule;
    std::string badPort;  // The PORT2 text when it does not parse.
  };
  std::vector<Line> lines_;
  std::vector<ConnectTo> rules_;
};

}  // namespace tern::tool
