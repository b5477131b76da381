// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#include "transfer.h"

#include <algorithm>
#include <chrono>
#include <cstddef>
#include <exception>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "exit_code.h"
#include "output.h"
#include "request_factory.h"
#include "tern/buffered_source.h"
#include "tern/call.h"
#include "tern/response.h"
#include "transfer_timing.h"
#include "waterfall.h"
#include "write_out.h"

namespace tern::tool {
namespace {

// The Client refuses positive timeouts under a millisecond.
constexpr std::chrono::nanoseconds kShortestTimeout = std::chrono::milliseconds(1);
constexpr size_t kChunkSize = size_t{64} * 1024;

std::chrono::nanoseconds seconds(double value) {
  auto duration =
      std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::duration<double>(value));
  return std::max(duration, kShortestTimeout);
}

Client makeClient(const Options& options, std::shared_ptr<NetworkObserver> observer,
                  std::shared_ptr<TransferEvents> events) {
  Client::Builder builder;
  // curl has no read or write timeout: a slow transfer runs until -m stops it.
  builder.readTimeout(std::chrono::nanoseconds::zero());
  builder.writeTimeout(std::chrono::nanoseconds::zero());
  // curl takes 0 as "the default" for --connect-timeout and as "no limit" for -m.
  if (options.connectTimeout && *options.connectTimeout > 0) {
    builder.connectTimeout(seconds(*options.connectTimeout));
  }
  if (options.maxTime && *options.maxTime > 0) {
    builder.callTimeout(seconds(*options.maxTime));
  }
  builder.addNetworkInterceptor(std::move(observer));
  builder.eventListenerFactory(std::move(events));
  return builder.build();
}

std::chrono::milliseconds millisecondsSince(Clock::time_point start) {
  return std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - start);
}

}  // namespace

TransferRunner::TransferRunner(const Options& options, std::ostream& out, std::ostream& err)
    : options_(options),
      out_(out),
      err_(err),
      observer_(
          std::make_shared<NetworkObserver>(droppedClientHeaders(options), options.maxRedirs)),
      events_(std::make_shared<TransferEvents>(options.verbose > 0 ? &err : nullptr,
                                               options.traceEvents ? &err : nullptr)),
      client_(makeClient(options, observer_, events_)) {}

int TransferRunner::run() {
  int exitCode = kExitOk;
  uint64_t urlNumber = 0;
  for (size_t i = 0; i < options_.urls.size(); ++i) {
    const std::string& url = options_.urls[i];
    OutputSpec spec = i < options_.outputs.size() ? options_.outputs[i] : OutputSpec();
    std::optional<UrlGlob> glob;
    try {
      glob = options_.globOff ? UrlGlob::literal(url) : UrlGlob::parse(url);
    } catch (const GlobException& e) {
      // As curl: a bad glob stops everything, even the URLs after it.
      if (options_.showErrors()) {
        err_ << "tern: (" << kExitUrlMalformed << ") " << e.what() << "\n";
      }
      return kExitUrlMalformed;
    }
    for (uint64_t j = 0; j < glob->size(); ++j) {
      GlobExpansion expansion = glob->at(j);
      TransferInfo info;
      info.url = expansion.url;
      info.urlNumber = urlNumber++;
      transfer(spec, expansion, info);
      if (info.exitCode != kExitOk) {
        reportError(info);
      }
      if (options_.writeOut) {
        writeOut(*options_.writeOut, info, out_, err_);
        out_.flush();
      }
      exitCode = info.exitCode;
    }
  }
  if (options_.waterfall) {
    try {
      writeWaterfallFile(events_->traces(), *options_.waterfall);
    } catch (const std::exception& e) {
      if (options_.showErrors()) err_ << "tern: (" << kExitWriteError << ") " << e.what() << "\n";
      return kExitWriteError;
    }
  }
  return exitCode;
}

void TransferRunner::transfer(const OutputSpec& spec, const GlobExpansion& expansion,
                              TransferInfo& info) {
  Clock::time_point start = Clock::now();
  FailureContext context;
  std::shared_ptr<CallTrace> trace;  // The call's events, once it is made.
  observer_->begin();
  info.urlEffective = expansion.url;  // Until the request, and then the response, say better.
  try {
    std::string fileName = outputFileName(spec, expansion);
    info.filenameEffective = fileName;
    Request request = buildRequest(options_, expansion.url);
    info.method = request.method();
    info.urlEffective = request.url().toString();
    context.host = request.url().host();
    context.port = request.url().port();
    if (request.body()) {
      info.sizeUpload = std::max<int64_t>(0, request.body()->contentLength());
    }

    std::shared_ptr<Call> call = client_.newCall(request);
    trace = events_->lastTrace();
    trace->start = start;  // -w's times count from the transfer's start, as time_total does.
    Response response = call->execute();
    const Request& last = response.request();
    info.method = last.method();
    info.urlEffective = last.url().toString();
    context.host = last.url().host();
    context.port = last.url().port();
    info.httpCode = response.code();
    info.protocol = response.protocol();
    info.responseHeaders = response.headers();
    for (const Response* prior = response.priorResponse(); prior != nullptr;
         prior = prior->priorResponse()) {
      if (prior->isRedirect()) {
        ++info.numRedirects;
      }
    }

    bool failed = options_.fail && response.code() >= 400;
    bool showHeads = options_.include || options_.head;
    if (!failed || showHeads) {
      std::unique_ptr<Output> output =
          fileName.empty() ? std::make_unique<Output>(out_) : std::make_unique<Output>(fileName);
      if (showHeads) {
        for (const std::string& head : observer_->log().responseHeads) {
          output->write(head);
        }
      }
      if (!failed && !options_.head && response.body() != nullptr) {
        BufferedSource& source = response.body()->source();
        std::vector<std::byte> chunk(kChunkSize);
        for (int64_t n; (n = source.read(std::span(chunk))) != -1;) {
          output->write(std::string_view(reinterpret_cast<const char*>(chunk.data()),
                                         static_cast<size_t>(n)));
          info.sizeDownload += n;
          context.bytesReceived = info.sizeDownload;
        }
        response.body()->close();
      }
      output->finish();
    }
    if (failed) {
      throw ToolException(kExitHttpReturnedError,
                          "The requested URL returned error: " + std::to_string(response.code()));
    }
  } catch (...) {
    context.elapsed = millisecondsSince(start);
    TransferError error = classifyFailure(std::current_exception(), context);
    info.exitCode = error.exitCode;
    info.errorMessage = error.message;
  }
  for (const std::string& head : observer_->log().responseHeads) {
    info.sizeHeader += static_cast<int64_t>(head.size());
  }
  info.timeTotal = Clock::now() - start;
  if (trace) {
    info.numConnects = trace->newConnections;
    info.remoteIp = trace->remoteIp;
    info.remotePort = trace->remotePort;
    TransferTimes times = transferTimes(*trace);
    info.timeNamelookup = times.namelookup;
    info.timeConnect = times.connect;
    info.timeAppconnect = times.appconnect;
    info.timePretransfer = times.pretransfer;
    info.timeStartTransfer = times.starttransfer;
  }
}

void TransferRunner::reportError(const TransferInfo& info) {
  if (options_.showErrors()) {
    out_.flush();  // The body so far comes before the message, as on curl's terminal.
    err_ << "tern: (" << info.exitCode << ") " << info.errorMessage << "\n";
  }
}

}  // namespace tern::tool
