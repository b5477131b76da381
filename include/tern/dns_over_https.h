// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "tern/client.h"
#include "tern/dns.h"
#include "tern/export.h"
#include "tern/http_url.h"
#include "tern/inet_address.h"

namespace tern {

// DNS over HTTPS (RFC 8484), as OkHttp's okhttp-dnsoverhttps: resolves names by asking a DoH
// server over the client's HTTPS (HTTP/2 where the server offers it) instead of the system
// resolver. Use it as a client's Dns:
//
//   auto doh = DnsOverHttps::Builder()
//                  .client(bootstrapClient)
//                  .url(HttpUrl::get("https://dns.example/dns-query"))
//                  .bootstrapDnsHosts({*InetAddress::parse("192.0.2.53")})
//                  .build();
//   Client client = bootstrapClient.newBuilder().dns(doh).build();
//
// A lookup sends one query for the A records and, with includeIPv6 (the default), one for the
// AAAA records at the same time, as GET "url?dns=<base64url of the query>" (cacheable) or, with
// post(true), as a POST of "application/dns-message"; both ask "Accept: application/dns-message".
// The IPv6 addresses come first. Each answer is checked strictly (see
// src/dnsoverhttps/dns_record_codec.h) and its records' smallest TTL is reported through
// lookupWithTtl() and Callback::onTtl(), so a CachingDns around it keeps each answer as long as
// the DNS allows.
//
// Failures are UnknownHostException naming the host and the DoH URL, with the reason:
// "Unable to resolve host \"app.test\" over DNS over HTTPS (https://dns.example/dns-query):
// NXDOMAIN" (or SERVFAIL, "HTTP 500", a malformed answer, the transport's failure, "no
// addresses"). One family failing is no failure when the other has addresses.
//
// Thread-safe. The queries are calls with the client's settings (TLS, timeouts, interceptors)
// run on a dispatcher and a connection pool of the DnsOverHttps's own, so the calls that wait
// for a lookup never hold the places its queries need, and a client may use a DnsOverHttps built
// on itself without the two keeping each other alive.
class TERN_API DnsOverHttps final : public Dns {
 public:
  class Builder;

  std::vector<InetAddress> lookup(const std::string& hostname) override;
  DnsAnswer lookupWithTtl(const std::string& hostname) override;

  // Enqueues the queries and reports each family's addresses (and TTL) as its answer arrives;
  // failures (including the private/public checks) reach onComplete(), never the caller.
  void lookupAsync(const std::string& hostname, std::shared_ptr<Callback> callback) override;

  const HttpUrl& url() const noexcept;
  bool includeIPv6() const noexcept;
  bool post() const noexcept;
  bool resolvePrivateAddresses() const noexcept;
  bool resolvePublicAddresses() const noexcept;
  // The client the queries go through: the builder's, with the bootstrap Dns.
  const Client& client() const noexcept;

  ~DnsOverHttps() override;
  DnsOverHttps(const DnsOverHttps&) = delete;
  DnsOverHttps& operator=(const DnsOverHttps&) = delete;

 private:
  struct Settings;
  explicit DnsOverHttps(std::shared_ptr<const Settings> settings);
  std::shared_ptr<const Settings> settings_;  // Shared with asynchronous lookups under way.
};

class TERN_API DnsOverHttps::Builder {
 public:
  Builder();

  // The client the queries go through (required): its TLS settings, timeouts and interceptors.
  // Its Dns is replaced, for the queries only, by the bootstrap Dns, and its dispatcher and
  // connection pool by the DnsOverHttps's own (a query never waits behind the calls waiting for
  // it).
  Builder& client(Client client);

  // The DoH server's URL template without variables, "https://dns.example/dns-query" (required).
  Builder& url(HttpUrl url);

  // Whether to ask for AAAA (IPv6) records as well as A. Default true.
  Builder& includeIPv6(bool includeIPv6);

  // POST the query instead of GET. Default false.
  Builder& post(bool post);

  // Whether to resolve private names: those the Public Suffix List finds no registrable domain
  // for ("localhost", any single label), as OkHttp decides. Default false: such a name fails
  // with UnknownHostException("... private hosts not resolved").
  Builder& resolvePrivateAddresses(bool resolvePrivateAddresses);

  // Whether to resolve public names. Default true.
  Builder& resolvePublicAddresses(bool resolvePublicAddresses);

  // The DoH server's own addresses, so that reaching it needs no other resolver (RFC 8484 §10
  // calls this bootstrapping). The client then resolves only url()'s host, to these; any other
  // host it is asked for (a redirect elsewhere) fails. Empty (the default): systemDns is used.
  Builder& bootstrapDnsHosts(std::vector<InetAddress> bootstrapDnsHosts);

  // The resolver for the DoH server's host when there are no bootstrap hosts. Default
  // Dns::system().
  Builder& systemDns(std::shared_ptr<Dns> systemDns);

  // Throws std::invalid_argument if client() or url() was not set, or systemDns is null.
  std::shared_ptr<DnsOverHttps> build() const;

 private:
  std::optional<Client> client_;
  std::optional<HttpUrl> url_;
  bool includeIPv6_ = true;
  bool post_ = false;
  bool resolvePrivateAddresses_ = false;
  bool resolvePublicAddresses_ = true;
  std::vector<InetAddress> bootstrapDnsHosts_;
  std::shared_ptr<Dns> systemDns_;
};

}  // namespace tern
