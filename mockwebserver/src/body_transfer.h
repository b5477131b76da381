// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#pragma once

#include <chrono>
#include <cstdint>

#include "server_socket.h"
#include "tern/buffer.h"
#include "tern/sink.h"
#include "tern/source.h"
#include "tern/timeout.h"

namespace tern::mockwebserver::internal {

// Moves a request or response body between the socket and memory the way a MockResponse asks:
// pausing after every `bytesPerPeriod` bytes (MockResponse::throttleBody), and for the
// DisconnectDuring*Body policies closing the socket once `disconnectAfter` bytes have passed.
// Counts carry across calls, so a chunked body is paced as one stream. Not thread-safe.
class BodyTransfer {
 public:
  static constexpr int64_t kNever = -1;

  // `closing` interrupts the pauses. `disconnectAfter` is a byte count or kNever.
  BodyTransfer(ConnectionSocket& socket, const CloseSignal& closing, int64_t bytesPerPeriod,
               std::chrono::nanoseconds period, int64_t disconnectAfter);

  // Moves `byteCount` bytes from `source` to `sink`, flushing `sink` before each pause. Returns
  // false if it closed the socket partway (the rest is not moved). Throws EOFException if
  // `source` ends first, ServerClosedException if the server closes during a pause.
  bool transfer(Source& source, Sink& sink, int64_t byteCount);

  // Closes the socket once `byteCount` bytes in all have been moved (kNever: never).
  void disconnectAfter(int64_t byteCount) noexcept { disconnectAfter_ = byteCount; }

 private:
  ConnectionSocket& socket_;
  const CloseSignal& closing_;
  int64_t bytesPerPeriod_;
  std::chrono::nanoseconds period_;
  int64_t disconnectAfter_;
  int64_t bytesSincePause_ = 0;
  int64_t bytesMoved_ = 0;
};

// Where a request body goes: keeps its first `limit` bytes (MockWebServer::bodyLimit()) and
// counts them all, as OkHttp's TruncatingBuffer.
class TruncatingSink final : public Sink {
 public:
  explicit TruncatingSink(int64_t limit) : remaining_(limit) {}

  void write(Buffer& source, int64_t byteCount) override;
  void flush() override {}
  Timeout& timeout() override { return Timeout::none(); }
  void close() override {}

  Buffer& kept() noexcept { return kept_; }
  int64_t receivedByteCount() const noexcept { return received_; }

 private:
  Buffer kept_;
  int64_t remaining_;
  int64_t received_ = 0;
};

}  // namespace tern::mockwebserver::internal
