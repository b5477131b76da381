// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#include "connect_to.h"

#include <cctype>
#include <charconv>
#include <string_view>

#include "exit_code.h"
#include "io/ascii.h"

namespace tern::tool {
namespace {

// A whole decimal number in 0..65535, as curl's strtol() checks, else nullopt.
std::optional<int> portNumber(std::string_view text) {
  int port = 0;
  auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), port);
  if (text.empty() || error != std::errc() || end != text.data() + text.size() || port < 0 ||
      port > 65535) {
    return std::nullopt;
  }
  return port;
}

// HOST1 (brackets removed) and the rest after its colon, or nullopt when there is no colon.
std::optional<std::pair<std::string, std::string_view>> splitHost(std::string_view text) {
  size_t colon;
  std::string host;
  if (text.starts_with('[')) {
    size_t close = text.find(']');
    if (close == std::string_view::npos) return std::nullopt;
    host = std::string(text.substr(1, close - 1));
    colon = close + 1;
    if (colon >= text.size() || text[colon] != ':') return std::nullopt;
  } else {
    colon = text.find(':');
    if (colon == std::string_view::npos) return std::nullopt;
    host = std::string(text.substr(0, colon));
  }
  return std::pair(host, text.substr(colon + 1));
}

}  // namespace

ConnectToTable::ConnectToTable(const std::vector<std::string>& lines) {
  for (const std::string& text : lines) {
    std::optional<std::pair<std::string, std::string_view>> first = splitHost(text);
    if (!first) continue;  // Cannot match: curl never uses it.
    Line line;
    line.rule.host = first->first;
    std::string_view rest = first->second;
    size_t colon = rest.find(':');
    if (colon == std::string_view::npos) continue;
    if (colon > 0) {
      std::optional<int> port = portNumber(rest.substr(0, colon));
      if (!port || *port == 0) continue;  // Matches no URL's port.
      line.rule.port = *port;
    }
    // HOST2[:PORT2] (curl's parse_connect_to_host_port()).
    std::string_view target = rest.substr(colon + 1);
    std::string_view portText;
    if (target.starts_with('[')) {
      size_t close = target.find(']');
      line.rule.toHost = std::string(
          target.substr(1, close == std::string_view::npos ? std::string_view::npos : close - 1));
      std::string_view after =
          close == std::string_view::npos ? std::string_view() : target.substr(close + 1);
      if (after.starts_with(':')) portText = after.substr(1);
    } else {
      size_t portColon = target.find(':');
      line.rule.toHost = std::string(target.substr(0, portColon));
      if (portColon != std::string_view::npos) portText = target.substr(portColon + 1);
    }
    if (!portText.empty()) {
      if (std::optional<int> port = portNumber(portText)) {
        line.rule.toPort = *port;
      } else {
        line.badPort = std::string(portText);
      }
    }
    if (line.badPort.empty()) rules_.push_back(line.rule);
    lines_.push_back(std::move(line));
  }
}

std::optional<ConnectTo> ConnectToTable::match(const std::string& host, int port) const {
  for (const Line& line : lines_) {
    const ConnectTo& rule = line.rule;
    if (!rule.host.empty() && !internal::equalsIgnoreCase(rule.host, host)) continue;
    if (rule.port != 0 && rule.port != port) continue;
    if (!line.badPort.empty()) {
      throw ToolException(kExitSetoptOptionSyntax,
                          "No valid port number in connect to host string (" + line.badPort + ")");
    }
    if (rule.toHost.empty() && rule.toPort == 0) continue;  // Keeps both: curl looks on.
    return rule;
  }
  return std::nullopt;
}

}  // namespace tern::tool
