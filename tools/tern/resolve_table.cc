// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#include "resolve_table.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <optional>
#include <string_view>

#include "exit_code.h"

namespace tern::tool {
namespace {

std::string lowerCase(std::string_view text) {
  std::string lower(text);
  std::transform(lower.begin(), lower.end(), lower.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return lower;
}

// "HOST:PORT:ADDR[,ADDR]...", or nullopt.
std::optional<ResolveTable::Entry> parseEntry(const std::string& given) {
  // curl's "+HOST:..." (an entry that may time out of its cache) resolves the same.
  const std::string text = given.starts_with('+') ? given.substr(1) : given;
  size_t hostEnd = text.find(':');
  if (hostEnd == std::string::npos || hostEnd == 0) return std::nullopt;
  size_t portEnd = text.find(':', hostEnd + 1);
  if (portEnd == std::string::npos) return std::nullopt;
  ResolveTable::Entry entry;
  entry.host = lowerCase(std::string_view(text).substr(0, hostEnd));
  std::string_view port = std::string_view(text).substr(hostEnd + 1, portEnd - hostEnd - 1);
  auto [end, error] = std::from_chars(port.data(), port.data() + port.size(), entry.port);
  if (error != std::errc() || end != port.data() + port.size() || entry.port < 0 ||
      entry.port > 65535) {
    return std::nullopt;
  }
  std::string_view addresses = std::string_view(text).substr(portEnd + 1);
  while (!addresses.empty()) {
    size_t comma = addresses.find(',');
    std::string_view address = addresses.substr(0, comma);
    addresses = comma == std::string_view::npos ? std::string_view() : addresses.substr(comma + 1);
    if (address.size() > 2 && address.front() == '[' && address.back() == ']') {
      address = address.substr(1, address.size() - 2);
    }
    std::optional<InetAddress> parsed = InetAddress::parse(address);
    if (!parsed) return std::nullopt;
    entry.addresses.push_back(*parsed);
  }
  if (entry.addresses.empty()) return std::nullopt;
  entry.text = given;
  return entry;
}

}  // namespace

ResolveTable::ResolveTable(const std::vector<std::string>& entries) {
  for (const std::string& text : entries) {
    std::optional<Entry> entry = parseEntry(text);
    if (!entry) {
      if (!badEntry_) badEntry_ = text;
      continue;
    }
    entries_.push_back(std::move(*entry));
  }
}

void ResolveTable::check() const {
  if (badEntry_) {
    throw ToolException(kExitSetoptOptionSyntax,
                        "Couldn't parse CURLOPT_RESOLVE entry '" + *badEntry_ + "'");
  }
}

void ResolveTable::use(const std::string& host, int port) {
  std::lock_guard lock(mutex_);
  inUse_.emplace(lowerCase(host), port);
}

std::shared_ptr<Dns> ResolveTable::dns(std::shared_ptr<ResolveTable> table,
                                       std::shared_ptr<Dns> fallback) {
  return Dns::of([table = std::move(table), fallback = std::move(fallback)](
                     const std::string& hostname) -> std::vector<InetAddress> {
    std::string host = lowerCase(hostname);
    {
      std::lock_guard lock(table->mutex_);
      for (const Entry& entry : table->entries_) {
        if (entry.host == host && table->inUse_.contains({host, entry.port})) {
          return entry.addresses;
        }
      }
    }
    return fallback->lookup(hostname);
  });
}

}  // namespace tern::tool
