// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#include "parallel_meter.h"

#include <algorithm>
#include <cstdio>
#include <utility>

#include "progress_meter.h"

namespace tern::tool {
namespace {

using namespace std::chrono_literals;

// curl's loop waits for its transfers at most a second, and draws when more than half a second
// passed since its last line.
constexpr auto kLongestWait = 1s;
constexpr int64_t kLineIntervalMilliseconds = 500;

int64_t milliseconds(ParallelMeter::Clock::duration duration) {
  return std::chrono::duration_cast<std::chrono::milliseconds>(duration).count();
}

// The clock's whole seconds, which curl's loop watches (on its wall clock) to make transfers.
int64_t wholeSeconds(ParallelMeter::Clock::time_point time) {
  return std::chrono::duration_cast<std::chrono::seconds>(time.time_since_epoch()).count();
}

// curl's "%-3s" of its percentage, which it prints with "%3" into four bytes: "--" for an
// unknown or zero total, and a fourth digit cut off.
std::string percentColumn(int64_t done, std::optional<int64_t> total) {
  if (!total || *total == 0) return "-- ";
  char text[32];
  std::snprintf(text, sizeof(text), "%3lld", static_cast<long long>(done * 100 / *total));
  return std::string(text).substr(0, 3);
}

std::string countColumn(int64_t count) {
  char text[32];
  std::snprintf(text, sizeof(text), "%5lld", static_cast<long long>(count));
  return text;
}

}  // namespace

std::string parallelMeterHeader() {
  return "DL% UL%  Dled  Uled  Xfers  Live Total     Current  Left    Speed\n";
}

std::string parallelMeterLine(const ParallelMeterState& s, bool final) {
  // The estimate needs every size known and a speed; a total of 0 gives none either.
  int64_t total = 0;
  int64_t left = 0;
  if (s.downloadTotal && s.speed > 0) {
    total = *s.downloadTotal / s.speed;
    left = (*s.downloadTotal - s.downloaded) / s.speed;
  }
  std::string line = "\r";
  line += percentColumn(s.downloaded, s.downloadTotal) + " ";
  line += percentColumn(s.uploaded, s.uploadTotal) + " ";
  line += formatSize5(s.downloaded) + " " + formatSize5(s.uploaded) + " ";
  line += countColumn(s.transfers) + " " + countColumn(s.live) + "  ";
  line += formatDuration8(total) + " " + formatDuration8(s.spentSeconds) + " " +
          formatDuration8(left) + " ";
  line += formatSize5(s.speed) + " ";
  line += final ? "    \n" : "     ";
  return line;
}

ParallelMeter::ParallelMeter(size_t transfers, int parallelMax,
                             std::function<Clock::time_point()> now)
    : parallelMax_(static_cast<size_t>(std::max(parallelMax, 1))),
      now_(std::move(now)),
      slots_(transfers) {}

std::string ParallelMeter::start() {
  internal::MutexLock lock(mutex_);
  start_ = now_();
  tick_ = wholeSeconds(start_);
  addTransfersLocked();
  return parallelMeterHeader() + lineLocked(start_, false);
}

void ParallelMeter::sizes(size_t index, int64_t downloadTotal, int64_t uploadTotal,
                          int64_t uploaded) {
  internal::MutexLock lock(mutex_);
  Slot& slot = slots_.at(index);
  slot.downloadTotal = std::max<int64_t>(downloadTotal, 0);
  slot.uploadTotal = std::max<int64_t>(uploadTotal, 0);
  slot.uploaded = uploaded;
  // No wake: the body's first bytes (or the end) follow at once, and curl, which reads a small
  // response's head and body in one go, draws no line with the size and none of the bytes.
}

void ParallelMeter::progress(size_t index, int64_t downloaded) {
  internal::MutexLock lock(mutex_);
  slots_.at(index).downloaded = downloaded;
  changedSinceWake_ = true;
  changed_.notify_one();
}

void ParallelMeter::ended(size_t index) {
  internal::MutexLock lock(mutex_);
  ended_.push_back(index);
  changedSinceWake_ = true;
  changed_.notify_one();
}

std::optional<std::string> ParallelMeter::nextLine() {
  internal::MutexLock lock(mutex_);
  while (removed_ < slots_.size()) {
    // A wake without news (a spurious one) counts as the second's timeout: curl's loop, too,
    // draws whenever its wait returns.
    if (!changedSinceWake_) changed_.wait_for(lock.native(), kLongestWait);
    changedSinceWake_ = false;
    const Clock::time_point now = now_();
    // As curl's loop: it draws first, so the transfers that just ended still count as live,
    // and then takes them out and starts more.
    std::optional<std::string> line;
    if (!lastLine_ || milliseconds(now - *lastLine_) > kLineIntervalMilliseconds) {
      line = lineLocked(now, false);
    }
    bool anyEnded = false;
    while (removeEndedLocked()) {
      anyEnded = true;
      addTransfersLocked();
    }
    if (int64_t tick = wholeSeconds(now); !anyEnded && tick != tick_) {
      tick_ = tick;  // curl makes one more transfer as its clock's second changes.
      addTransfersLocked();
    }
    if (line) return line;
  }
  return std::nullopt;
}

std::string ParallelMeter::finalLine() {
  internal::MutexLock lock(mutex_);
  while (removeEndedLocked()) addTransfersLocked();
  return lineLocked(now_(), true);
}

void ParallelMeter::addTransfersLocked() {
  const size_t count = slots_.size();
  if (listedLocked() < 2 * parallelMax_ && made_ < count) ++made_;
  // Each transfer curl starts makes the one after it, so one always waits, made.
  while (liveLocked() < parallelMax_ && started_ < made_) {
    ++started_;
    if (made_ < count) ++made_;
  }
}

bool ParallelMeter::removeEndedLocked() {
  // Only a transfer the bookkeeping started can end in it; another that tern ended early (it
  // failed before its call) waits until it is started.
  const size_t started = started_;
  auto kept = std::partition(ended_.begin(), ended_.end(),
                             [started](size_t index) { return index >= started; });
  for (auto it = kept; it != ended_.end(); ++it) slots_[*it].removed = true;
  const auto taken = static_cast<size_t>(ended_.end() - kept);
  removed_ += taken;
  ended_.erase(kept, ended_.end());
  return taken > 0;
}

std::string ParallelMeter::lineLocked(Clock::time_point now, bool final) {
  lastLine_ = now;
  ParallelMeterState state;
  int64_t downloadTotal = 0;
  int64_t uploadTotal = 0;
  bool downloadKnown = true;
  bool uploadKnown = true;
  for (size_t i = 0; i < made_; ++i) {
    const Slot& slot = slots_[i];
    state.downloaded += slot.downloaded;
    state.uploaded += slot.uploaded;
    downloadTotal += slot.downloadTotal;
    uploadTotal += slot.uploadTotal;
    if (!slot.removed && slot.downloadTotal == 0) downloadKnown = false;
    if (!slot.removed && slot.uploadTotal == 0) uploadKnown = false;
  }
  if (downloadKnown) state.downloadTotal = downloadTotal;
  if (uploadKnown) state.uploadTotal = uploadTotal;
  state.transfers = static_cast<int64_t>(made_);
  state.live = static_cast<int64_t>(liveLocked());
  state.spentSeconds = milliseconds(now - start_) / 1000;

  // The speed over the last ten lines, or since the start before there were ten.
  samples_[sampleIndex_] = {now, state.downloaded, state.uploaded};
  if (++sampleIndex_ == samples_.size()) {
    sampleIndex_ = 0;
    samplesWrapped_ = true;
  }
  const Sample since = samplesWrapped_ ? samples_[sampleIndex_] : Sample{start_, 0, 0};
  const double seconds =
      static_cast<double>(std::max<int64_t>(milliseconds(now - since.time), 1)) / 1000.0;
  state.speed = std::max(
      static_cast<int64_t>(static_cast<double>(state.downloaded - since.downloaded) / seconds),
      static_cast<int64_t>(static_cast<double>(state.uploaded - since.uploaded) / seconds));
  return parallelMeterLine(state, final);
}

}  // namespace tern::tool
