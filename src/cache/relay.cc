// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#include "cache/relay.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <optional>
#include <span>
#include <stdexcept>
#include <system_error>
#include <utility>

#include "concurrent/condition.h"
#include "concurrent/mutex.h"
#include "tern/buffer.h"
#include "tern/exceptions.h"
#include "tern/timeout.h"

namespace tern::internal {

namespace {

// How often a reader waiting for another reader's pull looks at its isCanceled().
constexpr std::chrono::milliseconds kCancelCheckInterval{50};
constexpr size_t kPrefixSize = 16;

IOException fileError(std::string_view action, const std::filesystem::path& path, int error) {
  return IOException(std::string(action) + " " + path.string() + ": " +
                     std::generic_category().message(error));
}

// pwrite() until all of `data` is written: a regular file may still take less at a time.
void writeFully(int fd, const std::filesystem::path& path, std::span<const std::byte> data,
                int64_t offset) {
  while (!data.empty()) {
    ssize_t n = ::pwrite(fd, data.data(), data.size(), static_cast<off_t>(offset));
    if (n < 0) {
      if (errno == EINTR) continue;
      throw fileError("Failed to write", path, errno);
    }
    data = data.subspan(static_cast<size_t>(n));
    offset += n;
  }
}

// Writes every byte of `bytes` (consuming none) at `offset`.
void writeFully(int fd, const std::filesystem::path& path, const Buffer& bytes, int64_t offset) {
  for (size_t i = 0; i < bytes.segmentCount(); ++i) {
    std::span<const std::byte> segment = bytes.readableSegment(i);
    writeFully(fd, path, segment, offset);
    offset += static_cast<int64_t>(segment.size());
  }
}

// pread() until `out` is full or the file ends; returns the number of bytes read.
size_t readFully(int fd, const std::filesystem::path& path, std::span<std::byte> out,
                 int64_t offset) {
  size_t done = 0;
  while (done < out.size()) {
    ssize_t n = ::pread(fd, out.data() + done, out.size() - done, static_cast<off_t>(offset));
    if (n < 0) {
      if (errno == EINTR) continue;
      throw fileError("Failed to read", path, errno);
    }
    if (n == 0) break;
    done += static_cast<size_t>(n);
    offset += n;
  }
  return done;
}

// Appends the `byteCount` bytes at `offset` to `sink`, reading straight into its segments.
void readFully(int fd, const std::filesystem::path& path, Buffer& sink, int64_t byteCount,
               int64_t offset) {
  while (byteCount > 0) {
    std::span<std::byte> space = sink.writableSegment(1);
    space = space.first(std::min<size_t>(space.size(), static_cast<size_t>(byteCount)));
    size_t n = 0;
    try {
      n = readFully(fd, path, space, offset);
    } catch (...) {
      sink.commitWrite(0);
      throw;
    }
    sink.commitWrite(n);
    if (n < space.size()) throw IOException("Unexpected end of " + path.string());
    byteCount -= static_cast<int64_t>(n);
    offset += static_cast<int64_t>(n);
  }
}

void syncData(int fd, const std::filesystem::path& path) {
  if (::fdatasync(fd) != 0) throw fileError("Failed to sync", path, errno);
}

void putLong(std::byte* out, int64_t value) {
  auto bits = static_cast<uint64_t>(value);
  for (int i = 7; i >= 0; --i, bits >>= 8) out[i] = static_cast<std::byte>(bits & 0xff);
}

int64_t getLong(const std::byte* in) {
  uint64_t bits = 0;
  for (int i = 0; i < 8; ++i) bits = (bits << 8) | std::to_integer<uint64_t>(in[i]);
  return static_cast<int64_t>(bits);
}

void writeHeader(int fd, const std::filesystem::path& path, const char* prefix,
                 int64_t upstreamSize, int64_t metadataSize) {
  std::array<std::byte, Relay::kHeaderSize> header{};
  std::memcpy(header.data(), prefix, kPrefixSize);
  putLong(header.data() + 16, upstreamSize);
  putLong(header.data() + 24, metadataSize);
  writeFully(fd, path, header, 0);
}

// Closes a source whose outcome is already decided (exhausted or failed): a failure to close it
// cannot change what the readers see, so it is safe to ignore.
void closeQuietly(std::unique_ptr<Source> source) noexcept {
  if (!source) return;
  try {
    source->close();
  } catch (const std::exception&) {  // NOLINT(bugprone-empty-catch): see above.
  }
}

}  // namespace

struct Relay::State {
  State(std::filesystem::path file, int fd, std::string metadata, int64_t bufferMaxSize)
      : file(std::move(file)),
        fd(fd),
        metadata(std::move(metadata)),
        bufferMaxSize(bufferMaxSize) {}

  ~State() {
    closeQuietly(std::move(upstream));
    if (fd >= 0) ::close(fd);
  }

  State(const State&) = delete;
  State& operator=(const State&) = delete;

  // How much one pull asks of upstream: a whole window, so readers waiting for it find it all in
  // memory (OkHttp's choice); a segment when there is no window.
  int64_t pullSize() const { return bufferMaxSize > 0 ? bufferMaxSize : Buffer::kSegmentSize; }

  // The puller's bytes `pulled` (read from upstream at `pullPos`) go to the file, then to the
  // window, and the others are woken. A file write error is remembered, not thrown: readers in
  // the window still get every byte, and only those who need the lost bytes from the file fail.
  void append(Buffer& pulled, int64_t pullPos) TERN_EXCLUDES(mutex);

  // Upstream ended at `upstreamSize`: metadata, then the clean header, each made durable before
  // the next, so a crash never leaves a clean header over missing bytes.
  void commit(int64_t upstreamSize) TERN_EXCLUDES(mutex);

  // Upstream threw: every reader now throws `message`.
  void fail(std::string message) TERN_EXCLUDES(mutex);

  const std::filesystem::path file;
  // Read and written with pread/pwrite by every reader without the lock. Closed by ~State, or
  // (under the lock) when the last reader closes before upstream ended, when no reader is left
  // to use it.
  int fd;
  std::string metadata;  // Set before the relay is shared; never changed after.
  const int64_t bufferMaxSize;

  Mutex mutex;
  // Notified when upstreamPos advances, when the pull ends, and at the end or failure.
  Condition changed;

  // Null once closed (or for a relay made by read()). While `pulling`, the puller reads it
  // without the lock through a pointer it took under the lock; nobody else touches it then.
  std::unique_ptr<Source> upstream TERN_GUARDED_BY(mutex);
  // True while one reader pulls from upstream (OkHttp's upstreamReader).
  bool pulling TERN_GUARDED_BY(mutex) = false;
  // The number of bytes read from upstream and placed in the window (and the file).
  int64_t upstreamPos TERN_GUARDED_BY(mutex) = 0;
  // The number of upstream bytes in the file: upstreamPos, unless a write to the file failed.
  int64_t fileEnd TERN_GUARDED_BY(mutex) = 0;
  // Why the file stopped taking bytes, once a write to it failed.
  std::optional<std::string> fileError TERN_GUARDED_BY(mutex);
  // The last bytes before upstreamPos, at most bufferMaxSize of them.
  Buffer buffer TERN_GUARDED_BY(mutex);
  bool exhausted TERN_GUARDED_BY(mutex) = false;    // Upstream returned -1.
  bool clean TERN_GUARDED_BY(mutex) = false;        // The file has its clean header.
  bool closedEarly TERN_GUARDED_BY(mutex) = false;  // The last reader left before the end.
  std::optional<std::string> failure TERN_GUARDED_BY(mutex);
  int readers TERN_GUARDED_BY(mutex) = 0;
};

void Relay::State::append(Buffer& pulled, int64_t pullPos) {
  const int64_t byteCount = pulled.size();
  bool toFile = false;
  {
    MutexLock lock(mutex);
    toFile = !fileError;
  }
  std::optional<std::string> error;
  if (toFile) {
    try {
      writeFully(fd, file, pulled, kHeaderSize + pullPos);
    } catch (const IOException& e) {
      error = e.what();
    }
  }
  MutexLock lock(mutex);
  if (error) fileError = std::move(error);
  if (!fileError) fileEnd = pullPos + byteCount;
  buffer.write(pulled, byteCount);
  if (buffer.size() > bufferMaxSize) buffer.skip(buffer.size() - bufferMaxSize);
  upstreamPos = pullPos + byteCount;
  pulling = false;
  changed.notify_all();
}

void Relay::State::commit(int64_t upstreamSize) {
  std::optional<std::string> error;
  {
    MutexLock lock(mutex);
    error = fileError;
  }
  if (!error) {
    try {
      writeFully(fd, file, std::as_bytes(std::span(metadata)), kHeaderSize + upstreamSize);
      syncData(fd, file);
      writeHeader(fd, file, kPrefixClean, upstreamSize, static_cast<int64_t>(metadata.size()));
      syncData(fd, file);
    } catch (const IOException& e) {
      error = e.what();
    }
  }
  std::unique_ptr<Source> done;
  {
    MutexLock lock(mutex);
    exhausted = true;
    clean = !error;
    fileError = std::move(error);
    pulling = false;
    done = std::move(upstream);
    changed.notify_all();
  }
  closeQuietly(std::move(done));
}

void Relay::State::fail(std::string message) {
  std::unique_ptr<Source> failed;
  {
    MutexLock lock(mutex);
    failure = std::move(message);
    pulling = false;
    failed = std::move(upstream);
    changed.notify_all();
  }
  closeQuietly(std::move(failed));
}

namespace {

// One reader: its own position, timeout and cancel check; everything else is the relay's.
class RelaySource final : public Source {
 public:
  RelaySource(std::shared_ptr<Relay> relay, Relay::State& state, std::function<bool()> isCanceled)
      : relay_(std::move(relay)), state_(state), isCanceled_(std::move(isCanceled)) {}

  ~RelaySource() override { release(/*quietly=*/true); }

  RelaySource(const RelaySource&) = delete;
  RelaySource& operator=(const RelaySource&) = delete;

  int64_t read(Buffer& sink, int64_t byteCount) override;
  Timeout& timeout() override { return timeout_; }
  void close() override { release(/*quietly=*/false); }

 private:
  bool canceled() const { return isCanceled_ && isCanceled_(); }

  // Reads from upstream for everyone, as the puller. Returns what read() returns.
  int64_t pull(Source& upstream, Buffer& sink, int64_t byteCount, int64_t pullPos);

  // Leaves the relay; the last reader out before upstream ended closes upstream and the file.
  // Throws what upstream's close() threw unless `quietly`.
  void release(bool quietly);

  std::shared_ptr<Relay> relay_;  // Keeps state_ alive.
  Relay::State& state_;
  std::function<bool()> isCanceled_;
  Timeout timeout_;
  int64_t pos_ = 0;  // The next byte this reader returns.
  bool closed_ = false;
};

int64_t RelaySource::read(Buffer& sink, int64_t byteCount) {
  if (closed_) throw std::logic_error("closed");
  if (byteCount < 0) throw std::invalid_argument("byteCount < 0: " + std::to_string(byteCount));
  if (canceled()) throw InterruptedIOException("Canceled");
  timeout_.throwIfReached();
  if (byteCount == 0) return 0;

  Relay::State& s = state_;
  Source* upstream = nullptr;
  int64_t pullPos = 0;
  int64_t fileBytes = 0;
  {
    MutexLock lock(s.mutex);
    const std::optional<Timeout::Clock::time_point> until = timeout_.waitDeadline();
    while (true) {
      if (s.failure) throw IOException(*s.failure);
      if (pos_ < s.upstreamPos) break;
      if (s.exhausted) return -1;
      if (!s.pulling) {
        s.pulling = true;
        upstream = s.upstream.get();
        pullPos = s.upstreamPos;
        break;
      }
      // Another reader is pulling: wait for its bytes, looking at our cancel now and then.
      auto now = Timeout::Clock::now();
      if (until && now >= *until) throw SocketTimeoutException("timeout");
      auto wake = now + kCancelCheckInterval;
      if (until) wake = std::min(wake, *until);
      s.changed.wait_until(lock.native(), wake);
      // isCanceled() is the caller's code: don't run it under our lock.
      lock.unlock();
      const bool cancel = canceled();
      lock.lock();
      if (cancel) throw InterruptedIOException("Canceled");
    }

    if (!upstream) {
      const int64_t bufferPos = s.upstreamPos - s.buffer.size();
      if (pos_ >= bufferPos) {
        const int64_t n = std::min(byteCount, s.upstreamPos - pos_);
        s.buffer.copyTo(sink, pos_ - bufferPos, n);
        pos_ += n;
        return n;
      }
      if (pos_ >= s.fileEnd) throw IOException(*s.fileError);
      fileBytes = std::min(byteCount, s.fileEnd - pos_);
    }
  }

  if (!upstream) {
    // Bytes below fileEnd are never rewritten, so the file is read without the lock.
    readFully(s.fd, s.file, sink, fileBytes, Relay::kHeaderSize + pos_);
    pos_ += fileBytes;
    return fileBytes;
  }
  return pull(*upstream, sink, byteCount, pullPos);
}

int64_t RelaySource::pull(Source& upstream, Buffer& sink, int64_t byteCount, int64_t pullPos) {
  Relay::State& s = state_;
  // Any exception before the bytes are shared fails the relay: the others wait on this pull, and
  // bytes lost here could never be relayed again.
  try {
    Buffer pulled;
    const int64_t n = upstream.read(pulled, s.pullSize());
    if (n == -1) {
      s.commit(pullPos);
      return -1;
    }
    const int64_t count = std::min(n, byteCount);
    pulled.copyTo(sink, 0, count);
    s.append(pulled, pullPos);
    pos_ += count;
    return count;
  } catch (const std::exception& e) {
    s.fail(e.what());
    throw;
  } catch (...) {
    s.fail("upstream failed");
    throw;
  }
}

void RelaySource::release(bool quietly) {
  if (closed_) return;
  closed_ = true;
  Relay::State& s = state_;
  std::unique_ptr<Source> upstream;
  int fd = -1;
  {
    MutexLock lock(s.mutex);
    --s.readers;
    if (s.readers == 0 && !s.exhausted && !s.failure) {
      s.closedEarly = true;
      upstream = std::move(s.upstream);
      fd = std::exchange(s.fd, -1);
    }
  }
  if (fd >= 0) ::close(fd);
  if (quietly) {
    closeQuietly(std::move(upstream));  // From the destructor, which must not throw.
  } else if (upstream) {
    upstream->close();
  }
}

}  // namespace

std::shared_ptr<Relay> Relay::edit(const std::filesystem::path& file,
                                   std::unique_ptr<Source> upstream, std::string metadata,
                                   int64_t bufferMaxSize) {
  if (!upstream) throw std::invalid_argument("upstream == nullptr");
  if (bufferMaxSize < 0) {
    throw std::invalid_argument("bufferMaxSize < 0: " + std::to_string(bufferMaxSize));
  }
  int fd = ::open(file.c_str(), O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
  if (fd < 0) throw fileError("Failed to create", file, errno);
  auto state = std::make_unique<State>(file, fd, std::move(metadata), bufferMaxSize);
  // Dirty at once: a crash from here on leaves a file read() refuses.
  writeHeader(fd, file, kPrefixDirty, -1, -1);
  {
    MutexLock lock(state->mutex);
    state->upstream = std::move(upstream);
  }
  return std::make_shared<Relay>(std::move(state));
}

std::shared_ptr<Relay> Relay::read(const std::filesystem::path& file) {
  int fd = ::open(file.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) throw fileError("Failed to open", file, errno);
  auto state = std::make_unique<State>(file, fd, std::string(), 0);
  const IOException notClean("not a clean relay: " + file.string());

  std::array<std::byte, kHeaderSize> header{};
  if (readFully(fd, file, header, 0) != header.size()) throw notClean;
  if (std::memcmp(header.data(), kPrefixClean, kPrefixSize) != 0) throw notClean;
  const int64_t upstreamSize = getLong(header.data() + 16);
  const int64_t metadataSize = getLong(header.data() + 24);
  struct stat st {};
  if (::fstat(fd, &st) != 0) throw fileError("Failed to stat", file, errno);
  const int64_t bodySize = static_cast<int64_t>(st.st_size) - kHeaderSize;
  if (upstreamSize < 0 || metadataSize < 0 || upstreamSize > bodySize ||
      metadataSize > bodySize - upstreamSize) {
    throw notClean;
  }

  Buffer metadata;
  readFully(fd, file, metadata, metadataSize, kHeaderSize + upstreamSize);
  state->metadata = metadata.readUtf8();
  {
    MutexLock lock(state->mutex);
    state->upstreamPos = upstreamSize;
    state->fileEnd = upstreamSize;
    state->exhausted = true;
    state->clean = true;
  }
  return std::make_shared<Relay>(std::move(state));
}

Relay::Relay(std::unique_ptr<State> state) : state_(std::move(state)) {}

Relay::~Relay() = default;

std::unique_ptr<Source> Relay::newSource(std::function<bool()> isCanceled) {
  MutexLock lock(state_->mutex);
  if (state_->closedEarly || state_->failure) return nullptr;
  ++state_->readers;
  return std::make_unique<RelaySource>(shared_from_this(), *state_, std::move(isCanceled));
}

const std::string& Relay::metadata() const { return state_->metadata; }

bool Relay::isComplete() {
  MutexLock lock(state_->mutex);
  return state_->clean;
}

int Relay::readerCount() {
  MutexLock lock(state_->mutex);
  return state_->readers;
}

}  // namespace tern::internal
