// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#include "connection/exchange.h"

#include <atomic>
#include <mutex>
#include <stdexcept>
#include <string>
#include <utility>

#include "concurrent/task_runner.h"
#include "connection/connection_user.h"
#include "connection/exchange_finder.h"
#include "connection/real_connection.h"
#include "io/ascii.h"
#include "tern/buffered_source.h"
#include "tern/exceptions.h"
#include "tern/forwarding_sink.h"
#include "tern/forwarding_source.h"

namespace tern::internal {

// The request body sink: reports the end of the request half (close()) and any failure.
class Exchange::RequestBodySink final : public ForwardingSink {
 public:
  RequestBodySink(std::shared_ptr<Exchange> exchange, std::unique_ptr<Sink> delegate)
      : ForwardingSink(std::move(delegate)), exchange_(std::move(exchange)) {}

  ~RequestBodySink() override {
    // Dropped without close(): the request is incomplete, and the exchange must not wait for
    // it. Closing would write a terminating chunk for a body that was never finished.
    if (!completed_) exchange_->requestBodyAbandoned(bytesWritten_);
  }

  void write(Buffer& source, int64_t byteCount) override {
    if (closed_) throw std::logic_error("RequestBodySink: closed");
    try {
      ForwardingSink::write(source, byteCount);
      bytesWritten_ += byteCount;
    } catch (const IOException&) {
      std::rethrow_exception(complete(std::current_exception()));
    }
  }

  void flush() override {
    try {
      ForwardingSink::flush();
    } catch (const IOException&) {
      std::rethrow_exception(complete(std::current_exception()));
    }
  }

  void close() override {
    if (closed_) return;
    closed_ = true;
    try {
      ForwardingSink::close();
    } catch (const IOException&) {
      std::rethrow_exception(complete(std::current_exception()));
    }
    if (std::exception_ptr e = complete(nullptr)) std::rethrow_exception(e);
  }

 private:
  std::exception_ptr complete(std::exception_ptr e) {
    if (completed_) return e;
    completed_ = true;
    return exchange_->bodyComplete(bytesWritten_, true, false, e);
  }

  std::shared_ptr<Exchange> exchange_;
  int64_t bytesWritten_ = 0;
  bool closed_ = false;
  bool completed_ = false;
};

// The response body source: reports the end of the response half (exhausted or closed) and any
// failure, translating it as the call says (a fired call timeout becomes "timeout").
class Exchange::ResponseBodySource final : public ForwardingSource {
 public:
  ResponseBodySource(std::shared_ptr<Exchange> exchange, std::unique_ptr<Source> delegate,
                     int64_t contentLength)
      : ForwardingSource(std::move(delegate)),
        exchange_(std::move(exchange)),
        contentLength_(contentLength) {
    if (contentLength_ == 0) {
      // Nothing to read: the exchange is complete now, so the connection returns to the pool
      // even if the caller never touches the body.
      if (std::exception_ptr e = complete(nullptr)) std::rethrow_exception(e);
    }
  }

  ~ResponseBodySource() override {
    try {
      close();
    } catch (...) {
      // Safe to drop: close() failed to drain the body, so the connection was marked as not
      // reusable and released; nobody is left to tell.
    }
  }

  int64_t read(Buffer& sink, int64_t byteCount) override {
    if (closed_) throw std::logic_error("ResponseBody: closed");
    try {
      int64_t read = ForwardingSource::read(sink, byteCount);
      reportBodyStart();
      if (read == -1) {
        if (std::exception_ptr e = complete(nullptr)) std::rethrow_exception(e);
        return -1;
      }
      bytesReceived_ += read;
      if (bytesReceived_ == contentLength_) {
        if (std::exception_ptr e = complete(nullptr)) std::rethrow_exception(e);
      }
      return read;
    } catch (const IOException&) {
      std::rethrow_exception(complete(std::current_exception()));
    }
  }

  void close() override {
    if (closed_) return;
    closed_ = true;
    try {
      ForwardingSource::close();
    } catch (const IOException&) {
      std::rethrow_exception(complete(std::current_exception()));
    }
    if (std::exception_ptr e = complete(nullptr)) std::rethrow_exception(e);
  }

 private:
  // responseBodyStart, once: when the first read returns, or when the body ends unread.
  void reportBodyStart() {
    if (bodyStartReported_) return;
    bodyStartReported_ = true;
    exchange_->responseBodyStart();
  }

  std::exception_ptr complete(std::exception_ptr e) {
    if (completed_) return e;
    completed_ = true;
    if (!e) reportBodyStart();
    return exchange_->bodyComplete(bytesReceived_, false, true, e);
  }

  std::shared_ptr<Exchange> exchange_;
  int64_t contentLength_;
  int64_t bytesReceived_ = 0;
  bool bodyStartReported_ = false;
  bool closed_ = false;
  bool completed_ = false;
};

// The socket after a 101: the codec's raw streams, counting what is read and remembering the
// first failure, so the exchange's response half can end with the right event once both streams
// are closed (the reader and the writer are usually two threads, so that is under a mutex).
class Exchange::Upgraded final : public UpgradedSocket {
 public:
  Upgraded(std::shared_ptr<Exchange> exchange, ExchangeCodec::UpgradedStreams streams)
      : exchange_(std::move(exchange)),
        source_(*this, std::move(streams.source)),
        sink_(*this, std::move(streams.sink)) {}

  ~Upgraded() override {
    try {
      source_.close();
    } catch (...) {
      // Safe to drop: closing the raw source releases nothing that can fail.
    }
    try {
      sink_.close();
    } catch (...) {
      // Safe to drop: a final flush failed, and nobody is left to tell; the failure was recorded.
    }
  }

  Source& source() override { return source_; }
  Sink& sink() override { return sink_; }
  void cancel() override { exchange_->cancel(); }

 private:
  class UpgradedSource final : public ForwardingSource {
   public:
    UpgradedSource(Upgraded& owner, std::unique_ptr<Source> delegate)
        : ForwardingSource(std::move(delegate)), owner_(owner) {}
    int64_t read(Buffer& sink, int64_t byteCount) override {
      try {
        int64_t read = ForwardingSource::read(sink, byteCount);
        if (read > 0) owner_.bytesRead_ += read;
        return read;
      } catch (const IOException&) {
        owner_.failed(std::current_exception());
        throw;
      }
    }
    void close() override {
      if (closed_) return;
      closed_ = true;
      ForwardingSource::close();
      owner_.halfClosed();
    }

   private:
    Upgraded& owner_;
    bool closed_ = false;
  };

  class UpgradedSink final : public ForwardingSink {
   public:
    UpgradedSink(Upgraded& owner, std::unique_ptr<Sink> delegate)
        : ForwardingSink(std::move(delegate)), owner_(owner) {}
    void write(Buffer& source, int64_t byteCount) override {
      try {
        ForwardingSink::write(source, byteCount);
      } catch (const IOException&) {
        owner_.failed(std::current_exception());
        throw;
      }
    }
    void close() override {
      if (closed_) return;
      closed_ = true;
      try {
        ForwardingSink::close();
      } catch (const IOException&) {
        owner_.failed(std::current_exception());
        owner_.halfClosed();
        throw;
      }
      owner_.halfClosed();
    }

   private:
    Upgraded& owner_;
    bool closed_ = false;
  };

  void failed(std::exception_ptr e) {
    std::lock_guard lock(mutex_);
    if (!failure_) failure_ = std::move(e);
  }

  // One of the two streams closed; the second ends the exchange's response half.
  void halfClosed() {
    std::exception_ptr failure;
    {
      std::lock_guard lock(mutex_);
      if (++closedHalves_ != 2) return;
      failure = failure_;
    }
    if (!failure) exchange_->responseBodyStart();
    std::exception_ptr e = exchange_->bodyComplete(bytesRead_.load(), false, true, failure);
    (void)e;  // Nobody reads on to be told: the streams are closed.
  }

  std::shared_ptr<Exchange> exchange_;
  std::atomic<int64_t> bytesRead_{0};
  std::mutex mutex_;
  int closedHalves_ = 0;        // Guarded by mutex_.
  std::exception_ptr failure_;  // Guarded by mutex_.
  UpgradedSource source_;
  UpgradedSink sink_;
};

Exchange::Exchange(std::shared_ptr<ConnectionUser> user, std::shared_ptr<ExchangeFinder> finder,
                   std::shared_ptr<RealConnection> connection, std::unique_ptr<ExchangeCodec> codec)
    : user_(std::move(user)),
      finder_(std::move(finder)),
      connection_(std::move(connection)),
      codec_(std::move(codec)) {}

Exchange::~Exchange() = default;

bool Exchange::isCoalescedConnection() const {
  return finder_->address().url().host() != connection_->route().address().url().host();
}

void Exchange::writeRequestHeaders(const Request& request) {
  try {
    user_->requestHeadersStart();
    codec_->writeRequestHeaders(request);
    user_->requestHeadersEnd(request);
  } catch (const IOException& e) {
    requestFailed(e);
    throw;
  }
}

std::unique_ptr<Sink> Exchange::createRequestBody(const Request& request) {
  int64_t contentLength = request.body()->contentLength();
  std::unique_ptr<Sink> raw;
  try {
    user_->requestBodyStart();
    raw = codec_->createRequestBody(request, contentLength);
  } catch (const IOException& e) {
    requestFailed(e);
    throw;
  }
  return std::make_unique<RequestBodySink>(shared_from_this(), std::move(raw));
}

void Exchange::writeRequestBodyLater(std::function<void()> write) {
  if (requestBodyWriter_) throw std::logic_error("Exchange: the request body is already written");
  requestBodyWriter_ = connection_->pool().taskRunner().newQueue("tern duplex request body");
  // Not cancelable: nothing cancels this queue but its destruction, and a body that never ran
  // would leave the stream half-open (dropping the task closes the sink unfinished instead).
  requestBodyWriter_->execute("write", std::chrono::nanoseconds(0), false, std::move(write));
}

void Exchange::flushRequest() {
  try {
    codec_->flushRequest();
  } catch (const IOException& e) {
    requestFailed(e);
    throw;
  }
}

void Exchange::finishRequest() {
  try {
    codec_->finishRequest();
  } catch (const IOException& e) {
    requestFailed(e);
    throw;
  }
}

void Exchange::responseHeadersStart() { user_->responseHeadersStart(); }

std::optional<Response::Builder> Exchange::readResponseHeaders(bool expectContinue) {
  try {
    return codec_->readResponseHeaders(expectContinue);
  } catch (const IOException& e) {
    responseFailed(e);
    throw;
  }
}

void Exchange::responseHeadersEnd(const Response& response) { user_->responseHeadersEnd(response); }

void Exchange::responseBodyStart() { user_->responseBodyStart(); }

ResponseBody Exchange::openResponseBody(const Response& response) {
  try {
    std::optional<MediaType> contentType;
    // The last Content-Type, parsed in place (Headers::get() would copy it first).
    const Headers& headers = response.headers();
    for (auto it = headers.end(); it != headers.begin();) {
      --it;
      if (equalsIgnoreCase(it->first, "Content-Type")) {
        contentType = MediaType::parse(it->second);
        break;
      }
    }
    int64_t contentLength = codec_->reportedContentLength(response);
    std::unique_ptr<Source> raw = codec_->openResponseBodySource(response);
    auto source =
        std::make_unique<ResponseBodySource>(shared_from_this(), std::move(raw), contentLength);
    return ResponseBody(buffer(std::move(source)), std::move(contentType), contentLength);
  } catch (const IOException& e) {
    responseFailed(e);
    throw;
  }
}

bool Exchange::switchedProtocols(const Response& response) const {
  return codec_->switchedProtocols(response);
}

std::shared_ptr<UpgradedSocket> Exchange::upgrade() {
  try {
    return std::make_shared<Upgraded>(shared_from_this(), codec_->openUpgradedStreams());
  } catch (const IOException& e) {
    responseFailed(e);
    throw;
  }
}

Headers Exchange::trailers() { return codec_->trailers(); }

void Exchange::noRequestBody() { user_->messageDone(*this, true, false, nullptr); }

void Exchange::noNewExchangesOnConnection() { connection_->noNewExchanges(); }

void Exchange::cancel() { codec_->cancel(); }

void Exchange::detachWithViolence() {
  codec_->cancel();
  user_->messageDone(*this, true, true, nullptr);
}

void Exchange::trackFailure(const IOException& e) {
  hasFailure_ = true;
  finder_->trackFailure(e, connection_);
  connection_->trackFailure(e, user_->isCanceled(), finder_->routeDatabase());
}

void Exchange::requestFailed(const IOException& e) {
  user_->requestFailed(e);
  trackFailure(e);
}

void Exchange::responseFailed(const IOException& e) {
  user_->responseFailed(e);
  trackFailure(e);
}

void Exchange::requestBodyAbandoned(int64_t bytesWritten) {
  user_->requestFailed(
      IOException("request body abandoned after " + std::to_string(bytesWritten) + " bytes"));
  user_->messageDone(*this, true, false, nullptr);
}

std::exception_ptr Exchange::bodyComplete(int64_t bytesRead, bool requestDone, bool responseDone,
                                          std::exception_ptr e) {
  if (!e) {
    if (requestDone) {
      user_->requestBodyEnd(bytesRead);
    }
    if (responseDone) {
      user_->responseBodyEnd(bytesRead);
    }
  } else {
    try {
      std::rethrow_exception(e);
    } catch (const IOException& ioException) {
      if (requestDone) requestFailed(ioException);
      if (responseDone) responseFailed(ioException);
    } catch (...) {
      // Only IOExceptions are tracked and reported; others pass through unchanged.
    }
  }
  return user_->messageDone(*this, requestDone, responseDone, e);
}

}  // namespace tern::internal
