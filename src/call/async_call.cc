// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#include "call/async_call.h"

#include <exception>
#include <iostream>
#include <optional>
#include <utility>

#include "call/real_call.h"
#include "tern/exceptions.h"

namespace tern::internal {

AsyncCall::AsyncCall(std::shared_ptr<RealCall> call, std::shared_ptr<Callback> callback)
    : call_(std::move(call)),
      callback_(std::move(callback)),
      callsPerHost_(std::make_shared<std::atomic<int>>(0)) {}

const std::string& AsyncCall::host() const { return call_->request().url().host(); }

void AsyncCall::executeOn(const Dispatcher::Executor& executor) {
  std::shared_ptr<AsyncCall> self = shared_from_this();
  try {
    executor([self] { self->run(); });
    return;
  } catch (...) {
    // The executor refused (it is shutting down, or out of threads): fail the call, as OkHttp
    // does with RejectedExecutionException.
  }
  InterruptedIOException rejected("executor rejected");
  call_->noMoreExchanges(std::make_exception_ptr(rejected));
  try {
    callback_->onFailure(*call_, rejected);
  } catch (const std::exception& e) {
    std::cerr << "tern: callback failure for " << call_->toLoggableString() << ": " << e.what()
              << "\n";
  }
  call_->client().dispatcher()->finished(self, false);
}

void AsyncCall::run() {
  std::shared_ptr<AsyncCall> self = shared_from_this();
  call_->timeoutEnter();
  std::optional<Response> response;
  std::exception_ptr failure;  // Always an IOException.
  try {
    response.emplace(call_->getResponseWithInterceptorChain());
  } catch (const IOException&) {
    failure = std::current_exception();
  } catch (const std::exception& e) {
    // A bug in an interceptor: cancel the call so it releases what it holds, and report it.
    call_->cancel();
    failure = std::make_exception_ptr(IOException(std::string("canceled due to ") + e.what()));
  } catch (...) {
    call_->cancel();
    failure = std::make_exception_ptr(IOException("canceled due to an unknown exception"));
  }

  try {
    if (response) {
      callback_->onResponse(*call_, std::move(*response));
    } else {
      try {
        std::rethrow_exception(failure);
      } catch (const IOException& e) {
        callback_->onFailure(*call_, e);
      }
    }
  } catch (const std::exception& e) {
    // The callback's own failure; it already had its answer, so there is no one else to tell.
    std::cerr << "tern: callback failure for " << call_->toLoggableString() << ": " << e.what()
              << "\n";
  } catch (...) {
    std::cerr << "tern: callback failure for " << call_->toLoggableString() << "\n";
  }
  call_->client().dispatcher()->finished(self, true);
}

}  // namespace tern::internal
