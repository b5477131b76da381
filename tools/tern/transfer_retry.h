// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#pragma once

#include <chrono>
#include <cstdint>
#include <optional>
#include <ostream>
#include <string>
#include <string_view>

#include "options.h"
#include "transfer_info.h"

namespace tern::tool {

// curl's warning: "Warning: " and `message`, wrapped at 79 columns at a space (curl 7.88's
// voutf(): each piece on its own "Warning: " line). `message` is written as it is, so one
// without a final newline leaves the cursor after it, as curl's does. Nothing with -s.
void curlWarning(const Options& options, std::ostream& err, std::string_view message);

// curl 7.88's --retry for one transfer (its post_per_transfer()): after each attempt, whether
// to run it again and after how long.
//  - Transient: exit 28 (a timeout), 6 or 5 (a name that did not resolve); 7 for a refused
//    connection with --retry-connrefused; a response with 408, 429, 500, 502, 503 or 504 that
//    the transfer took (exit 0, or 22 with -f); any other failure with --retry-all-errors.
//  - The wait: Retry-After (seconds or an HTTP date) for a response; else 1 s, doubled each time
//    up to 10 minutes, or --retry-delay's fixed wait.
//  - --retry-max-time: no retry once that long has passed since the first attempt, nor one whose
//    Retry-After would pass it ("The Retry-After: time would make this command line exceed the
//    maximum allowed time for retries.").
// Each retry is announced as curl 7.88 does: "Warning: Problem : HTTP error. Will retry in 1
// seconds. 3 retries left.".
class TransferRetry {
 public:
  explicit TransferRetry(const Options& options);

  struct Decision {
    std::optional<std::chrono::milliseconds> wait;  // Retry after this long; nullopt: don't.
    // curl's warning to show (after the attempt's error message, before anything else), through
    // curlWarning(): the retry's announcement, or why a Retry-After ends the retries.
    std::string warning;
  };

  // What follows the attempt that ended as `info` says (`connectionRefused`: it failed because
  // the connection was refused). Counts the retry when there is one.
  Decision next(const TransferInfo& info, bool connectionRefused);

 private:
  const Options& options_;
  int64_t remaining_;
  int64_t sleepMillis_;
  std::chrono::steady_clock::time_point start_;
};

}  // namespace tern::tool
