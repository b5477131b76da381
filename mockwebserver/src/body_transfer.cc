// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#include "body_transfer.h"

#include <algorithm>
#include <string>

namespace tern::mockwebserver::internal {

BodyTransfer::BodyTransfer(ConnectionSocket& socket, const CloseSignal& closing,
                           int64_t bytesPerPeriod, std::chrono::nanoseconds period,
                           int64_t disconnectAfter)
    : socket_(socket),
      closing_(closing),
      bytesPerPeriod_(bytesPerPeriod),
      period_(period),
      disconnectAfter_(disconnectAfter) {}

bool BodyTransfer::transfer(Source& source, Sink& sink, int64_t byteCount) {
  Buffer buffer;
  while (true) {
    if (disconnectAfter_ != kNever && bytesMoved_ >= disconnectAfter_) {
      sink.flush();
      socket_.close();
      return false;
    }
    if (byteCount == 0) return true;
    if (bytesSincePause_ >= bytesPerPeriod_) {
      // Flush first so the bytes of this period reach the peer before the pause.
      sink.flush();
      closing_.sleep(period_);
      bytesSincePause_ = 0;
    }

    int64_t toMove = std::min(byteCount, bytesPerPeriod_ - bytesSincePause_);
    if (disconnectAfter_ != kNever) toMove = std::min(toMove, disconnectAfter_ - bytesMoved_);
    const int64_t read = source.read(buffer, toMove);
    if (read == -1) {
      throw EOFException("MockWebServer: body ended with " + std::to_string(byteCount) +
                         " bytes still expected");
    }
    sink.write(buffer, read);
    bytesSincePause_ += read;
    bytesMoved_ += read;
    byteCount -= read;
  }
}

void TruncatingSink::write(Buffer& source, int64_t byteCount) {
  const int64_t toKeep = std::min(remaining_, byteCount);
  if (toKeep > 0) kept_.write(source, toKeep);
  if (byteCount > toKeep) source.skip(byteCount - toKeep);
  remaining_ -= toKeep;
  received_ += byteCount;
}

}  // namespace tern::mockwebserver::internal
