// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#include "ws_mode.h"

#include <fcntl.h>
#include <poll.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <exception>
#include <memory>
#include <mutex>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <thread>
#include <utility>
#include <vector>

#include "debug_output.h"
#include "exit_code.h"
#include "request_factory.h"
#include "resolve_table.h"
#include "tern/client.h"
#include "tern/exceptions.h"
#include "tern/request.h"
#include "tern/response.h"
#include "tern/web_socket.h"
#include "transfer.h"

namespace tern::tool {
namespace {

using Clock = std::chrono::steady_clock;

// How long the input loop waits for stdin before it looks at the socket again (a server that
// closed first ends the session even while stdin stays open).
constexpr std::chrono::milliseconds kPollInterval{50};
// The most of stdin's lines queued on the socket at once: past it, reading waits for the writer,
// so a large input never reaches the 16 MiB at which the socket refuses messages.
constexpr int64_t kMaxQueued = int64_t{1} << 20;
constexpr size_t kReadSize = size_t{64} * 1024;

// How a session ended: the exit code and the message after "tern: (N) ".
struct Outcome {
  int exitCode = kExitOk;
  std::string message;
};

// The close codes that end a session the server closed as a success: normal closure, going away
// (RFC 6455 §7.4.1), and a close frame without a code (1005, §7.1.5).
bool isCleanClose(int code) { return code == 1000 || code == 1001 || code == 1005; }

// `code` and `reason` as -v and the messages show them: 1000 "bye", or 1000 alone.
std::string closeText(int code, std::string_view reason) {
  std::string text = std::to_string(code);
  if (!reason.empty()) text += " \"" + std::string(reason) + "\"";
  return text;
}

// `error` as an exception_ptr of its own type, for classifyFailure(). The library reports
// failures from inside the catch block that caught them (the dispatcher's for the handshake,
// the reader's after it), so the exception in flight is usually `error` itself, nested causes
// and all; otherwise a copy of the most derived type classifyFailure tells apart.
std::exception_ptr failureOf(const IOException& error) {
  if (std::exception_ptr current = std::current_exception()) {
    try {
      std::rethrow_exception(current);
    } catch (const IOException& e) {
      if (&e == &error) return current;
    } catch (...) {  // Another exception in flight: copy `error` below.
    }
  }
  const std::string message = error.what();
  if (dynamic_cast<const ConnectException*>(&error))
    return std::make_exception_ptr(ConnectException(message));
  if (dynamic_cast<const UnknownHostException*>(&error)) {
    return std::make_exception_ptr(UnknownHostException(message));
  }
  if (dynamic_cast<const InterruptedIOException*>(&error)) {
    return std::make_exception_ptr(InterruptedIOException(message));
  }
  if (const auto* handshake = dynamic_cast<const SSLHandshakeException*>(&error)) {
    try {
      std::rethrow_if_nested(*handshake);
    } catch (...) {  // Its cause (a CertificateException: exit 60), nested in the copy too.
      try {
        std::throw_with_nested(SSLHandshakeException(message));
      } catch (...) {
        return std::current_exception();
      }
    }
    return std::make_exception_ptr(SSLHandshakeException(message));
  }
  if (dynamic_cast<const SSLPeerUnverifiedException*>(&error)) {
    return std::make_exception_ptr(SSLPeerUnverifiedException(message));
  }
  if (dynamic_cast<const ProtocolException*>(&error)) {
    return std::make_exception_ptr(ProtocolException(message));
  }
  if (dynamic_cast<const EOFException*>(&error))
    return std::make_exception_ptr(EOFException(message));
  if (const auto* write = dynamic_cast<const SocketWriteException*>(&error)) {
    return std::make_exception_ptr(*write);
  }
  return std::make_exception_ptr(IOException(message));
}

// The tool's WebSocketListener: prints each message on `out`, shows -v's "* ws:" lines, and
// keeps the session's state for runWebSocket()'s thread to wait on. Its callbacks come on the
// socket's thread, one at a time; the other methods are for the main thread. The first outcome
// set (by a callback, or by the main thread before it cancels the socket) is the one reported.
class WebSocketPrinter final : public WebSocketListener {
 public:
  WebSocketPrinter(std::ostream& out, std::shared_ptr<DebugOutput> debug, FailureContext context,
                   Clock::time_point start)
      : out_(out), debug_(std::move(debug)), context_(std::move(context)), start_(start) {}

  void onOpen(WebSocket&, const Response& response) override {
    if (debug_) {
      std::optional<std::string> extensions = response.header("Sec-WebSocket-Extensions");
      info("open" + (extensions ? ", extensions: " + *extensions : std::string()));
    }
    std::lock_guard lock(mutex_);
    open_ = true;
    changed_.notify_all();
  }

  void onMessage(WebSocket& webSocket, const std::string& text) override {
    print(webSocket, "text", text);
  }

  void onMessage(WebSocket& webSocket, const std::vector<std::byte>& bytes) override {
    print(webSocket, "binary",
          std::string_view(reinterpret_cast<const char*>(bytes.data()), bytes.size()));
  }

  void onClosing(WebSocket& webSocket, int code, const std::string& reason) override {
    info("< close " + closeText(code, reason));
    bool answer = false;
    {
      std::lock_guard lock(mutex_);
      serverClosing_ = true;
      answer = !clientClosing_;
      if (answer && !isCleanClose(code)) {
        // Reported once the close handshake is done (onClosed), so the answer goes out first.
        serverError_ = Outcome{kExitRecvError, "WebSocket closed by the server with code " +
                                                   std::to_string(code) +
                                                   (reason.empty() ? "" : ": " + reason)};
      }
      changed_.notify_all();
    }
    if (!answer) return;
    // Answer with the server's code (RFC 6455 §5.5.1), as the library would, so -v can say so;
    // a code no endpoint may send (1005) is answered with 1000.
    int echo = code;
    try {
      webSocket.close(code, "");
    } catch (const std::invalid_argument&) {  // A reserved code: 1000 instead, below.
      echo = 1000;
      webSocket.close(echo, "");
    }
    info("> close " + closeText(echo, ""));
  }

  void onClosed(WebSocket&, int code, const std::string& reason) override {
    info("closed " + closeText(code, reason));
    std::lock_guard lock(mutex_);
    setOutcomeLocked(serverError_.value_or(Outcome{kExitOk, ""}));
  }

  void onFailure(WebSocket&, const IOException& error, const Response* response) override {
    Outcome outcome;
    if (response != nullptr && response->code() != 101) {
      outcome = {kExitHttpReturnedError, "WebSocket handshake refused: HTTP " +
                                             std::to_string(response->code()) + " " +
                                             response->message()};
    } else if (response != nullptr) {
      outcome = {kExitWeirdServerReply, std::string("WebSocket handshake failed: ") + error.what()};
    } else {
      FailureContext context = context_;
      context.elapsed =
          std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - start_);
      TransferError classified = classifyFailure(failureOf(error), context);
      outcome = {classified.exitCode, std::move(classified.message)};
      std::lock_guard lock(mutex_);
      if (open_ && outcome.exitCode == kExitWeirdServerReply) {
        outcome.message = "WebSocket protocol error from the server: " + outcome.message;
      } else if (open_ && dynamic_cast<const EOFException*>(&error) != nullptr) {
        // Not a body cut short (18): the connection ended without the close handshake.
        outcome = {
            kExitRecvError,
            std::string("WebSocket connection ended without a close frame: ") + error.what()};
      }
    }
    if (debug_) info(std::string("failed: ") + error.what());
    std::lock_guard lock(mutex_);
    setOutcomeLocked(std::move(outcome));
  }

  // Waits until the socket is open or over, or `deadline` passes; true if it is open.
  bool awaitOpen(std::optional<Clock::time_point> deadline) {
    std::unique_lock lock(mutex_);
    auto ready = [this] { return open_ || outcome_; };
    if (deadline) {
      changed_.wait_until(lock, *deadline, ready);
    } else {
      changed_.wait(lock, ready);
    }
    return open_ && !outcome_;
  }

  // Waits until the session has an outcome, or `deadline` passes; returns the outcome.
  std::optional<Outcome> awaitOutcome(std::optional<Clock::time_point> deadline) {
    std::unique_lock lock(mutex_);
    auto ready = [this] { return outcome_.has_value(); };
    if (deadline) {
      changed_.wait_until(lock, *deadline, ready);
    } else {
      changed_.wait(lock, ready);
    }
    return outcome_;
  }

  // True once no more input should be sent: the session is over or the server is closing.
  bool inputEnded() {
    std::lock_guard lock(mutex_);
    return outcome_.has_value() || serverClosing_;
  }

  // The client starts the close (at the end of input): a close from the server that crosses it
  // is then its answer. False if the server closed first.
  bool startClientClose() {
    std::lock_guard lock(mutex_);
    if (serverClosing_) return false;
    clientClosing_ = true;
    return true;
  }

  // Ends the session with `outcome` unless it already has one (the main thread calls this
  // before it cancels the socket, so the cancellation's onFailure does not replace it).
  void fail(Outcome outcome) {
    std::lock_guard lock(mutex_);
    setOutcomeLocked(std::move(outcome));
  }

  int64_t bytesReceived() {
    std::lock_guard lock(mutex_);
    return bytesReceived_;
  }

  // -v's "* ws: ..." line.
  void info(const std::string& text) {
    if (debug_) debug_->info("ws: " + text + "\n");
  }

 private:
  void print(WebSocket& webSocket, std::string_view kind, std::string_view message) {
    info("< " + std::string(kind) + " " + std::to_string(message.size()) + " bytes");
    out_.write(message.data(), static_cast<std::streamsize>(message.size()));
    out_.put('\n');
    out_.flush();
    std::lock_guard lock(mutex_);
    bytesReceived_ += static_cast<int64_t>(message.size());
    if (!out_) {
      setOutcomeLocked({kExitWriteError, "Failure writing output to destination"});
      webSocket.cancel();
    }
  }

  void setOutcomeLocked(Outcome outcome) {
    if (!outcome_) outcome_ = std::move(outcome);
    changed_.notify_all();
  }

  std::ostream& out_;
  const std::shared_ptr<DebugOutput> debug_;
  const FailureContext context_;
  const Clock::time_point start_;
  std::mutex mutex_;  // Guards the state below.
  std::condition_variable changed_;
  bool open_ = false;
  bool serverClosing_ = false;  // The server's close frame came.
  bool clientClosing_ = false;  // The tool closed first (end of input).
  int64_t bytesReceived_ = 0;
  std::optional<Outcome> serverError_;  // The server closed first with an unclean code.
  std::optional<Outcome> outcome_;
};

// Reads `input` in lines without blocking past a poll interval, so the caller can watch the
// socket between reads.
class LineReader {
 public:
  explicit LineReader(int input) : input_(input) {}

  // Reads what is there (waiting up to `wait` for some) and returns the whole lines it
  // completed, without their "\n" or "\r\n". At the end of input (also a descriptor that is not
  // open), the last line without a "\n" comes too, and ended() is true.
  std::vector<std::string> read(std::chrono::milliseconds wait) {
    std::vector<std::string> lines;
    if (ended_) return lines;
    pollfd fd{input_, POLLIN, 0};
    int ready = ::poll(&fd, 1, static_cast<int>(wait.count()));
    if (ready < 0 && errno == EINTR) return lines;
    if (ready == 0) return lines;
    ssize_t n = -1;
    if (ready > 0 && (fd.revents & POLLNVAL) == 0) {
      std::string chunk(kReadSize, '\0');
      do {
        n = ::read(input_, chunk.data(), chunk.size());
      } while (n < 0 && errno == EINTR);
      if (n > 0) pending_.append(chunk.data(), static_cast<size_t>(n));
    }
    for (size_t newline; (newline = pending_.find('\n')) != std::string::npos;) {
      std::string line = pending_.substr(0, newline);
      if (!line.empty() && line.back() == '\r') line.pop_back();
      lines.push_back(std::move(line));
      pending_.erase(0, newline + 1);
    }
    if (n <= 0) {  // The end of input, or a descriptor that cannot be read: as the end.
      ended_ = true;
      if (!pending_.empty()) lines.push_back(std::exchange(pending_, {}));
    }
    return lines;
  }

  bool ended() const { return ended_; }

 private:
  const int input_;
  std::string pending_;
  bool ended_ = false;
};

std::chrono::nanoseconds seconds(double value) {
  return std::max<std::chrono::nanoseconds>(
      std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::duration<double>(value)),
      std::chrono::milliseconds(1));
}

int report(const Options& options, std::ostream& err, const Outcome& outcome) {
  if (outcome.exitCode != kExitOk && options.showErrors()) {
    err << "tern: (" << outcome.exitCode << ") " << outcome.message << "\n";
  }
  return outcome.exitCode;
}

}  // namespace

std::string webSocketHttpUrl(std::string_view url) {
  auto startsWithIgnoringCase = [&](std::string_view prefix) {
    return url.size() >= prefix.size() &&
           std::equal(prefix.begin(), prefix.end(), url.begin(), [](char a, char b) {
             return a == (b >= 'A' && b <= 'Z' ? static_cast<char>(b - 'A' + 'a') : b);
           });
  };
  if (startsWithIgnoringCase("ws://")) return "http://" + std::string(url.substr(5));
  if (startsWithIgnoringCase("wss://")) return "https://" + std::string(url.substr(6));
  return std::string(url);
}

int runWebSocket(const Options& options, int input, std::ostream& out, std::ostream& err) {
  const Clock::time_point start = Clock::now();
  if (::fcntl(input, F_GETFD) == -1) {
    // A closed stdin (tern --ws URL <&-) is an empty one; /dev/null takes its number first, so
    // that no socket the client opens gets it and is read as input.
    int devNull = ::open("/dev/null", O_RDONLY | O_CLOEXEC);
    if (devNull >= 0 && devNull != input) {
      ::dup2(devNull, input);
      ::close(devNull);
    }
  }
  std::optional<Clock::time_point> deadline;
  if (options.maxTime && *options.maxTime > 0) {
    deadline = start + std::chrono::duration_cast<Clock::duration>(seconds(*options.maxTime));
  }
  if (options.urls.size() != 1) {
    return report(options, err, {kExitFailedInit, "--ws takes one URL"});
  }
  std::optional<Request> request;
  try {
    request = buildRequest(options, webSocketHttpUrl(options.urls.front()));
  } catch (const ToolException& e) {
    return report(options, err, {e.exitCode(), e.what()});
  }
  FailureContext context;
  context.host = request->url().host();
  context.port = request->url().port();

  TransferRunner runner(options, out, err);  // For its client, as the options configure it.
  if (const std::shared_ptr<ResolveTable>& resolve = runner.resolveTable()) {
    try {
      resolve->check();
    } catch (const ToolException& e) {
      return report(options, err, {e.exitCode(), e.what()});
    }
    if (runner.debugOutput()) {
      for (const ResolveTable::Entry& entry : resolve->entries()) {
        runner.debugOutput()->info("Added " + entry.text + " to DNS cache\n");
      }
    }
    resolve->use(context.host, context.port);
  }
  Client client = runner.client().newBuilder().webSocketCompression(!options.wsNoCompress).build();
  auto printer = std::make_shared<WebSocketPrinter>(out, runner.debugOutput(), context, start);
  std::shared_ptr<WebSocket> webSocket;
  try {
    webSocket = client.newWebSocket(std::move(*request), printer);
  } catch (const std::invalid_argument& e) {  // -H with a header the library sets itself.
    return report(options, err, {kExitBadFunctionArgument, e.what()});
  }
  // curl's message for -m, with the message bytes received so far.
  auto timedOut = [&] {
    auto elapsed = std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - start);
    return Outcome{kExitOperationTimedOut,
                   "Operation timed out after " + std::to_string(elapsed.count()) +
                       " milliseconds with " + std::to_string(printer->bytesReceived()) +
                       " bytes received"};
  };
  auto pastDeadline = [&] { return deadline && Clock::now() >= *deadline; };

  if (printer->awaitOpen(deadline)) {
    LineReader lines(input);
    while (!lines.ended() && !printer->inputEnded()) {
      if (pastDeadline()) break;
      for (const std::string& line : lines.read(kPollInterval)) {
        // Backpressure: wait for the writer rather than queue without bound.
        while (webSocket->queueSize() > kMaxQueued && !printer->inputEnded() && !pastDeadline()) {
          std::this_thread::sleep_for(std::chrono::milliseconds(1));
        }
        bool sent = false;
        try {
          sent = webSocket->send(line);
        } catch (const std::invalid_argument& e) {
          printer->fail({kExitBadFunctionArgument,
                         "a line of standard input is not valid UTF-8: cannot send it as a text "
                         "message"});
          break;
        }
        if (!sent) {
          if (!printer->inputEnded()) {
            printer->fail({kExitSendError, "WebSocket refused a message of " +
                                               std::to_string(line.size()) +
                                               " bytes: its queue is full (16 MiB)"});
          }
          break;
        }
        printer->info("> text " + std::to_string(line.size()) + " bytes");
      }
    }
    if (pastDeadline()) {
      printer->fail(timedOut());
    } else if (printer->startClientClose()) {
      if (webSocket->close(1000, "")) printer->info("> close 1000");
    }
  }
  std::optional<Outcome> outcome = printer->awaitOutcome(deadline);
  if (!outcome) {
    printer->fail(timedOut());
    outcome = printer->awaitOutcome(std::nullopt);
  }
  // Ends what is left (nothing after a close handshake; the connection after a failure), then
  // waits, briefly, for the socket's threads to let go of it, so that its connection is closed
  // and the client shut down before the process exits.
  webSocket->cancel();
  std::weak_ptr<WebSocket> released = webSocket;
  webSocket.reset();
  for (auto until = Clock::now() + std::chrono::seconds(2);
       !released.expired() && Clock::now() < until;) {
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  client.shutdown();
  return report(options, err, *outcome);
}

}  // namespace tern::tool
