// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#pragma once

#include <chrono>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>

namespace tern::internal {

// Reading and atomically replacing the small text files the persistent stores keep (cookie,
// HSTS and Alt-Svc files). Each throws IOException whose message starts with `what` ("Cannot
// save cookies to"), then names the file, the step and the reason.

// The whole of the file `path`, or std::nullopt if it does not exist.
std::optional<std::string> readTextFile(const std::filesystem::path& path, std::string_view what);

// Replaces `path` with `text` atomically: the text goes to a temporary file in the same
// directory, is flushed to disk and renamed over `path` (POSIX rename(2)), so readers see the
// old file or the new one, never half of one. The old file's permissions are kept; a new file is
// private (0600). On failure the old file is intact and the temporary file removed.
void writeTextFileAtomically(const std::filesystem::path& path, std::string_view text,
                             std::string_view what);

// curl's timestamps in its HSTS and Alt-Svc files: "YYYYMMDD HH:MM:SS" in UTC.

// The time `stamp` names, or std::nullopt if it is not one or names no real date and time.
std::optional<std::chrono::sys_seconds> parseCurlStamp(std::string_view stamp);

// `time` as a stamp; years past 9999 do not fit (callers write kLatestCurlStamp or "unlimited").
std::string formatCurlStamp(std::chrono::sys_seconds time);

// The latest time a stamp can hold.
inline constexpr std::chrono::sys_seconds kLatestCurlStamp =
    std::chrono::sys_days(std::chrono::year(9999) / 12 / 31) + std::chrono::hours(23) +
    std::chrono::minutes(59) + std::chrono::seconds(59);

}  // namespace tern::internal
