// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#pragma once

#include <chrono>
#include <cstdint>
#include <deque>
#include <functional>
#include <ostream>
#include <string>
#include <utility>

namespace tern::tool {

// curl's compact sizes: at most 5 characters, right-aligned ("  512", "9765k", "97.6M", " 976M",
// "95.3G", ...), with 1024-based units as curl's progress meter shows them.
std::string formatSize5(int64_t bytes);

// curl's meter durations: 8 characters, "H:MM:SS" right-aligned ("0:00:07", "99:59:59"), days
// beyond 99 hours ("  5d 03h"), and "--:--:--" for unknown (zero or negative).
std::string formatDuration8(int64_t seconds);

// What a transfer has done so far, for one line of the meter.
struct ProgressState {
  int64_t downloaded = 0;
  int64_t downloadTotal = -1;  // -1: unknown (no Content-Length).
  int64_t uploaded = 0;
  int64_t uploadTotal = -1;
  double elapsedSeconds = 0;
  int64_t currentSpeed = 0;  // Bytes per second over the last few seconds.
};

// The meter's two heading lines, as curl prints them before the first line.
std::string meterHeader();

// One line of curl's default meter, starting with '\r' so that it overwrites the previous one:
// total %, total size, received %, received, sent %, sent, average download and upload speeds,
// estimated total time, time spent, time left, current speed.
std::string meterLine(const ProgressState& state);

// One frame of curl's -#/--progress-bar in a terminal `width` columns wide: '#'s for the share
// done and the percentage ("\r######     41.3%"). With the size unknown, a "-=O=-" marker
// bouncing across the line at `position`, which the caller advances (see ProgressMeter).
std::string progressBarLine(const ProgressState& state, int width, int position);

// Draws curl's progress meter for one transfer on a terminal (the caller decides that it is
// one, and that -s is not given). The meter (or bar) is drawn at most once a second from the
// first second on, and finish() draws the final state and ends the line; a transfer that ends
// within its first second shows what curl shows for it: the header, a line of zeros and the
// final line (the bar: its final frame). Time comes from `now`, so tests can drive it. Not
// thread-safe.
class ProgressMeter {
 public:
  using Clock = std::chrono::steady_clock;
  enum class Style { kMeter, kBar };

  // `err` must outlive the meter. `width` is the terminal's width, for the bar.
  ProgressMeter(std::ostream& err, Style style, int width = 79,
                std::function<Clock::time_point()> now = Clock::now);

  // A transfer begins: `uploadTotal` and `downloadTotal` are -1 until known.
  void start(int64_t uploadTotal = -1);

  // The response's body size, once its headers arrived (-1: unknown).
  void setDownloadTotal(int64_t downloadTotal) { state_.downloadTotal = downloadTotal; }

  // Bytes moved so far; draws if a second has passed since the start and since the last draw.
  void update(int64_t downloaded, int64_t uploaded = 0);

  // The transfer ended: draws the final state and a newline.
  void finish();

  // True once the meter has drawn something for this transfer.
  bool shown() const noexcept { return shown_; }

 private:
  void draw(Clock::time_point now);

  std::ostream& err_;
  const Style style_;
  const int width_;
  const std::function<Clock::time_point()> now_;
  Clock::time_point start_;
  Clock::time_point lastDraw_;
  ProgressState state_;
  // (time, bytes moved) at each draw, the last few seconds: the current speed's window.
  std::deque<std::pair<Clock::time_point, int64_t>> samples_;
  bool shown_ = false;
  int barPosition_ = 0;
  int barDirection_ = 1;
};

}  // namespace tern::tool
