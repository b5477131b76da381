// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#include "call/retry_and_follow_up_interceptor.h"

#include <chrono>
#include <climits>
#include <exception>
#include <string>
#include <utility>

#include "call/real_call.h"
#include "call/real_interceptor_chain.h"
#include "connection/exchange.h"
#include "connection/real_connection.h"
#include "connection/route_exception.h"
#include "http/connection_shutdown_exception.h"
#include "http/http_method.h"

namespace tern::internal {
namespace {

constexpr int kHttpMultipleChoices = 300;
constexpr int kHttpMovedPermanently = 301;
constexpr int kHttpMovedTemporarily = 302;
constexpr int kHttpSeeOther = 303;
constexpr int kHttpTemporaryRedirect = 307;
constexpr int kHttpPermanentRedirect = 308;
constexpr int kHttpUnauthorized = 401;
constexpr int kHttpProxyAuth = 407;
constexpr int kHttpClientTimeout = 408;
constexpr int kHttpMisdirectedRequest = 421;
constexpr int kHttpUnavailable = 503;

// The Retry-After delay in seconds (RFC 9110 §10.2.3): `defaultDelay` without the header,
// INT_MAX for an HTTP date or anything but a number (we never wait to retry).
int retryAfter(const Response& response, int defaultDelay) {
  std::optional<std::string> header = response.header("Retry-After");
  if (!header) return defaultDelay;
  if (header->empty() || header->size() > 9) return INT_MAX;
  int seconds = 0;
  for (char c : *header) {
    if (c < '0' || c > '9') return INT_MAX;
    seconds = seconds * 10 + (c - '0');
  }
  return seconds;
}

// True if `failure` happened after `request`'s body started going out and the body cannot be
// sent again.
bool requestIsOneShot(const Request& request) {
  return request.body() && request.body()->isOneShot();
}

// True if a failure like `e` may go away on another attempt.
bool isRecoverable(const IOException& e, bool requestSendStarted) {
  // The server broke HTTP; it would do so again.
  if (dynamic_cast<const ProtocolException*>(&e)) return false;
  // A cancellation or a call timeout must not be retried; a connect timeout may (another route
  // may answer), a read or write timeout may not once the request went out.
  if (dynamic_cast<const InterruptedIOException*>(&e)) {
    return dynamic_cast<const SocketTimeoutException*>(&e) && !requestSendStarted;
  }
  if (dynamic_cast<const SSLPeerUnverifiedException*>(&e)) return false;
  return true;
}

// The redirected request's method rules (OkHttp's HttpMethod): WebDAV's PROPFIND keeps its body
// on every redirect; every other method becomes GET on 301/302/303.
bool redirectsWithBody(const std::string& method) { return method == "PROPFIND"; }
bool redirectsToGet(const std::string& method) { return method != "PROPFIND"; }

// True if a connection for `a` could also serve `b`: same scheme, host and port. Credentials
// for one origin must not leak to another (RFC 9110 §11.6.2).
bool sameOrigin(const HttpUrl& a, const HttpUrl& b) {
  return a.scheme() == b.scheme() && a.host() == b.host() && a.port() == b.port();
}

// `request` as it must go out: over https if its host is a known HSTS host (RFC 6797 §8.3).
Request upgradeForHsts(const Client& client, Request request) {
  const std::shared_ptr<Hsts>& hsts = client.hsts();
  if (!hsts || request.url().isHttps()) return request;
  HttpUrl url = hsts->upgrade(request.url());
  if (url == request.url()) return request;
  return request.newBuilder().url(url).build();
}

// Records the Strict-Transport-Security header of `response` if it came from the network (a
// cached response's header is not the server's answer now, RFC 6797 §8.1).
void recordHsts(const Client& client, const Response& response) {
  const std::shared_ptr<Hsts>& hsts = client.hsts();
  if (!hsts) return;
  const Response* network = response.networkResponse();
  if (!network && response.cacheResponse()) return;
  const Response& fromServer = network ? *network : response;
  hsts->saveFromResponse(fromServer.request().url(), fromServer.headers());
}

}  // namespace

Response RetryAndFollowUpInterceptor::intercept(Chain& chain) {
  auto& realChain = static_cast<RealInterceptorChain&>(chain);
  RealCall& call = realChain.realCall();
  const Client& client = realChain.client();  // The call's, with the chain's overrides.
  Request request = chain.request();
  std::optional<Response> priorResponse;
  bool newExchangeFinder = true;
  int followUpCount = 0;
  int policyRetries = 0;  // The RetryPolicy's retries so far (not counted as follow-ups).

  while (true) {
    // HSTS applies to every request this interceptor sends, the first and each follow-up, before
    // anything connects.
    request = upgradeForHsts(client, std::move(request));
    call.enterNetworkInterceptorExchange(client, request, newExchangeFinder);

    bool closeActiveExchange = true;
    try {
      if (call.isCanceled()) throw InterruptedIOException("Canceled");

      std::optional<Response> response;
      try {
        response.emplace(realChain.proceed(request));
        newExchangeFinder = true;
      } catch (const RouteException& e) {
        // Connecting failed: the request was not sent.
        std::exception_ptr connectFailure = e.lastConnectException();
        bool recovered = false;
        try {
          std::rethrow_exception(connectFailure);
        } catch (const IOException& ioException) {
          recovered = recover(client, ioException, call, request, false);
          call.event([&](EventListener& l) { l.retryDecision(call, ioException, recovered); });
        }
        if (!recovered) std::rethrow_exception(connectFailure);
        newExchangeFinder = false;
        call.exitNetworkInterceptorExchange(true);
        continue;
      } catch (const IOException& e) {
        // The request may have been (partly) sent, unless its HTTP/2 connection could take no
        // new stream.
        bool requestSendStarted = !dynamic_cast<const ConnectionShutdownException*>(&e);
        bool recovered = recover(client, e, call, request, requestSendStarted);
        call.event([&](EventListener& l) { l.retryDecision(call, e, recovered); });
        if (!recovered) throw;
        newExchangeFinder = false;
        call.exitNetworkInterceptorExchange(true);
        continue;
      }

      recordHsts(client, *response);

      // Remember the response that led here (without its body).
      if (priorResponse) {
        response =
            std::move(*response)
                .newBuilder()
                .priorResponse(std::move(*priorResponse).newBuilder().body(std::nullopt).build())
                .build();
        priorResponse.reset();
      }

      std::shared_ptr<Exchange> exchange = call.interceptorScopedExchange();
      std::optional<Request> followUp;
      std::optional<std::chrono::milliseconds> retryWait;
      if (client.retryPolicy().enabled() &&
          client.retryPolicy().statusCodes().contains(response->code())) {
        // The policy's decision is final for its codes: no built-in 503 retry after it.
        retryWait = policyRetry(client, call, *response, policyRetries + 1);
        if (retryWait) {
          ++policyRetries;
          followUp = response->request();
        }
      } else {
        followUp = followUpRequest(client, *response, exchange.get());
      }
      if (!followUp || (followUp->body() && followUp->body()->isOneShot())) {
        call.event([&](EventListener& l) { l.followUpDecision(call, *response, nullptr); });
        closeActiveExchange = false;
        call.exitNetworkInterceptorExchange(false);
        return std::move(*response);
      }

      if (ResponseBody* body = response->body()) body->close();

      if (!retryWait && ++followUpCount > kMaxFollowUps) {
        call.event([&](EventListener& l) { l.followUpDecision(call, *response, nullptr); });
        throw ProtocolException("Too many follow-up requests: " + std::to_string(followUpCount));
      }
      call.event([&](EventListener& l) { l.followUpDecision(call, *response, &*followUp); });

      request = std::move(*followUp);
      priorResponse = std::move(response);
      if (retryWait && !call.sleepUnlessCanceled(*retryWait)) {
        throw InterruptedIOException("Canceled");
      }
    } catch (...) {
      call.exitNetworkInterceptorExchange(closeActiveExchange);
      throw;
    }
    call.exitNetworkInterceptorExchange(closeActiveExchange);
  }
}

std::optional<std::chrono::milliseconds> RetryAndFollowUpInterceptor::policyRetry(
    const Client& client, RealCall& call, const Response& response, int retry) const {
  const RetryPolicy& policy = client.retryPolicy();
  std::optional<std::chrono::milliseconds> wait = policy.delay(response, retry);
  std::string why;
  if (wait) {
    // A wait past the call timeout would only end in a timeout: return the response instead.
    std::optional<std::chrono::steady_clock::time_point> deadline = call.callDeadline();
    if (deadline && std::chrono::steady_clock::now() + *wait >= *deadline) {
      wait.reset();
      why = "; not retried: the wait would outlast the call timeout";
    } else {
      why = "; retrying in " + std::to_string(wait->count()) + " ms (retry " +
            std::to_string(retry) + " of " + std::to_string(policy.maxRetries()) + ")";
    }
  } else if (retry > policy.maxRetries()) {
    why = "; not retried: " + std::to_string(policy.maxRetries()) + " retries made";
  } else if (response.request().body() && response.request().body()->isOneShot()) {
    why = "; not retried: the request's one-shot body cannot be sent again";
  } else {
    why = "; not retried: Retry-After " + response.header("Retry-After").value_or("") +
          " is longer than the policy's " + std::to_string(policy.maxRetryAfter().count()) + " ms";
  }
  if (call.hasEventListener()) {
    RetryableStatusException decision("HTTP " + std::to_string(response.code()) + " from " +
                                          response.request().url().redact() + why,
                                      response.code(), wait);
    call.event([&](EventListener& l) { l.retryDecision(call, decision, wait.has_value()); });
  }
  return wait;
}

bool RetryAndFollowUpInterceptor::recover(const Client& client, const IOException& e,
                                          RealCall& call, const Request& userRequest,
                                          bool requestSendStarted) const {
  if (!client.retryOnConnectionFailure()) return false;
  // The body cannot be sent again.
  if (requestSendStarted && requestIsOneShot(userRequest)) return false;
  if (!isRecoverable(e, requestSendStarted)) return false;
  // Nowhere left to try.
  return call.retryAfterFailure();
}

std::optional<Request> RetryAndFollowUpInterceptor::followUpRequest(const Client& client,
                                                                    const Response& userResponse,
                                                                    Exchange* exchange) const {
  const Route* route = exchange ? &exchange->connection().route() : nullptr;
  int code = userResponse.code();

  switch (code) {
    case kHttpProxyAuth: {
      // Only a proxy may ask for proxy credentials: one that requests go through (a tunnel's
      // 407 comes while connecting, and is answered there).
      const Proxy::Type type = route ? route->proxy().type() : Proxy::Type::DIRECT;
      if (type != Proxy::Type::HTTP && type != Proxy::Type::HTTPS) {
        throw ProtocolException("Received HTTP_PROXY_AUTH (407) code while not using proxy");
      }
      return client.proxyAuthenticator()->authenticate(route, userResponse);
    }

    case kHttpUnauthorized:
      return client.authenticator()->authenticate(route, userResponse);

    case kHttpPermanentRedirect:
    case kHttpTemporaryRedirect:
    case kHttpMultipleChoices:
    case kHttpMovedPermanently:
    case kHttpMovedTemporarily:
    case kHttpSeeOther:
      return buildRedirectRequest(client, userResponse);

    case kHttpClientTimeout: {
      // The server timed out waiting for the request (RFC 9110 §15.5.9): send it again, once,
      // unless the server asked us to wait or the body cannot be resent.
      if (!client.retryOnConnectionFailure()) return std::nullopt;
      if (requestIsOneShot(userResponse.request())) return std::nullopt;
      const Response* prior = userResponse.priorResponse();
      if (prior && prior->code() == kHttpClientTimeout) return std::nullopt;
      if (retryAfter(userResponse, 0) > 0) return std::nullopt;
      return userResponse.request();
    }

    case kHttpUnavailable: {
      // Retry once only when the server says it is ready now (RFC 9110 §15.6.4).
      const Response* prior = userResponse.priorResponse();
      if (prior && prior->code() == kHttpUnavailable) return std::nullopt;
      if (retryAfter(userResponse, INT_MAX) == 0) return userResponse.request();
      return std::nullopt;
    }

    case kHttpMisdirectedRequest: {
      // The server is not authoritative for this host after all (RFC 9110 §15.5.20, RFC 9113
      // §9.1.2), which happens when tern coalesced the call onto another host's HTTP/2
      // connection: take coalescing off that connection and send the request again, which finds
      // or makes a connection to its own host. A 421 on a connection of the host's own is final.
      if (requestIsOneShot(userResponse.request())) return std::nullopt;
      if (!exchange || !exchange->isCoalescedConnection()) return std::nullopt;
      exchange->connection().noCoalescedConnections();
      return userResponse.request();
    }

    default:
      return std::nullopt;
  }
}

std::optional<Request> RetryAndFollowUpInterceptor::buildRedirectRequest(
    const Client& client, const Response& userResponse) const {
  if (!client.followRedirects()) return std::nullopt;
  std::optional<std::string> location = userResponse.header("Location");
  if (!location) return std::nullopt;
  const Request& request = userResponse.request();
  // A Location that does not resolve to an http or https URL is not followed.
  std::optional<HttpUrl> url = request.url().resolve(*location);
  if (!url) return std::nullopt;
  // A redirect to http on a known HSTS host goes to https (RFC 6797 §8.3), so it is no switch
  // between http and https.
  if (client.hsts()) url = client.hsts()->upgrade(*url);

  // Between http and https only if allowed.
  if (url->scheme() != request.url().scheme() && !client.followSslRedirects()) {
    return std::nullopt;
  }

  Request::Builder builder = request.newBuilder();
  const std::string& method = request.method();
  if (permitsRequestBody(method)) {
    int code = userResponse.code();
    bool keepsMethod = code == kHttpPermanentRedirect || code == kHttpTemporaryRedirect;
    bool maintainBody = redirectsWithBody(method) || keepsMethod;
    if (redirectsToGet(method) && !keepsMethod) {
      builder.method("GET", nullptr);
    } else {
      builder.method(method, maintainBody ? request.body() : nullptr);
    }
    if (!maintainBody) {
      builder.removeHeader("Transfer-Encoding");
      builder.removeHeader("Content-Length");
      builder.removeHeader("Content-Type");
    }
  }

  // Credentials are for the origin that asked for them.
  if (!sameOrigin(request.url(), *url)) builder.removeHeader("Authorization");

  return builder.url(*url).build();
}

}  // namespace tern::internal
