// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#pragma once

#include <array>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "concurrent/mutex.h"

namespace tern::tool {

// What one line of curl -Z's combined meter shows, summed over the transfers curl has made so
// far (its tool_progress.c, curl 7.88).
struct ParallelMeterState {
  int64_t downloaded = 0;
  int64_t uploaded = 0;
  // The sizes summed, or nullopt while a transfer not yet ended does not know its own (curl's
  // "--"). A size of 0 counts as unknown, as in curl.
  std::optional<int64_t> downloadTotal;
  std::optional<int64_t> uploadTotal;
  int64_t transfers = 0;  // "Xfers": the transfers made so far.
  int64_t live = 0;       // "Live": those running.
  int64_t spentSeconds = 0;
  int64_t speed = 0;  // Bytes a second, the faster direction's, over the last few lines.
};

// The meter's heading line, as curl -Z prints it before its first line.
std::string parallelMeterHeader();

// One line of curl -Z's meter, starting with '\r' so that it overwrites the previous one, 71
// columns: download %, upload %, received, sent, transfers, live, estimated total time, time
// spent, time left, speed (sizes and times as formatSize5() and formatDuration8()). The final
// line ends with "    \n", the others with five spaces, as curl's "%5s".
std::string parallelMeterLine(const ParallelMeterState& state, bool final);

// curl -Z's combined progress meter for a run of `transfers` transfers, at most `parallelMax`
// at once. Transfers report from any thread (sizes(), progress(), ended()); one thread asks for
// the lines (start(), nextLine(), finalLine()) and writes them, so that they never cut into the
// other output on stderr. The lines come as curl's loop draws them: the header and a line at
// the start, then on each transfer's progress or end, or after a second without either, a line
// if more than half a second passed since the last one, and the final line at the end. So a run
// under half a second shows the header, a line of zeros and the final line.
//
// "Xfers" and "Live" follow curl's bookkeeping: it makes a transfer before it starts it, one
// more than it runs (two when it can start more), and as each second of its clock begins one
// more while it holds fewer than twice --parallel-max.
class ParallelMeter {
 public:
  using Clock = std::chrono::steady_clock;

  ParallelMeter(size_t transfers, int parallelMax,
                std::function<Clock::time_point()> now = Clock::now);
  ParallelMeter(const ParallelMeter&) = delete;
  ParallelMeter& operator=(const ParallelMeter&) = delete;

  // The header and the first line (nothing moved yet). Starts the meter's clock.
  std::string start();

  // Transfer `index` has its response's head: its body's size (-1 unknown) and its request
  // body's size (-1 unknown), and how much of that was sent. Any thread.
  void sizes(size_t index, int64_t downloadTotal, int64_t uploadTotal, int64_t uploaded);

  // Transfer `index` has received `downloaded` bytes of its body so far. Any thread.
  void progress(size_t index, int64_t downloaded);

  // Transfer `index` is over (its output and message written). Any thread.
  void ended(size_t index);

  // Blocks until a line is due and returns it, or returns nullopt once every transfer ended.
  std::optional<std::string> nextLine();

  // The final line, with its newline.
  std::string finalLine();

 private:
  struct Slot {
    int64_t downloaded = 0;
    int64_t uploaded = 0;
    int64_t downloadTotal = 0;  // 0: unknown, as curl keeps it.
    int64_t uploadTotal = 0;
    bool removed = false;  // Ended, and taken out of the running after the line it ended in.
  };
  // A line's bytes and when, for the speed: curl keeps the last ten.
  struct Sample {
    Clock::time_point time;
    int64_t downloaded = 0;
    int64_t uploaded = 0;
  };

  std::string lineLocked(Clock::time_point now, bool final) TERN_REQUIRES(mutex_);
  // curl's add_parallel_transfers(): makes one transfer, then starts made ones up to
  // --parallel-max, making one more for each.
  void addTransfersLocked() TERN_REQUIRES(mutex_);
  // Takes the ended transfers out; true if there were any.
  bool removeEndedLocked() TERN_REQUIRES(mutex_);
  // The transfers made and not yet taken out, and of those the ones started.
  size_t listedLocked() const TERN_REQUIRES(mutex_) { return made_ - removed_; }
  size_t liveLocked() const TERN_REQUIRES(mutex_) { return started_ - removed_; }

  const size_t parallelMax_;
  const std::function<Clock::time_point()> now_;
  internal::Mutex mutex_;
  std::condition_variable changed_;  // Progress or an end: the line thread wakes.
  std::vector<Slot> slots_ TERN_GUARDED_BY(mutex_);
  size_t made_ TERN_GUARDED_BY(mutex_) = 0;     // Slots [0, made_) are the transfers curl made.
  size_t started_ TERN_GUARDED_BY(mutex_) = 0;  // Slots [0, started_) the ones it started.
  size_t removed_ TERN_GUARDED_BY(mutex_) = 0;  // Slots taken out: all below started_.
  std::vector<size_t> ended_ TERN_GUARDED_BY(mutex_);  // Slots ended, not yet taken out.
  bool changedSinceWake_ TERN_GUARDED_BY(mutex_) = false;
  Clock::time_point start_ TERN_GUARDED_BY(mutex_);
  std::optional<Clock::time_point> lastLine_ TERN_GUARDED_BY(mutex_);
  int64_t tick_ TERN_GUARDED_BY(mutex_) = 0;  // The second of the clock curl last looked at.
  std::array<Sample, 10> samples_ TERN_GUARDED_BY(mutex_);
  size_t sampleIndex_ TERN_GUARDED_BY(mutex_) = 0;
  bool samplesWrapped_ TERN_GUARDED_BY(mutex_) = false;
};

}  // namespace tern::tool
