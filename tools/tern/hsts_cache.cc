// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#include "hsts_cache.h"

#include <stdexcept>
#include <utility>

#include "tern/exceptions.h"

namespace tern::tool {

std::shared_ptr<HstsCache> HstsCache::forOptions(const Options& options) {
  if (options.hstsFiles.empty()) return nullptr;
  return std::make_shared<HstsCache>(options);
}

HstsCache::HstsCache(const Options& options) : store_(std::make_shared<Hsts>()) {
  for (const std::string& file : options.hstsFiles) {
    if (file.empty()) continue;
    try {
      for (HstsEntry& entry : FileHsts::readFile(file)) {
        try {
          store_->add(std::move(entry));
        } catch (const std::invalid_argument&) {
          // A host no entry can have (an IP address): skipped like any line curl cannot read.
        }
      }
    } catch (const IOException&) {
      // curl reads an unreadable cache file as an empty one.
    }
  }
  if (!options.hstsFiles.back().empty()) saveFile_ = options.hstsFiles.back();
}

void HstsCache::save(DebugOutput* debug) {
  if (!saveFile_) return;
  try {
    FileHsts::writeFile(*saveFile_, store_->entries());
  } catch (const IOException& e) {
    if (debug) debug->info("WARNING: failed to save the HSTS cache in " + *saveFile_ + "\n");
  }
}

}  // namespace tern::tool
