// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
//
// Client::newWebSocket(): the client's opening handshake (RFC 6455 §4.1) as a call, and the
// checks of the server's answer (§4.2.2), handing the upgraded connection to a RealWebSocket.
// Declared in tern/client.h; defined here because WebSockets are built on calls.
#include <algorithm>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "call/upgrade_over_http2.h"
#include "http/http_syntax.h"
#include "http/message_framing.h"
#include "io/ascii.h"
#include "tern/call.h"
#include "tern/callback.h"
#include "tern/client.h"
#include "tern/exceptions.h"
#include "tern/web_socket.h"
#include "ws/real_web_socket.h"
#include "ws/web_socket_extensions.h"
#include "ws/web_socket_protocol.h"

namespace tern {
namespace {

using internal::RealWebSocket;
using internal::WebSocketExtensions;

// The comma-separated tokens of every `name` header of `headers`, trimmed.
std::vector<std::string> tokens(const Headers& headers, std::string_view name) {
  std::vector<std::string> result;
  for (const std::string& value : headers.values(name)) {
    size_t start = 0;
    while (start <= value.size()) {
      size_t comma = value.find(',', start);
      if (comma == std::string::npos) comma = value.size();
      std::string token(
          internal::trimAsciiWhitespace(std::string_view(value).substr(start, comma - start)));
      if (!token.empty()) result.push_back(std::move(token));
      start = comma + 1;
    }
  }
  return result;
}

std::string statusLine(const Response& response) {
  std::string result = std::to_string(response.code());
  if (!response.message().empty()) result += " " + response.message();
  return result;
}

// RFC 6455 §4.1: the 101 and its headers.
void checkHttp1Upgrade(const Response& response, const std::string& key) {
  if (response.code() != 101) {
    throw ProtocolException("Expected HTTP 101 response but was '" + statusLine(response) + "'");
  }
  std::string connection = response.header("Connection", "");
  if (!internal::hasToken(response.headers(), "Connection", "upgrade")) {
    throw ProtocolException("Expected 'Connection' header value 'Upgrade' but was '" + connection +
                            "'");
  }
  std::string upgrade = response.header("Upgrade", "");
  if (!internal::equalsIgnoreCase(upgrade, "websocket")) {
    throw ProtocolException("Expected 'Upgrade' header value 'websocket' but was '" + upgrade +
                            "'");
  }
  std::string accept = response.header("Sec-WebSocket-Accept", "");
  std::string expected = internal::ws::acceptHeader(key);
  if (accept != expected) {
    throw ProtocolException("Expected 'Sec-WebSocket-Accept' header value '" + expected +
                            "' but was '" + accept + "'");
  }
}

// §4.1: a subprotocol the client did not offer fails the connection.
void checkSubprotocol(const Response& response, const Request& offer) {
  std::vector<std::string> chosen = tokens(response.headers(), "Sec-WebSocket-Protocol");
  if (!chosen.empty()) {
    std::vector<std::string> offered = tokens(offer.headers(), "Sec-WebSocket-Protocol");
    if (chosen.size() != 1 ||
        std::find(offered.begin(), offered.end(), chosen[0]) == offered.end()) {
      throw ProtocolException("Server chose subprotocol '" +
                              response.header("Sec-WebSocket-Protocol", "") +
                              "', which was not offered");
    }
  }
}

// Throws ProtocolException naming what is wrong with the server's answer to the handshake.
void checkUpgradeSuccess(const Response& response, const std::string& key, const Request& offer) {
  if (response.protocol() == Protocol::HTTP_2 ||
      response.protocol() == Protocol::H2_PRIOR_KNOWLEDGE) {
    // RFC 8441 §5: a 2xx to the extended CONNECT opens the stream as a WebSocket; there is no
    // Connection, Upgrade or Sec-WebSocket-Accept to check.
    if (response.code() < 200 || response.code() >= 300) {
      throw ProtocolException("Expected HTTP 200 response but was '" + statusLine(response) + "'");
    }
    if (!response.socket()) {
      throw ProtocolException(
          "Expected the HTTP/2 server to accept the WebSocket as an extended CONNECT (RFC 8441) "
          "but it answered the request as an ordinary one");
    }
  } else {
    checkHttp1Upgrade(response, key);
  }
  checkSubprotocol(response, offer);
}

class HandshakeCallback final : public Callback {
 public:
  HandshakeCallback(std::shared_ptr<RealWebSocket> webSocket, std::string key,
                    bool offeredCompression)
      : webSocket_(std::move(webSocket)),
        key_(std::move(key)),
        offeredCompression_(offeredCompression) {}

  void onResponse(Call& call, Response response) override {
    try {
      checkUpgradeSuccess(response, key_, call.request());
    } catch (const ProtocolException&) {
      // Closing the refused response (its body may be read by the listener first) ends the call.
      webSocket_->failWebSocket(std::current_exception(), &response);
      return;
    }
    std::shared_ptr<UpgradedSocket> socket = response.socket();
    if (!socket) {
      webSocket_->failWebSocket(
          std::make_exception_ptr(ProtocolException("the 101 response carried no connection")),
          &response);
      return;
    }
    WebSocketExtensions extensions = WebSocketExtensions::parse(response.headers());
    std::optional<std::string> refusal;
    if (extensions.perMessageDeflate && !offeredCompression_) {
      refusal = "Server answered with an extension that was not offered: " +
                response.header("Sec-WebSocket-Extensions", "");
    } else {
      refusal = extensions.clientRejectionReason();
    }
    const HttpUrl& url = response.request().url();
    std::string name = url.host() + ":" + std::to_string(url.port());
    if (refusal) {
      // RFC 7692 §5: the client fails the connection, telling the server why (1010).
      webSocket_->initReaderAndWriter(name, socket, WebSocketExtensions());
      std::string reason =
          refusal->size() <= static_cast<size_t>(internal::ws::kCloseMessageMax) ? *refusal : "";
      webSocket_->closeAndFail(internal::ws::kCloseMandatoryExtension, reason,
                               std::make_exception_ptr(ProtocolException(*refusal)), &response);
      return;
    }
    webSocket_->initReaderAndWriter(name, socket, extensions);
    // The 101 without its connection, for onOpen: the socket belongs to the RealWebSocket now.
    auto opened =
        std::make_shared<Response>(std::move(response).newBuilder().socket(nullptr).build());
    webSocket_->startReading(std::move(opened));
  }

  void onFailure(Call&, const IOException& e) override {
    // The dispatcher calls this inside its catch block, so the exception in flight is `e` with
    // its own type (SSLHandshakeException, SocketTimeoutException...); copying `e` would slice.
    std::exception_ptr failure = std::current_exception();
    if (failure) {
      try {
        std::rethrow_exception(failure);
      } catch (const IOException& inFlight) {
        if (&inFlight != &e) failure = nullptr;  // Another exception: not the one reported.
      } catch (...) {
        failure = nullptr;
      }
    }
    webSocket_->failWebSocket(failure ? failure : std::make_exception_ptr(e), nullptr);
  }

 private:
  std::shared_ptr<RealWebSocket> webSocket_;
  std::string key_;
  bool offeredCompression_;
};

}  // namespace

std::shared_ptr<WebSocket> Client::newWebSocket(Request request,
                                                std::shared_ptr<WebSocketListener> listener) const {
  if (!listener) throw std::invalid_argument("listener == null");
  for (const char* name :
       {"Sec-WebSocket-Extensions", "Sec-WebSocket-Key", "Sec-WebSocket-Version"}) {
    if (request.header(name)) {
      throw std::invalid_argument(std::string("Request header not permitted: '") + name + "'");
    }
  }
  RealWebSocket::Options options;
  options.isClient = true;
  options.pingInterval = pingInterval();
  options.closeTimeout = webSocketCloseTimeout();
  options.minimumDeflateSize = minWebSocketMessageToCompress();
  options.maxMessageSize = maxWebSocketMessageSize();
  auto webSocket = std::make_shared<RealWebSocket>(request, std::move(listener), options);

  // A pooled HTTP/2 connection whose server accepts extended CONNECT carries the WebSocket as
  // one more stream (RFC 8441). Otherwise HTTP/1.1 only, so the handshake gets (or makes) a
  // connection that can switch protocols. No cache either way: it has nothing to do with a
  // handshake. Never HTTP/3: WebSockets over it (RFC 9220) are not built; without h3 the
  // handshake's address still matches the client's pooled TCP connections.
  Client::Builder handshakeBuilder = newBuilder().cache(nullptr);
  if (internal::upgradesOverHttp2(*this, request.url())) {
    std::vector<Protocol> overTcp = protocols();
    std::erase(overTcp, Protocol::HTTP_3);
    if (overTcp.empty()) overTcp = {Protocol::HTTP_1_1};  // An HTTP/3-only client's.
    handshakeBuilder.protocols(std::move(overTcp));
  } else {
    handshakeBuilder.protocols({Protocol::HTTP_1_1});
  }
  Client handshakeClient = handshakeBuilder.build();
  std::string key = internal::ws::newKey();
  bool compression = webSocketCompression();
  Request::Builder handshake = request.newBuilder()
                                   .get()
                                   .header("Upgrade", "websocket")
                                   .header("Connection", "Upgrade")
                                   .header("Sec-WebSocket-Key", key)
                                   .header("Sec-WebSocket-Version", "13");
  if (compression) handshake.header("Sec-WebSocket-Extensions", "permessage-deflate");
  std::shared_ptr<Call> call = handshakeClient.newCall(handshake.build());
  webSocket->setCall(call);
  call->enqueue(std::make_shared<HandshakeCallback>(webSocket, std::move(key), compression));
  return webSocket;
}

}  // namespace tern
