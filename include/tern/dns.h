// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#pragma once

#include <chrono>
#include <exception>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "tern/export.h"
#include "tern/inet_address.h"

namespace tern {

// What a lookup found, with how long it may be reused: the addresses in the order to try them,
// and their time to live, if the resolver knows it (a DNS answer's smallest record TTL, RFC 1035
// §3.2.1). The system resolver does not report TTLs (getaddrinfo has none).
struct DnsAnswer {
  std::vector<InetAddress> addresses;
  std::optional<std::chrono::seconds> ttl;
};

// A domain name service that resolves host names to IP addresses, as OkHttp's Dns. The client
// asks it once per connection attempt and tries the returned addresses in order. Replace it to
// fake DNS in tests, pin names, or resolve over HTTPS.
//
// Implementations must be thread-safe: concurrent calls look up concurrently.
class TERN_API Dns {
 public:
  virtual ~Dns() = default;

  // The IP addresses of `hostname`, in the order to try them. Throws UnknownHostException
  // (whose message names the host) if none can be found; implementations should never return
  // an empty list (the call layer reports one as UnknownHostException too). May block.
  virtual std::vector<InetAddress> lookup(const std::string& hostname) = 0;

  // lookup() with the answer's time to live, for caches (CachingDns). The default returns
  // lookup()'s addresses with no TTL; resolvers that know TTLs (DnsOverHttps) override it. Throws
  // as lookup().
  virtual DnsAnswer lookupWithTtl(const std::string& hostname);

  // What an asynchronous lookup reports to. Its methods may be called on any thread, before or
  // after lookupAsync() returns, and must not block.
  class Callback {
   public:
    virtual ~Callback() = default;
    // Some of the host's addresses, as they arrive (for the system resolver, each address
    // family's answer on its own). Never empty.
    virtual void onAddresses(std::vector<InetAddress> addresses) = 0;
    // The lookup is over. `failure` (an UnknownHostException) if no addresses came at all, else
    // null. Called once, after every onAddresses().
    virtual void onComplete(std::exception_ptr failure) = 0;
    // The time to live of the addresses reported so far, from resolvers that know it (the
    // smallest of their records' TTLs); called before onComplete(), at most once per
    // onAddresses(). Ignored by default.
    virtual void onTtl(std::chrono::seconds ttl) { (void)ttl; }
  };

  // The asynchronous form, which fast fallback uses so that a call starts connecting as soon as
  // one address family's answer arrives, without waiting for the other's (RFC 8305 §3). The
  // default calls lookupWithTtl() on the calling thread and reports its result (and TTL) at once:
  // override it to
  // answer in parts. The system resolver asks for the IPv6 (AAAA) and IPv4 (A) addresses at once
  // on two threads of its own (getaddrinfo with AF_INET6 and with AF_INET) and reports each as it
  // comes; a family with no addresses is no failure when the other has some.
  virtual void lookupAsync(const std::string& hostname, std::shared_ptr<Callback> callback);

  // The system resolver: getaddrinfo(AF_UNSPEC, SOCK_STREAM), keeping the order it returns
  // (RFC 6724 destination address selection) without duplicates; each address carries
  // `hostname` as its hostName(). IP literals ("127.0.0.1", "::1", "[::1]") are returned at
  // once without a lookup. Failures throw UnknownHostException("Unable to resolve host
  // \"example.invalid\": Name or service not known"), with gai_strerror's text. Shared and
  // stateless; the lookup blocks and cannot be canceled (getaddrinfo's limit).
  static std::shared_ptr<Dns> system();

  // A Dns that calls `lookup` (which must be thread-safe), for fakes in one line:
  //   Dns::of([](const std::string&) { return std::vector{InetAddress::loopbackIpv4()}; })
  // Exceptions from `lookup` pass through; its result is returned as is. Throws
  // std::invalid_argument if `lookup` is empty.
  static std::shared_ptr<Dns> of(
      std::function<std::vector<InetAddress>(const std::string& hostname)> lookup);
};

}  // namespace tern
