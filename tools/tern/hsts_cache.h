// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#pragma once

#include <memory>
#include <optional>
#include <string>

#include "debug_output.h"
#include "options.h"
#include "tern/hsts.h"
#include "tern/interceptor.h"

namespace tern::tool {

// curl's --hsts FILE for the tool's client (RFC 6797, in curl's HSTS cache file format):
// - every --hsts file is read at the start; a missing or unreadable one adds nothing, silently,
//   as curl; "" reads nothing (the cache lives in memory only);
// - the client upgrades http URLs to known hosts to https before connecting, for the first
//   request and for every -L redirect, and records Strict-Transport-Security from responses over
//   https; -v says so before each upgraded request, as curl ("Switched from HTTP to HTTPS due
//   to HSTS => URL");
// - at the end, the cache is written to the last --hsts file (unless ""), atomically, whatever
//   the transfers' outcome. A failure is shown with -v only (curl says nothing).
// Thread-safe (Hsts is), so -Z's transfers share it.
class HstsCache {
 public:
  // The cache for `options`, or null without --hsts. `debug` (-v, a trace; may be null) hears of
  // each upgrade.
  static std::shared_ptr<HstsCache> forOptions(const Options& options,
                                               std::shared_ptr<DebugOutput> debug);

  HstsCache(const Options& options, std::shared_ptr<DebugOutput> debug);

  // The store the client uses.
  const std::shared_ptr<Hsts>& store() const noexcept { return store_; }

  // The application interceptor that shows -v each upgrade, or null without debug output. Added
  // after -L's follower, it sees each hop.
  std::shared_ptr<Interceptor> switchNotice() const;

  // Writes the cache to the last --hsts file. `debug` (may be null) is told of a failure.
  void save(DebugOutput* debug);

 private:
  std::shared_ptr<Hsts> store_;
  std::shared_ptr<DebugOutput> debug_;
  std::optional<std::string> saveFile_;  // The last --hsts file; none for "".
};

}  // namespace tern::tool
