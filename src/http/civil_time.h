// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstdint>
#include <tuple>

namespace tern::internal {

// Days since 1970-01-01 of the proleptic Gregorian date year-month-day (month 1..12). A day
// past the month's end rolls into the next month. Howard Hinnant's days_from_civil, which
// works for any year, unlike std::chrono::system_clock on 64-bit nanoseconds (1678..2262).
constexpr int64_t daysFromCivil(int64_t year, int month, int day) noexcept {
  year -= month <= 2 ? 1 : 0;
  int64_t era = (year >= 0 ? year : year - 399) / 400;
  auto yearOfEra = static_cast<int64_t>(year - era * 400);
  int64_t dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1;
  int64_t dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear;
  return era * 146097 + dayOfEra - 719468;
}

// The inverse of daysFromCivil: {year, month 1..12, day 1..31}.
constexpr std::tuple<int64_t, int, int> civilFromDays(int64_t days) noexcept {
  days += 719468;
  int64_t era = (days >= 0 ? days : days - 146096) / 146097;
  int64_t dayOfEra = days - era * 146097;
  int64_t yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36524 - dayOfEra / 146096) / 365;
  int64_t dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100);
  int64_t mp = (5 * dayOfYear + 2) / 153;
  int day = static_cast<int>(dayOfYear - (153 * mp + 2) / 5 + 1);
  int month = static_cast<int>(mp < 10 ? mp + 3 : mp - 9);
  return {yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day};
}

}  // namespace tern::internal
