// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#include "tern/http_date.h"

#include <array>
#include <cstdint>

#include "http/http_syntax.h"

namespace tern {
namespace {

using std::chrono::system_clock;

constexpr std::array<std::string_view, 7> kWeekdays = {"Sunday",   "Monday", "Tuesday", "Wednesday",
                                                       "Thursday", "Friday", "Saturday"};
constexpr std::array<std::string_view, 12> kMonths = {
    "January", "February", "March",     "April",   "May",      "June",
    "July",    "August",   "September", "October", "November", "December"};

// The date shapes OkHttp accepts (its browser-compatible SimpleDateFormat patterns), written in a
// tiny pattern language: E weekday name, M month name, N month number, d day, y year, H hour,
// m minute, s second, z time zone; any other character must appear literally. Tried in order; the
// first that matches wins. Spaces and tabs may precede any field.
constexpr std::array<std::string_view, 10> kFormats = {
    "E, d M y H:m:s z",  // IMF-fixdate (RFC 1123) with any zone.
    "E, d-M-y H:m:s z",  // RFC 850 with any zone.
    "E M d H:m:s y",     // asctime(): always GMT; anything after the year is ignored.
    "E, d-M-y H-m-s z",  // The rest are shapes browsers met in the wild.
    "E d-M-y H:m:s z",  "E d M y H:m:s z", "E d-M-y H-m-s z", "E,d-M-y H:m:s z", "E, d-N-y H:m:s z",
    "E M d y H:m:s z",  // JavaScript's Date.toString(): "Thu Jan 01 1970 00:00:00 GMT+0000".
};

// Numeric fields longer than this are never dates; the cap keeps arithmetic far from overflow.
constexpr std::size_t kMaxDigits = 9;

struct Fields {
  int64_t year = 0;
  int64_t month = 0;
  int64_t day = 0;
  int64_t hour = 0;
  int64_t minute = 0;
  int64_t second = 0;
  int64_t offsetSeconds = 0;  // Local time minus UTC.
  bool twoDigitYear = false;
};

// Days since 1970-01-01 of a proleptic Gregorian date (Howard Hinnant's days_from_civil).
constexpr int64_t daysFromCivil(int64_t y, int64_t m, int64_t d) noexcept {
  y -= m <= 2 ? 1 : 0;
  const int64_t era = (y >= 0 ? y : y - 399) / 400;
  const int64_t yoe = y - era * 400;
  const int64_t doy = (153 * (m > 2 ? m - 3 : m + 9) + 2) / 5 + d - 1;
  const int64_t doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
  return era * 146097 + doe - 719468;
}

struct Civil {
  int64_t year;
  int64_t month;
  int64_t day;
};

// The inverse of daysFromCivil (Howard Hinnant's civil_from_days).
constexpr Civil civilFromDays(int64_t z) noexcept {
  z += 719468;
  const int64_t era = (z >= 0 ? z : z - 146096) / 146097;
  const int64_t doe = z - era * 146097;
  const int64_t yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
  const int64_t doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
  const int64_t mp = (5 * doy + 2) / 153;
  const int64_t d = doy - (153 * mp + 2) / 5 + 1;
  const int64_t m = mp < 10 ? mp + 3 : mp - 9;
  return {yoe + era * 400 + (m <= 2 ? 1 : 0), m, d};
}

constexpr bool isLeapYear(int64_t y) noexcept {
  return y % 4 == 0 && (y % 100 != 0 || y % 400 == 0);
}

constexpr int64_t daysInMonth(int64_t y, int64_t m) noexcept {
  constexpr int64_t kDays[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  return m == 2 && isLeapYear(y) ? 29 : kDays[m - 1];
}

constexpr int64_t floorDiv(int64_t a, int64_t b) noexcept {
  return a / b - ((a % b != 0 && (a < 0) != (b < 0)) ? 1 : 0);
}

// Reads one date against one pattern. Every method stops at the end of the text.
class DateReader {
 public:
  explicit DateReader(std::string_view text) : text_(text) {}

  std::optional<Fields> read(std::string_view pattern) {
    Fields fields;
    for (char element : pattern) {
      bool ok = true;
      switch (element) {
        case 'E':
          ok = readName(kWeekdays).has_value();
          break;
        case 'M': {
          std::optional<std::size_t> month = readName(kMonths);
          ok = month.has_value();
          if (ok) {
            fields.month = static_cast<int64_t>(*month) + 1;
          }
          break;
        }
        case 'N':
          ok = readNumber(fields.month);
          break;
        case 'd':
          ok = readNumber(fields.day);
          break;
        case 'y': {
          std::size_t start = skipWhitespace();
          ok = readNumber(fields.year);
          fields.twoDigitYear = pos_ - start == 2;
          break;
        }
        case 'H':
          ok = readNumber(fields.hour);
          break;
        case 'm':
          ok = readNumber(fields.minute);
          break;
        case 's':
          ok = readNumber(fields.second);
          break;
        case 'z':
          ok = readZone(fields.offsetSeconds);
          break;
        default:
          ok = pos_ < text_.size() && text_[pos_] == element;
          if (ok) {
            ++pos_;
          }
          break;
      }
      if (!ok) {
        return std::nullopt;
      }
    }
    return fields;
  }

 private:
  std::size_t skipWhitespace() {
    pos_ = internal::skipHttpWhitespace(text_, pos_);
    return pos_;
  }

  bool startsWithIgnoreCase(std::string_view prefix) const {
    return text_.size() - pos_ >= prefix.size() &&
           internal::equalsIgnoreCase(text_.substr(pos_, prefix.size()), prefix);
  }

  // Matches a full name ("Thursday") or its first three letters ("Thu"), ignoring case.
  template <std::size_t N>
  std::optional<std::size_t> readName(const std::array<std::string_view, N>& names) {
    skipWhitespace();
    for (std::size_t i = 0; i < N; ++i) {
      if (startsWithIgnoreCase(names[i])) {
        pos_ += names[i].size();
        return i;
      }
    }
    for (std::size_t i = 0; i < N; ++i) {
      if (startsWithIgnoreCase(names[i].substr(0, 3))) {
        pos_ += 3;
        return i;
      }
    }
    return std::nullopt;
  }

  bool readNumber(int64_t& out) {
    skipWhitespace();
    std::size_t start = pos_;
    int64_t value = 0;
    while (pos_ < text_.size() && text_[pos_] >= '0' && text_[pos_] <= '9') {
      if (pos_ - start == kMaxDigits) {
        return false;
      }
      value = value * 10 + (text_[pos_] - '0');
      ++pos_;
    }
    out = value;
    return pos_ > start;
  }

  // Reads exactly `count` digits.
  bool readFixedDigits(std::size_t count, int64_t& out) {
    if (text_.size() - pos_ < count) {
      return false;
    }
    int64_t value = 0;
    for (std::size_t i = 0; i < count; ++i) {
      char c = text_[pos_ + i];
      if (c < '0' || c > '9') {
        return false;
      }
      value = value * 10 + (c - '0');
    }
    pos_ += count;
    out = value;
    return true;
  }

  // ":mm"; on failure nothing is consumed.
  bool readMinutes(int64_t& minutes) {
    if (pos_ >= text_.size() || text_[pos_] != ':') {
      return false;
    }
    ++pos_;
    if (readFixedDigits(2, minutes)) {
      return true;
    }
    --pos_;
    return false;
  }

  // "+hh:mm", "+hhmm", "+hh" or "+h" after GMT/UTC; "+hhmm" or "+hh:mm" alone (RFC 5322 §3.3).
  bool readOffset(bool afterGmt, int64_t& offsetSeconds) {
    if (pos_ >= text_.size() || (text_[pos_] != '+' && text_[pos_] != '-')) {
      return false;
    }
    std::size_t start = pos_;
    int64_t sign = text_[pos_] == '-' ? -1 : 1;
    ++pos_;
    int64_t hours = 0;
    int64_t minutes = 0;
    bool ok;
    if (readFixedDigits(2, hours)) {
      ok = readMinutes(minutes) || readFixedDigits(2, minutes) || afterGmt;
    } else {
      // Java also reads a one-digit hour after GMT: "GMT+1", "GMT+1:30".
      ok = afterGmt && readFixedDigits(1, hours);
      if (ok) {
        readMinutes(minutes);  // Optional.
      }
    }
    if (!ok || hours > 23 || minutes > 59) {
      pos_ = start;
      return false;
    }
    offsetSeconds = sign * (hours * 3600 + minutes * 60);
    return true;
  }

  bool readZone(int64_t& offsetSeconds) {
    struct NamedZone {
      std::string_view name;
      int64_t offsetHours;
    };
    // RFC 5322 §4.3 obs-zone names, which Java (and so OkHttp) also understands.
    static constexpr NamedZone kZones[] = {{"EST", -5}, {"EDT", -4}, {"CST", -6}, {"CDT", -5},
                                           {"MST", -7}, {"MDT", -6}, {"PST", -8}, {"PDT", -7}};
    skipWhitespace();
    offsetSeconds = 0;
    for (std::string_view utc : {"GMT", "UTC", "UT"}) {
      if (startsWithIgnoreCase(utc)) {
        pos_ += utc.size();
        readOffset(/*afterGmt=*/true, offsetSeconds);  // Optional; bare "GMT" is offset 0.
        return true;
      }
    }
    if (readOffset(/*afterGmt=*/false, offsetSeconds)) {
      return true;
    }
    for (const NamedZone& zone : kZones) {
      if (startsWithIgnoreCase(zone.name)) {
        pos_ += zone.name.size();
        offsetSeconds = zone.offsetHours * 3600;
        return true;
      }
    }
    return false;
  }

  std::string_view text_;
  std::size_t pos_ = 0;
};

int64_t currentYear() {
  auto now = std::chrono::floor<std::chrono::seconds>(system_clock::now());
  return civilFromDays(floorDiv(now.time_since_epoch().count(), 86400)).year;
}

// Seconds since the epoch of valid `fields`, or nullopt if a field is out of range.
std::optional<int64_t> toEpochSeconds(Fields fields) {
  if (fields.twoDigitYear) {
    // Java's window, which OkHttp inherits: from 80 years ago to 19 years ahead. It obeys RFC 9110
    // §5.6.7 (a year more than 50 years ahead is in the past) and reads "70" as 1970.
    int64_t now = currentYear();
    fields.year += now - now % 100;
    if (fields.year >= now + 20) {
      fields.year -= 100;
    }
    if (fields.year < now - 80) {
      fields.year += 100;
    }
  }
  if (fields.month < 1 || fields.month > 12) {
    return std::nullopt;
  }
  if (fields.day < 1 || fields.day > daysInMonth(fields.year, fields.month)) {
    return std::nullopt;
  }
  // Second 60 is a leap second (RFC 5322 §3.3); like POSIX we fold it into the next minute.
  if (fields.hour > 23 || fields.minute > 59 || fields.second > 60) {
    return std::nullopt;
  }
  int64_t days = daysFromCivil(fields.year, fields.month, fields.day);
  return days * 86400 + fields.hour * 3600 + fields.minute * 60 + fields.second -
         fields.offsetSeconds;
}

system_clock::time_point fromEpochSecondsClamped(int64_t epochSeconds) {
  using std::chrono::seconds;
  constexpr int64_t kMax =
      std::chrono::floor<seconds>(system_clock::time_point::max()).time_since_epoch().count();
  constexpr int64_t kMin =
      std::chrono::ceil<seconds>(system_clock::time_point::min()).time_since_epoch().count();
  int64_t clamped = epochSeconds > kMax ? kMax : epochSeconds < kMin ? kMin : epochSeconds;
  return system_clock::time_point(
      std::chrono::duration_cast<system_clock::duration>(seconds(clamped)));
}

void appendTwoDigits(std::string& out, int64_t value) {
  out += static_cast<char>('0' + value / 10);
  out += static_cast<char>('0' + value % 10);
}

}  // namespace

std::optional<system_clock::time_point> parseHttpDate(std::string_view text) {
  for (std::string_view format : kFormats) {
    std::optional<Fields> fields = DateReader(text).read(format);
    if (!fields) {
      continue;
    }
    std::optional<int64_t> epochSeconds = toEpochSeconds(*fields);
    if (!epochSeconds) {
      continue;
    }
    return fromEpochSecondsClamped(*epochSeconds);
  }
  return std::nullopt;
}

std::string formatHttpDate(system_clock::time_point instant) {
  int64_t seconds = std::chrono::floor<std::chrono::seconds>(instant).time_since_epoch().count();
  int64_t days = floorDiv(seconds, 86400);
  int64_t secondOfDay = seconds - days * 86400;
  Civil date = civilFromDays(days);
  int64_t weekday = ((days % 7) + 7 + 4) % 7;  // 1970-01-01 was a Thursday (index 4).

  std::string result;
  result.reserve(29);
  result += kWeekdays[weekday].substr(0, 3);
  result += ", ";
  appendTwoDigits(result, date.day);
  result += ' ';
  result += kMonths[date.month - 1].substr(0, 3);
  result += ' ';
  result += std::to_string(date.year);
  result += ' ';
  appendTwoDigits(result, secondOfDay / 3600);
  result += ':';
  appendTwoDigits(result, secondOfDay / 60 % 60);
  result += ':';
  appendTwoDigits(result, secondOfDay % 60);
  result += " GMT";
  return result;
}

}  // namespace tern
