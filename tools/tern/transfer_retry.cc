// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#include "transfer_retry.h"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <climits>
#include <cstdlib>
#include <ctime>
#include <string>

#include "exit_code.h"
#include "tern/http_date.h"

namespace tern::tool {
namespace {

constexpr int64_t kRetrySleepDefault = 1000;     // curl's RETRY_SLEEP_DEFAULT, milliseconds.
constexpr int64_t kRetrySleepMax = 10 * 60'000;  // RETRY_SLEEP_MAX.

// curl's CURLINFO_RETRY_AFTER: an HTTP date less now, else the leading decimal number; 0 if
// neither (or in the past).
int64_t retryAfterSeconds(const TransferInfo& info) {
  if (!info.responseHeaders) return 0;
  std::optional<std::string> value = info.responseHeaders->get("Retry-After");
  if (!value) return 0;
  if (auto date = parseHttpDate(*value)) {
    auto seconds =
        std::chrono::duration_cast<std::chrono::seconds>(*date - std::chrono::system_clock::now())
            .count();
    return seconds > 0 ? seconds : 0;
  }
  const char* text = value->c_str();
  while (*text == ' ' || *text == '\t') ++text;
  if (!std::isdigit(static_cast<unsigned char>(*text))) return 0;
  errno = 0;
  long long seconds = std::strtoll(text, nullptr, 10);
  return errno == ERANGE ? INT64_MAX / 1000 : seconds;
}

bool retriedHttpCode(int code) {
  return code == 408 || code == 429 || code == 500 || code == 502 || code == 503 || code == 504;
}

}  // namespace

void curlWarning(const Options& options, std::ostream& err, std::string_view message) {
  if (options.silent) return;
  constexpr size_t kWidth = 79 - 9;  // 79 columns less "Warning: ".
  while (!message.empty()) {
    err << "Warning: ";
    if (message.size() > kWidth) {
      size_t cut = kWidth - 1;
      while (cut > 0 && !std::isspace(static_cast<unsigned char>(message[cut]))) --cut;
      if (cut == 0) cut = kWidth - 1;
      err << message.substr(0, cut + 1) << "\n";
      message.remove_prefix(cut + 1);
    } else {
      err << message;
      message = {};
    }
  }
}

TransferRetry::TransferRetry(const Options& options)
    : options_(options),
      remaining_(options.retry),
      sleepMillis_(options.retryDelay > 0 ? options.retryDelay * 1000 : kRetrySleepDefault),
      start_(std::chrono::steady_clock::now()) {}

TransferRetry::Decision TransferRetry::next(const TransferInfo& info, bool connectionRefused) {
  if (remaining_ <= 0) return {};
  const int64_t elapsedMillis = std::chrono::duration_cast<std::chrono::milliseconds>(
                                    std::chrono::steady_clock::now() - start_)
                                    .count();
  if (options_.retryMaxTime > 0 && elapsedMillis >= options_.retryMaxTime * 1000) {
    return {};
  }
  const int code = info.exitCode;
  const char* reason = nullptr;
  bool http = false;
  if (code == kExitOperationTimedOut || code == kExitCouldntResolveHost ||
      code == kExitCouldntResolveProxy) {
    reason = ": timeout";
  } else if (options_.retryConnrefused && code == kExitCouldntConnect) {
    if (connectionRefused) reason = ": connection refused";
  } else if (code == kExitOk || (options_.fail && code == kExitHttpReturnedError)) {
    if (retriedHttpCode(info.httpCode)) {
      reason = ": HTTP error";
      http = true;
    }
  }
  if (reason == nullptr && code != kExitOk && options_.retryAllErrors) {
    reason = "(retrying all errors)";
  }
  if (reason == nullptr) return {};

  int64_t sleep = sleepMillis_;
  if (http) {
    if (int64_t retryAfter = retryAfterSeconds(info); retryAfter != 0) {
      sleep = retryAfter > INT64_MAX / 1000 ? INT64_MAX : retryAfter * 1000;
      if (options_.retryMaxTime > 0 &&
          (INT64_MAX - retryAfter < elapsedMillis / 1000 ||
           elapsedMillis / 1000 + retryAfter > options_.retryMaxTime)) {
        return {std::nullopt,
                "The Retry-After: time would make this command line exceed the maximum allowed "
                "time for retries."};
      }
    }
  }
  Decision decision{std::chrono::milliseconds(sleep),
                    std::string("Problem ") + reason + ". Will retry in " +
                        std::to_string(sleep / 1000) + " seconds. " + std::to_string(remaining_) +
                        " retries left.\n"};
  --remaining_;
  if (options_.retryDelay == 0) sleepMillis_ = std::min(sleepMillis_ * 2, kRetrySleepMax);
  return decision;
}

}  // namespace tern::tool
