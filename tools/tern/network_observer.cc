// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#include "network_observer.h"

#include <string>
#include <utility>

#include "exit_code.h"
#include "message_text.h"
#include "tern/exceptions.h"

namespace tern::tool {

NetworkObserver::NetworkObserver(std::ostream* verbose, std::vector<std::string> droppedHeaders,
                                 std::optional<int64_t> maxRedirects)
    : verbose_(verbose), droppedHeaders_(std::move(droppedHeaders)), maxRedirects_(maxRedirects) {}

void NetworkObserver::begin(const Call& call, std::chrono::steady_clock::time_point start) {
  std::lock_guard lock(mutex_);
  ExchangeLog& log = logs_[&call];
  log = ExchangeLog();
  log.start = start;
}

ExchangeLog NetworkObserver::take(const Call& call) {
  std::lock_guard lock(mutex_);
  auto it = logs_.find(&call);
  if (it == logs_.end()) return ExchangeLog();
  ExchangeLog result = std::move(it->second);
  logs_.erase(it);
  return result;
}

int NetworkObserver::connectionNumber(const Connection& connection, bool& isNew) {
  std::string local;
  try {
    local = connection.localAddress().toString();
  } catch (const IOException&) {
    // The socket is already closed; the exchange will fail on it, and identity by object is
    // all that is left to go on.
  }
  auto [it, inserted] = connections_.try_emplace({&connection, std::move(local)},
                                                 static_cast<int>(connections_.size()));
  isNew = inserted;
  return it->second;
}

Response NetworkObserver::intercept(Chain& chain) {
  Request request = chain.request();
  if (!droppedHeaders_.empty()) {
    Request::Builder builder = request.newBuilder();
    for (const std::string& name : droppedHeaders_) {
      builder.removeHeader(name);
    }
    request = builder.build();
  }

  const Call* call = &chain.call();
  std::unique_lock lock(mutex_);
  ExchangeLog& log = logs_[call];
  Connection* connection = chain.connection();
  if (connection != nullptr) {
    bool isNew = false;
    int number = connectionNumber(*connection, isNew);
    const InetSocketAddress& remote = connection->remoteAddress();
    log.remoteIp = remote.address().hostAddress();
    log.remotePort = remote.port();
    std::optional<Handshake> handshake = connection->handshake();
    if (isNew) {
      ++log.newConnections;
      if (handshake && log.timeAppConnect.count() == 0) {
        log.timeAppConnect = std::chrono::steady_clock::now() - log.start;
      }
    }
    if (verbose_ != nullptr) {
      const std::string& host = request.url().host();
      if (isNew) {
        *verbose_ << "* Connected to " << host << " (" << log.remoteIp << ") port "
                  << log.remotePort << " (#" << number << ")\n";
        if (handshake) {
          *verbose_ << "* SSL connection using " << javaName(handshake->tlsVersion()) << " / "
                    << handshake->cipherSuite().javaName() << "\n";
          if (std::optional<std::string> subject = handshake->peerPrincipal()) {
            *verbose_ << "* Server certificate: subject: " << *subject << "\n";
          }
        }
      } else {
        *verbose_ << "* Re-using existing connection #" << number << " with host " << host << "\n";
      }
    }
  }
  if (verbose_ != nullptr) {
    *verbose_ << prefixLines(requestHead(request), "> ") << std::flush;
  }
  lock.unlock();

  Response response = chain.proceed(request);

  std::string head =
      responseHead(response.protocol(), response.code(), response.message(), response.headers());
  lock.lock();  // `log` is still valid: std::map keeps its nodes, and only take() erases.
  if (verbose_ != nullptr) {
    *verbose_ << prefixLines(head, "< ") << std::flush;
  }
  log.responseHeads.push_back(std::move(head));

  if (response.isRedirect() && response.header("Location")) {
    if (maxRedirects_ && *maxRedirects_ >= 0 && log.redirects >= *maxRedirects_) {
      throw TooManyRedirectsException(*maxRedirects_);
    }
    ++log.redirects;
  }
  return response;
}

}  // namespace tern::tool
