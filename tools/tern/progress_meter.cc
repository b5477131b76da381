// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#include "progress_meter.h"

#include <algorithm>
#include <cstdio>

namespace tern::tool {
namespace {

constexpr int64_t kKilobyte = 1024;
constexpr int64_t kMegabyte = 1024 * kKilobyte;
constexpr int64_t kGigabyte = 1024 * kMegabyte;
constexpr int64_t kTerabyte = 1024 * kGigabyte;
constexpr int64_t kPetabyte = 1024 * kTerabyte;

// How long the current speed looks back (curl keeps about 5 seconds).
constexpr auto kSpeedWindow = std::chrono::seconds(5);

std::string printed(const char* format, auto... values) {
  char text[64];
  std::snprintf(text, sizeof(text), format, values...);
  return text;
}

// curl's percentage: integer division, careful not to overflow for large totals.
int64_t percent(int64_t done, int64_t total) {
  if (total > 10000) return done / (total / 100);
  if (total > 0) return done * 100 / total;
  return 0;
}

}  // namespace

std::string formatSize5(int64_t bytes) {
  using L = long long;
  if (bytes < 100000) return printed("%5lld", static_cast<L>(bytes));
  if (bytes < 10000 * kKilobyte) return printed("%4lldk", static_cast<L>(bytes / kKilobyte));
  if (bytes < 100 * kMegabyte) {
    return printed("%2lld.%0lldM", static_cast<L>(bytes / kMegabyte),
                   static_cast<L>((bytes % kMegabyte) / (kMegabyte / 10)));
  }
  if (bytes < 10000 * kMegabyte) return printed("%4lldM", static_cast<L>(bytes / kMegabyte));
  if (bytes < 100 * kGigabyte) {
    return printed("%2lld.%0lldG", static_cast<L>(bytes / kGigabyte),
                   static_cast<L>((bytes % kGigabyte) / (kGigabyte / 10)));
  }
  if (bytes < 10000 * kGigabyte) return printed("%4lldG", static_cast<L>(bytes / kGigabyte));
  if (bytes < 10000 * kTerabyte) return printed("%4lldT", static_cast<L>(bytes / kTerabyte));
  return printed("%4lldP", static_cast<L>(bytes / kPetabyte));
}

std::string formatDuration8(int64_t seconds) {
  using L = long long;
  if (seconds <= 0) return "--:--:--";
  int64_t hours = seconds / 3600;
  if (hours <= 99) {
    int64_t minutes = (seconds % 3600) / 60;
    return printed("%2lld:%02lld:%02lld", static_cast<L>(hours), static_cast<L>(minutes),
                   static_cast<L>(seconds % 60));
  }
  int64_t days = seconds / 86400;
  if (days <= 999) {
    return printed("%3lldd %02lldh", static_cast<L>(days),
                   static_cast<L>((seconds % 86400) / 3600));
  }
  return printed("%7lldd", static_cast<L>(days));
}

std::string meterHeader() {
  return "  % Total    % Received % Xferd  Average Speed   Time    Time     Time  Current\n"
         "                                 Dload  Upload   Total   Spent    Left  Speed\n";
}

std::string meterLine(const ProgressState& s) {
  using L = long long;
  const double elapsed = std::max(s.elapsedSeconds, 0.001);
  const auto downloadSpeed = static_cast<int64_t>(static_cast<double>(s.downloaded) / elapsed);
  const auto uploadSpeed = static_cast<int64_t>(static_cast<double>(s.uploaded) / elapsed);
  const auto spent = static_cast<int64_t>(s.elapsedSeconds);

  // The estimate is the slower direction's: its known size at its average speed so far.
  int64_t estimate = 0;
  if (s.uploadTotal >= 0 && uploadSpeed > 0) estimate = s.uploadTotal / uploadSpeed;
  if (s.downloadTotal >= 0 && downloadSpeed > 0) {
    estimate = std::max(estimate, s.downloadTotal / downloadSpeed);
  }
  const int64_t expected = (s.uploadTotal >= 0 ? s.uploadTotal : s.uploaded) +
                           (s.downloadTotal >= 0 ? s.downloadTotal : s.downloaded);
  const int64_t done = s.uploaded + s.downloaded;

  std::string line = "\r";
  line += printed("%3lld", static_cast<L>(percent(done, expected))) + " " + formatSize5(expected);
  line += "  " + printed("%3lld", static_cast<L>(s.downloadTotal >= 0
                                                     ? percent(s.downloaded, s.downloadTotal)
                                                     : 0));
  line += " " + formatSize5(s.downloaded);
  line +=
      "  " +
      printed("%3lld", static_cast<L>(s.uploadTotal >= 0 ? percent(s.uploaded, s.uploadTotal) : 0));
  line += " " + formatSize5(s.uploaded);
  line += "  " + formatSize5(downloadSpeed) + "  " + formatSize5(uploadSpeed);
  line += " " + formatDuration8(estimate) + " " + formatDuration8(spent) + " " +
          formatDuration8(estimate > 0 ? estimate - spent : 0);
  line += " " + formatSize5(s.currentSpeed);
  return line;
}

std::string progressBarLine(const ProgressState& s, int width, int position) {
  const int64_t total =
      s.downloadTotal >= 0 || s.uploadTotal >= 0
          ? std::max<int64_t>(s.downloadTotal, 0) + std::max<int64_t>(s.uploadTotal, 0)
          : -1;
  const int barWidth = std::max(width - 7, 1);
  if (total > 0) {
    double fraction =
        std::min(1.0, static_cast<double>(s.downloaded + s.uploaded) / static_cast<double>(total));
    auto hashes = static_cast<size_t>(barWidth * fraction);
    std::string bar(hashes, '#');
    bar.resize(static_cast<size_t>(barWidth), ' ');
    return "\r" + bar + printed(" %5.1f%%", fraction * 100.0);
  }
  // Unknown size: curl "flies" a marker back and forth.
  std::string line(static_cast<size_t>(std::max(width - 1, 6)), ' ');
  auto at = static_cast<size_t>(std::clamp(position, 0, static_cast<int>(line.size()) - 5));
  line.replace(at, 5, "-=O=-");
  return "\r" + line;
}

ProgressMeter::ProgressMeter(std::ostream& err, Style style, int width,
                             std::function<Clock::time_point()> now)
    : err_(err), style_(style), width_(width), now_(std::move(now)) {}

void ProgressMeter::start(int64_t uploadTotal) {
  start_ = now_();
  lastDraw_ = start_;
  state_ = ProgressState();
  state_.uploadTotal = uploadTotal;
  samples_.assign(1, {start_, 0});
  shown_ = false;
  barPosition_ = 0;
  barDirection_ = 1;
}

void ProgressMeter::update(int64_t downloaded, int64_t uploaded) {
  state_.downloaded = downloaded;
  state_.uploaded = uploaded;
  Clock::time_point now = now_();
  // Quiet for a transfer's first second, then once a second.
  if (now - start_ < std::chrono::seconds(1) || now - lastDraw_ < std::chrono::seconds(1)) return;
  draw(now);
}

void ProgressMeter::finish() {
  if (!shown_ && style_ == Style::kMeter) {
    // A transfer within its first second: curl's header, its line of zeros, then the end.
    err_ << meterHeader() << meterLine(ProgressState{});
    shown_ = true;
  }
  draw(now_());
  err_ << "\n";
  err_.flush();
}

void ProgressMeter::draw(Clock::time_point now) {
  lastDraw_ = now;
  state_.elapsedSeconds = std::chrono::duration<double>(now - start_).count();
  const int64_t moved = state_.downloaded + state_.uploaded;
  samples_.emplace_back(now, moved);
  while (samples_.size() > 2 && now - samples_[1].first >= kSpeedWindow) samples_.pop_front();
  const auto& [then, movedThen] = samples_.front();
  double window = std::chrono::duration<double>(now - then).count();
  state_.currentSpeed =
      window > 0 ? static_cast<int64_t>(static_cast<double>(moved - movedThen) / window) : 0;

  if (style_ == Style::kMeter) {
    if (!shown_) err_ << meterHeader();
    err_ << meterLine(state_);
  } else {
    err_ << progressBarLine(state_, width_, barPosition_);
    barPosition_ += barDirection_;
    if (barPosition_ >= width_ - 6 || barPosition_ <= 0) barDirection_ = -barDirection_;
  }
  err_.flush();
  shown_ = true;
}

}  // namespace tern::tool
