// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#include "tern/interceptor.h"

#include <stdexcept>
#include <string>
#include <utility>

#include "tern/client.h"

namespace tern {
namespace {

class LambdaInterceptor final : public Interceptor {
 public:
  explicit LambdaInterceptor(std::function<Response(Chain&)> intercept)
      : intercept_(std::move(intercept)) {}
  Response intercept(Chain& chain) override { return intercept_(chain); }

 private:
  std::function<Response(Chain&)> intercept_;
};

}  // namespace

std::shared_ptr<Interceptor> Interceptor::of(std::function<Response(Chain& chain)> intercept) {
  if (!intercept) throw std::invalid_argument("Interceptor::of: intercept is empty");
  return std::make_shared<LambdaInterceptor>(std::move(intercept));
}

namespace {

// Client::Builder's setters refuse null themselves; this names the chain's method instead.
template <typename T>
std::shared_ptr<T> required(std::shared_ptr<T> value, const char* method) {
  if (!value) throw std::invalid_argument(std::string("Interceptor::Chain::") + method + ": null");
  return value;
}

}  // namespace

std::unique_ptr<Interceptor::Chain> Interceptor::Chain::withDns(std::shared_ptr<Dns> dns) {
  required(dns, "withDns");
  return withClient([&](const Client& c) { return c.newBuilder().dns(dns).build(); }, "Dns");
}

std::unique_ptr<Interceptor::Chain> Interceptor::Chain::withCookieJar(
    std::shared_ptr<CookieJar> cookieJar) {
  required(cookieJar, "withCookieJar");
  return withClient([&](const Client& c) { return c.newBuilder().cookieJar(cookieJar).build(); },
                    "CookieJar");
}

std::unique_ptr<Interceptor::Chain> Interceptor::Chain::withAuthenticator(
    std::shared_ptr<Authenticator> authenticator) {
  required(authenticator, "withAuthenticator");
  return withClient(
      [&](const Client& c) { return c.newBuilder().authenticator(authenticator).build(); },
      "Authenticator");
}

std::unique_ptr<Interceptor::Chain> Interceptor::Chain::withProxyAuthenticator(
    std::shared_ptr<Authenticator> authenticator) {
  required(authenticator, "withProxyAuthenticator");
  return withClient(
      [&](const Client& c) { return c.newBuilder().proxyAuthenticator(authenticator).build(); },
      "proxy Authenticator");
}

std::unique_ptr<Interceptor::Chain> Interceptor::Chain::withCertificatePinner(
    CertificatePinner certificatePinner) {
  return withClient(
      [&](const Client& c) { return c.newBuilder().certificatePinner(certificatePinner).build(); },
      "CertificatePinner");
}

std::unique_ptr<Interceptor::Chain> Interceptor::Chain::withHostnameVerifier(
    std::shared_ptr<HostnameVerifier> hostnameVerifier) {
  required(hostnameVerifier, "withHostnameVerifier");
  return withClient(
      [&](const Client& c) { return c.newBuilder().hostnameVerifier(hostnameVerifier).build(); },
      "HostnameVerifier");
}

std::unique_ptr<Interceptor::Chain> Interceptor::Chain::withHandshakeCertificates(
    const tls::HandshakeCertificates& certificates) {
  return withClient(
      [&](const Client& c) { return c.newBuilder().handshakeCertificates(certificates).build(); },
      "HandshakeCertificates");
}

std::unique_ptr<Interceptor::Chain> Interceptor::Chain::withRetryOnConnectionFailure(
    bool retryOnConnectionFailure) {
  return withClient(
      [&](const Client& c) {
        return c.newBuilder().retryOnConnectionFailure(retryOnConnectionFailure).build();
      },
      "retryOnConnectionFailure");
}

std::unique_ptr<Interceptor::Chain> Interceptor::Chain::withConnectionPool(
    std::shared_ptr<ConnectionPool> connectionPool) {
  required(connectionPool, "withConnectionPool");
  return withClient(
      [&](const Client& c) { return c.newBuilder().connectionPool(connectionPool).build(); },
      "ConnectionPool");
}

std::unique_ptr<Interceptor::Chain> Interceptor::Chain::withRetryPolicy(RetryPolicy retryPolicy) {
  return withClient(
      [&](const Client& c) { return c.newBuilder().retryPolicy(retryPolicy).build(); },
      "RetryPolicy");
}

std::unique_ptr<Interceptor::Chain> Interceptor::Chain::withProxy(Proxy proxy) {
  return withClient([&](const Client& c) { return c.newBuilder().proxy(proxy).build(); }, "Proxy");
}

std::unique_ptr<Interceptor::Chain> Interceptor::Chain::withProxySelector(
    std::shared_ptr<ProxySelector> proxySelector) {
  required(proxySelector, "withProxySelector");
  return withClient(
      [&](const Client& c) { return c.newBuilder().proxySelector(proxySelector).build(); },
      "ProxySelector");
}

std::unique_ptr<Interceptor::Chain> Interceptor::Chain::withCache(std::shared_ptr<Cache> cache) {
  return withClient([&](const Client& c) { return c.newBuilder().cache(cache).build(); }, "Cache");
}

std::unique_ptr<Interceptor::Chain> Interceptor::Chain::withHsts(std::shared_ptr<Hsts> hsts) {
  return withClient([&](const Client& c) { return c.newBuilder().hsts(hsts).build(); }, "Hsts");
}

}  // namespace tern
