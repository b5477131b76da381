// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#include "alt_svc_setup.h"

#include <algorithm>
#include <chrono>
#include <string>

#include "http/alt_svc_cache.h"
#include "tern/exceptions.h"

namespace tern::tool {

std::vector<Protocol> withAltSvcDiscovery(const Options& options, std::vector<Protocol> protocols) {
  if (options.altSvcFiles.empty() || std::find(protocols.begin(), protocols.end(),
                                               Protocol::H2_PRIOR_KNOWLEDGE) != protocols.end()) {
    return protocols;
  }
  protocols.insert(protocols.begin(), Protocol::HTTP_3);
  return protocols;
}

void useAltSvcFile(const Options& options, Client::Builder& builder, DebugOutput* debug) {
  if (options.altSvcFiles.empty()) return;
  std::string file = options.altSvcFiles.back();
  if (!file.empty()) {
    try {
      // Read once here only to learn whether it can be: the client's build() would throw.
      internal::AltSvcCache().load(file, std::chrono::system_clock::now());
    } catch (const IOException& e) {
      // curl reads an unreadable cache file as an empty one.
      if (debug)
        debug->info("WARNING: cannot read the alt-svc cache: " + std::string(e.what()) + "\n");
      file.clear();
    }
  }
  builder.altSvcFile(file);
}

void saveAltSvcFile(const Options& options, DebugOutput* debug) {
  if (options.altSvcFiles.empty() || options.altSvcFiles.back().empty()) return;
  const std::string& file = options.altSvcFiles.back();
  // The client saved each change, so the file holds what it knows: writing back what it reads
  // is curl's exit-time save (the header, unexpired lines only).
  const auto now = std::chrono::system_clock::now();
  internal::AltSvcCache cache;
  try {
    cache.load(file, now);
  } catch (const IOException&) {
    return;  // Unreadable from the start: useAltSvcFile() kept the cache in memory and said so.
  }
  try {
    cache.save(file, now);
  } catch (const IOException& e) {
    if (debug)
      debug->info("WARNING: failed to save the alt-svc cache: " + std::string(e.what()) + "\n");
  }
}

}  // namespace tern::tool
