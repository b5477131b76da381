// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstdint>
#include <filesystem>
#include <functional>
#include <memory>
#include <string>

#include "tern/source.h"

namespace tern::internal {

// One upstream source shared by many readers through a file, as OkHttp's Relay (okhttp3
// internal.cache2): each reader sees every byte from the first, as fast as upstream gives them.
// At most one reader at a time pulls from upstream (without holding the relay's lock); it copies
// what it reads into the file and into a bounded in-memory buffer (the most recent bytes), and
// wakes the others, who read from the buffer or, when they fall behind it, from the file. So a
// late reader starts at byte 0 and catches up from disk, and memory stays bounded whatever the
// body's size.
//
// The file: a 32-byte header, then the upstream bytes, then `metadata`.
//   [0, 16)  "OkHttp cache v1\n" once upstream ended and the metadata is written (clean), or
//            "OkHttp DIRTY :(\n" while copying (a crash mid-copy leaves a file never trusted);
//   [16, 24) the upstream byte count, big-endian (written when clean; -1 while dirty);
//   [24, 32) the metadata byte count, big-endian (written when clean; -1 while dirty).
// The metadata is made durable (fdatasync) before the clean header is written, and the clean
// header before isComplete() turns true.
//
// Lifetime: the upstream is closed when it is exhausted (then the file is made clean), when it
// fails (every reader then throws the failure's message as an IOException, on every read that
// follows, even of bytes relayed before), or when the last reader closes before it was
// exhausted (the file is then closed too, and stays dirty). A reader closing affects no other.
// Once the upstream was closed before its end (early, or by a failure), newSource() returns
// nullptr. Otherwise the file stays open until the relay is destroyed.
//
// A failed write to the file is not an upstream failure: the relay stops writing the file
// (which then never becomes clean), keeps relaying through the buffer, and only a reader that
// needs bytes the file lacks throws IOException with the write's error.
//
// Timeouts: each reader's timeout() bounds its waits for another reader's pull; a pull itself
// is bounded only by the upstream's own timeout, and its failure (a timeout too) fails the relay.
//
// Thread-safe: readers on different threads (each reader itself is used by one thread at a time).
class Relay : public std::enable_shared_from_this<Relay> {
 public:
  static constexpr int64_t kHeaderSize = 32;
  static constexpr const char* kPrefixClean = "OkHttp cache v1\n";
  static constexpr const char* kPrefixDirty = "OkHttp DIRTY :(\n";

  // A relay copying `upstream` into `file` (created or truncated; a dirty header is written at
  // once), keeping up to `bufferMaxSize` recent bytes in memory. `metadata` goes after the
  // bytes when upstream ends. The caller may unlink `file` right away (the relay keeps it
  // open). With a buffer of 0 every byte a reader did not pull itself comes from the file.
  // Throws IOException if the file cannot be created or its header written,
  // std::invalid_argument if `upstream` is null or `bufferMaxSize` negative.
  static std::shared_ptr<Relay> edit(const std::filesystem::path& file,
                                     std::unique_ptr<Source> upstream, std::string metadata,
                                     int64_t bufferMaxSize);

  // A clean relay file made earlier, opened read-only: readers read it all from the file. Throws
  // IOException ("not a clean relay: <file>") if its header is dirty or unknown, or it is shorter
  // than the header says; IOException naming the file if it cannot be opened or read.
  static std::shared_ptr<Relay> read(const std::filesystem::path& file);

  ~Relay();
  Relay(const Relay&) = delete;
  Relay& operator=(const Relay&) = delete;

  // A new reader, from byte 0, or nullptr once upstream was closed before its end. `isCanceled`
  // (optional) is checked before each read and, about every 50 ms, while waiting for another
  // reader's pull (never under the relay's lock): when it answers true the read throws
  // InterruptedIOException("Canceled"). A wait longer than the reader's timeout() allows throws
  // SocketTimeoutException("timeout"). The reader keeps the relay alive; destroying it closes it.
  std::unique_ptr<Source> newSource(std::function<bool()> isCanceled = {});

  // The metadata: as given to edit(), or read from a clean file.
  const std::string& metadata() const;

  // True once upstream was read to its end and the file was made clean (so never after a failed
  // write to the file, even though the readers saw every byte).
  bool isComplete();
  // The number of readers open now.
  int readerCount();

  struct State;
  explicit Relay(std::unique_ptr<State> state);

 private:
  std::unique_ptr<State> state_;
};

}  // namespace tern::internal
