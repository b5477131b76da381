// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#include "hsts_cache.h"

#include <stdexcept>
#include <utility>

#include "tern/exceptions.h"

namespace tern::tool {

std::shared_ptr<HstsCache> HstsCache::forOptions(const Options& options,
                                                 std::shared_ptr<DebugOutput> debug) {
  if (options.hstsFiles.empty()) return nullptr;
  return std::make_shared<HstsCache>(options, std::move(debug));
}

HstsCache::HstsCache(const Options& options, std::shared_ptr<DebugOutput> debug)
    : store_(std::make_shared<Hsts>()), debug_(std::move(debug)) {
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

std::shared_ptr<Interceptor> HstsCache::switchNotice() const {
  if (!debug_) return nullptr;
  return Interceptor::of([store = store_, debug = debug_](Interceptor::Chain& chain) {
    const HttpUrl& url = chain.request().url();
    if (!url.isHttps()) {
      HttpUrl upgraded = store->upgrade(url);
      if (upgraded.isHttps()) {
        debug->info("Switched from HTTP to HTTPS due to HSTS => " + upgraded.toString() + "\n");
      }
    }
    return chain.proceed(chain.request());
  });
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
