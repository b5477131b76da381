// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#include "sse_mode.h"

#include <chrono>
#include <condition_variable>
#include <memory>
#include <mutex>
#include <optional>
#include <string>

#include "exit_code.h"
#include "io/ascii.h"
#include "message_text.h"
#include "request_factory.h"
#include "tern/client.h"
#include "tern/connection.h"
#include "tern/event_source.h"
#include "tern/exceptions.h"
#include "tern/interceptor.h"
#include "tern/protocol.h"
#include "tls_setup.h"

namespace tern::tool {
namespace {

using Clock = std::chrono::steady_clock;

std::chrono::nanoseconds seconds(double value) {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::duration<double>(value));
}

// -v: each connection's request and response head, as curl shows them.
std::shared_ptr<Interceptor> verboseHeads(std::ostream& err) {
  return Interceptor::of([&err](Interceptor::Chain& chain) {
    const Request& request = chain.request();
    std::string target = request.url().encodedPath();
    if (std::optional<std::string> query = request.url().encodedQuery()) target += "?" + *query;
    Protocol protocol = chain.connection() ? chain.connection()->protocol() : Protocol::HTTP_1_1;
    err << "> " << request.method() << " " << target << " " << httpVersionText(protocol) << "\n";
    for (size_t i = 0; i < request.headers().size(); ++i) {
      err << "> " << request.headers().name(i) << ": " << request.headers().value(i) << "\n";
    }
    err << ">\n";
    Response response = chain.proceed(request);
    err << "< " << httpVersionText(response.protocol()) << " " << response.code() << " "
        << response.message() << "\n";
    for (size_t i = 0; i < response.headers().size(); ++i) {
      err << "< " << response.headers().name(i) << ": " << response.headers().value(i) << "\n";
    }
    err << "<\n" << std::flush;
    return response;
  });
}

// Prints the events and keeps the outcome for runSse() to wait on. Its calls come one at a time
// (EventSourceListener's contract); the lock is for the waiting main thread.
class PrintingListener final : public EventSourceListener {
 public:
  PrintingListener(std::ostream& out, std::ostream& err, bool verbose, FailureContext context)
      : out_(out), err_(err), verbose_(verbose), context_(std::move(context)) {}

  void onOpen(EventSource&, const Response& response) override {
    if (verbose_) err_ << "* Event stream open (" << response.code() << ")\n" << std::flush;
  }

  void onEvent(EventSource& source, const std::optional<std::string>&,
               const std::optional<std::string>& type, const std::string& data) override {
    out_ << type.value_or("message") << ": " << data << "\n" << std::flush;
    if (!out_) {
      end({kExitWriteError, "Failure writing output to destination"});
      source.cancel();
    }
  }

  void onRetryChange(EventSource&, std::chrono::milliseconds retry) override {
    if (verbose_) err_ << "* Retry delay is now " << retry.count() << " ms\n" << std::flush;
  }

  void onClosed(EventSource&) override { end({kExitOk, ""}); }

  void onFailure(EventSource&, const std::exception_ptr& error, const Response* response) override {
    if (!error) {
      int code = response ? response->code() : 0;
      if (code >= 400) {
        end({kExitHttpReturnedError, "The requested URL returned error: " + std::to_string(code)});
      } else {
        end({kExitWeirdServerReply,
             "The server answered " + std::to_string(code) + ", not an event stream"});
      }
      return;
    }
    FailureContext context = context_;
    context.elapsed =
        std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - started_);
    if (response) context.protocol = response->protocol();
    end(classifyFailure(error, context));
  }

  // Waits for the end, or until `deadline`; nullopt if the deadline came first.
  std::optional<TransferError> await(std::optional<Clock::time_point> deadline) {
    std::unique_lock lock(mutex_);
    if (deadline) {
      changed_.wait_until(lock, *deadline, [&] { return result_.has_value(); });
    } else {
      changed_.wait(lock, [&] { return result_.has_value(); });
    }
    return result_;
  }

 private:
  void end(TransferError error) {
    std::lock_guard lock(mutex_);
    if (!result_) result_ = std::move(error);  // A write error stays ahead of the Canceled.
    changed_.notify_all();
  }

  std::ostream& out_;
  std::ostream& err_;
  const bool verbose_;
  const FailureContext context_;
  const Clock::time_point started_ = Clock::now();
  std::mutex mutex_;
  std::condition_variable changed_;
  std::optional<TransferError> result_;
};

}  // namespace

int runSse(const Options& options, std::ostream& out, std::ostream& err) {
  Clock::time_point started = Clock::now();
  Request request = buildRequest(options, options.urls.front());
  bool acceptGiven = false;
  for (const std::string& line : options.headers) {
    acceptGiven = acceptGiven || internal::startsWithIgnoreCase(line, "accept:");
  }
  if (!acceptGiven) request = request.newBuilder().header("Accept", "text/event-stream").build();

  Client::Builder builder;
  configureTls(options, builder, err);
  // A stream may be quiet for as long as it likes; -m bounds the whole run instead.
  builder.readTimeout(std::chrono::nanoseconds::zero());
  builder.writeTimeout(std::chrono::nanoseconds::zero());
  if (options.connectTimeout && *options.connectTimeout > 0) {
    builder.connectTimeout(seconds(*options.connectTimeout));
  }
  builder.followRedirects(options.location);
  if (options.verbose > 0) builder.addNetworkInterceptor(verboseHeads(err));
  Client client = builder.build();

  FailureContext context;
  context.host = request.url().host();
  context.port = request.url().port();
  auto listener = std::make_shared<PrintingListener>(out, err, options.verbose > 0, context);
  EventSources::Options sseOptions;
  sseOptions.reconnectBeforeOpen = false;  // A wrong URL or a server that is down: say so.
  std::shared_ptr<EventSource> source =
      EventSources::createFactory(client, sseOptions)->newEventSource(request, listener);

  std::optional<Clock::time_point> deadline;
  if (options.maxTime && *options.maxTime > 0) {
    deadline = started + std::chrono::duration_cast<Clock::duration>(seconds(*options.maxTime));
  }
  std::optional<TransferError> result = listener->await(deadline);
  if (!result) {
    source->cancel();
    listener->await(std::nullopt);  // The source's last callback, so nothing outlives us.
    auto elapsed = std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - started);
    result = TransferError{
        kExitOperationTimedOut,
        "Operation timed out after " + std::to_string(elapsed.count()) + " milliseconds"};
  }
  client.shutdown();
  if (result->exitCode != kExitOk && options.showErrors()) {
    err << "tern: (" << result->exitCode << ") " << result->message << "\n";
  }
  return result->exitCode;
}

}  // namespace tern::tool
