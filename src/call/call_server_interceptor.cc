// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#include "call/call_server_interceptor.h"

#include <algorithm>
#include <chrono>
#include <exception>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "call/alt_svc_store.h"
#include "call/client_access.h"
#include "call/real_call.h"
#include "call/real_interceptor_chain.h"
#include "connection/exchange.h"
#include "connection/real_connection.h"
#include "http/connection_shutdown_exception.h"
#include "http/exchange_codec.h"
#include "http/http_method.h"
#include "http/message_framing.h"
#include "io/ascii.h"
#include "net/tls_context.h"
#include "tern/buffered_sink.h"

namespace tern::internal {
namespace {

int64_t currentTimeMillis() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

// Records the Alt-Svc field lines of `response` (RFC 7838) when `client` may use HTTP/3 and
// the response comes from an authoritative origin (§2.1): over https, on a connection whose
// certificate was verified, not one to a host the client's HandshakeCertificates let through
// unverified (addInsecureHost). This is the one place every network response passes, as
// received and before network interceptors could change it, with the connection it came on at
// hand; cached responses never get here.
void recordAltSvc(const Client& client, const RealConnection& connection,
                  const Response& response) {
  const HttpUrl& url = response.request().url();
  const std::vector<Protocol>& protocols = client.protocols();
  if (!url.isHttps() ||
      std::find(protocols.begin(), protocols.end(), Protocol::HTTP_3) == protocols.end()) {
    return;
  }
  std::vector<std::string> fieldLines = response.headers().values("Alt-Svc");
  if (fieldLines.empty() || !connection.handshake()) return;
  const Address& address = connection.route().address();
  const std::shared_ptr<TlsContext>& tls = address.sslContext();
  if (!tls || tls->isInsecure(url.host()) || tls->isInsecure(address.url().host())) return;
  ClientAccess::altSvc(client).record(url, fieldLines, response.protocol());
}

}  // namespace

Response CallServerInterceptor::intercept(Chain& chain) {
  auto& realChain = static_cast<RealInterceptorChain&>(chain);
  Exchange& exchange = *realChain.exchange();
  const Request& request = realChain.request();
  const std::shared_ptr<RequestBody>& requestBody = request.body();
  int64_t sentRequestMillis = currentTimeMillis();

  std::optional<Response::Builder> responseBuilder;
  std::exception_ptr sendRequestException;
  bool reportHeadersStart = true;  // responseHeadersStart goes out once, with the first headers.
  try {
    exchange.writeRequestHeaders(request);
    if (permitsRequestBody(request.method()) && requestBody) {
      std::optional<std::string> expect = request.header("Expect");
      bool expectContinue = expect && equalsIgnoreCase(*expect, "100-continue");
      if (expectContinue) {
        // Wait for "100 Continue" before sending the body; any other answer is final.
        exchange.flushRequest();
        responseBuilder = exchange.readResponseHeaders(true);
        exchange.responseHeadersStart();
        reportHeadersStart = false;
      }
      if (!responseBuilder && requestBody->isDuplex()) {
        // Request and response stream at once (HTTP/2 only; HTTP/1.1 refuses it): the headers
        // go out now and the body is written on a TaskRunner thread the exchange waits for,
        // which ends the request when writeTo() returns. A failure there reaches the response
        // reader as the stream's.
        exchange.flushRequest();
        std::shared_ptr<BufferedSink> sink = buffer(exchange.createRequestBody(request));
        exchange.writeRequestBodyLater([requestBody, sink]() mutable {
          try {
            requestBody->writeTo(*sink);
            sink->close();
          } catch (...) {
            // Safe to drop: the stream is reset or failed, and the call's reader sees why.
          }
          // Lets go of the exchange now, not when the runner drops the task: the last reference
          // may be this one, and the exchange's destructor then runs here, where it must not
          // wait for this very write.
          sink.reset();
        });
      } else if (!responseBuilder) {
        std::unique_ptr<BufferedSink> sink = buffer(exchange.createRequestBody(request));
        requestBody->writeTo(*sink);
        sink->close();
      } else {
        // The server answered without the body. An HTTP/1.1 connection cannot carry another
        // exchange, since the server may still be expecting the body; an HTTP/2 stream is
        // reset when the exchange ends, and its connection carries on.
        exchange.noRequestBody();
        if (!exchange.connection().isMultiplexed()) exchange.noNewExchangesOnConnection();
      }
    } else {
      exchange.noRequestBody();
    }
    if (!requestBody || !requestBody->isDuplex()) exchange.finishRequest();
  } catch (const InterruptedIOException&) {
    // A write timeout or a cancellation: the connection is unusable, as OkHttp's closed socket
    // would be, so there is no response worth waiting for.
    throw;
  } catch (const ConnectionShutdownException&) {
    throw;  // No stream was opened: nothing to read, and the call may retry elsewhere.
  } catch (const IOException&) {
    // Failing to send is final unless the server is already answering (it may have stopped
    // reading a body it did not want): then read its response.
    if (!exchange.hasFailure()) throw;
    sendRequestException = std::current_exception();
  }

  try {
    if (!responseBuilder) {
      responseBuilder = exchange.readResponseHeaders(false);
      if (reportHeadersStart) exchange.responseHeadersStart();
      reportHeadersStart = false;
    }
    Response response = std::move(*responseBuilder)
                            .request(request)
                            .handshake(exchange.connection().handshake())
                            .sentRequestAtMillis(sentRequestMillis)
                            .receivedResponseAtMillis(currentTimeMillis())
                            .build();
    // Skip interim responses (RFC 9110 §15.2): only a final one answers the request.
    while (isInformational(response.code())) {
      responseBuilder = exchange.readResponseHeaders(false);
      response = std::move(*responseBuilder)
                     .request(request)
                     .handshake(exchange.connection().handshake())
                     .sentRequestAtMillis(sentRequestMillis)
                     .receivedResponseAtMillis(currentTimeMillis())
                     .build();
    }

    exchange.responseHeadersEnd(response);
    recordAltSvc(chain.client(), exchange.connection(), response);

    if (exchange.switchedProtocols(response)) {
      // The server switched to the protocol the request asked for (RFC 9110 §7.8; on HTTP/2 an
      // extended CONNECT, RFC 8441): the connection (or stream) now belongs to the caller,
      // through response.socket(), for as long as it likes, so the call timeout stops here
      // (OkHttp's timeoutEarlyExit()).
      std::shared_ptr<UpgradedSocket> socket = exchange.upgrade();
      realChain.realCall().timeoutEarlyExit();
      return std::move(response).newBuilder().body(ResponseBody::create("")).socket(socket).build();
    }

    ResponseBody body = exchange.openResponseBody(response);
    response = std::move(response)
                   .newBuilder()
                   .body(std::move(body))
                   .trailers([exchange = realChain.exchange()] { return exchange->trailers(); })
                   .build();

    // A token list (RFC 9110 §7.6.1): "Connection: keep-alive, close" closes too.
    if (hasToken(response.request().headers(), "Connection", "close") ||
        hasToken(response.headers(), "Connection", "close")) {
      exchange.noNewExchangesOnConnection();
    }
    int code = response.code();
    if ((code == 204 || code == 205) && response.body()->contentLength() > 0) {
      throw ProtocolException("HTTP " + std::to_string(code) + " had non-zero Content-Length: " +
                              std::to_string(response.body()->contentLength()));
    }
    return response;
  } catch (const IOException&) {
    if (sendRequestException) std::rethrow_exception(sendRequestException);
    throw;
  }
}

}  // namespace tern::internal
