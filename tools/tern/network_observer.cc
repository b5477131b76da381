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

void NetworkObserver::begin(std::chrono::steady_clock::time_point start) {
  log_ = ExchangeLog();
  start_ = start;
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

  Connection* connection = chain.connection();
  if (connection != nullptr) {
    bool isNew = false;
    int number = connectionNumber(*connection, isNew);
    const InetSocketAddress& remote = connection->remoteAddress();
    log_.remoteIp = remote.address().hostAddress();
    log_.remotePort = remote.port();
    std::optional<Handshake> handshake = connection->handshake();
    if (isNew) {
      ++log_.newConnections;
      if (handshake && log_.timeAppConnect.count() == 0) {
        log_.timeAppConnect = std::chrono::steady_clock::now() - start_;
      }
    }
    if (verbose_ != nullptr) {
      const std::string& host = request.url().host();
      if (isNew) {
        *verbose_ << "* Connected to " << host << " (" << log_.remoteIp << ") port "
                  << log_.remotePort << " (#" << number << ")\n";
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

  Response response = chain.proceed(request);

  std::string head =
      responseHead(response.protocol(), response.code(), response.message(), response.headers());
  if (verbose_ != nullptr) {
    *verbose_ << prefixLines(head, "< ") << std::flush;
  }
  log_.responseHeads.push_back(std::move(head));

  if (response.isRedirect() && response.header("Location")) {
    if (maxRedirects_ && *maxRedirects_ >= 0 && log_.redirects >= *maxRedirects_) {
      throw TooManyRedirectsException(*maxRedirects_);
    }
    ++log_.redirects;
  }
  return response;
}

}  // namespace tern::tool
