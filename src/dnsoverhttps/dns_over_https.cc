// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#include "tern/dns_over_https.h"

#include <algorithm>
#include <condition_variable>
#include <cstddef>
#include <stdexcept>
#include <utility>

#include "concurrent/mutex.h"
#include "concurrent/thread_annotations.h"
#include "dnsoverhttps/dns_record_codec.h"
#include "io/base64.h"
#include "tern/call.h"
#include "tern/callback.h"
#include "tern/connection_pool.h"
#include "tern/dispatcher.h"
#include "tern/exceptions.h"
#include "tern/media_type.h"
#include "tern/request.h"
#include "tern/request_body.h"
#include "tern/response.h"
#include "url/public_suffix.h"

namespace tern {

using internal::MutexLock;

namespace {

constexpr const char* kDnsMessage = "application/dns-message";
// The largest DNS message (its length is 16 bits on TCP, RFC 1035 §4.2.2); OkHttp's limit too.
constexpr size_t kMaxResponseSize = 65535;

// RFC 4648 §5 without padding, as RFC 8484 §4.1 asks for the dns parameter.
std::string base64Url(std::span<const uint8_t> bytes) {
  std::string text = internal::encodeBase64(bytes);
  while (!text.empty() && text.back() == '=') text.pop_back();
  std::replace(text.begin(), text.end(), '+', '-');
  std::replace(text.begin(), text.end(), '/', '_');
  return text;
}

const char* typeName(uint16_t type) { return type == internal::kDnsTypeA ? "A" : "AAAA"; }

// The body, up to the largest DNS message; an IOException if it is longer.
std::vector<uint8_t> readMessage(ResponseBody& body) {
  if (body.contentLength() > static_cast<int64_t>(kMaxResponseSize)) {
    throw IOException("response of " + std::to_string(body.contentLength()) +
                      " bytes exceeds the limit of 65535");
  }
  std::vector<uint8_t> message;
  std::byte chunk[8192];
  while (true) {
    int64_t count = body.source().read(std::span(chunk));
    if (count < 0) break;
    if (message.size() + static_cast<size_t>(count) > kMaxResponseSize) {
      throw IOException("response exceeds the limit of 65535 bytes");
    }
    auto* bytes = reinterpret_cast<const uint8_t*>(chunk);
    message.insert(message.end(), bytes, bytes + count);
  }
  body.close();
  return message;
}

// The reason in `e`'s message, without the "host: " the codec puts first.
std::string reasonOf(const std::exception& e, const std::string& hostname) {
  std::string_view what = e.what();
  std::string prefix = hostname + ": ";
  if (what.starts_with(prefix)) what.remove_prefix(prefix.size());
  return std::string(what);
}

// A Dns that knows only the DoH server's host, from the bootstrap addresses.
class BootstrapDns final : public Dns {
 public:
  BootstrapDns(std::string dnsHostname, std::vector<InetAddress> addresses)
      : dnsHostname_(std::move(dnsHostname)) {
    for (InetAddress& address : addresses) {
      addresses_.push_back(address.withHostName(dnsHostname_));
    }
  }

  std::vector<InetAddress> lookup(const std::string& hostname) override {
    if (hostname != dnsHostname_) {
      throw UnknownHostException("Unable to resolve host \"" + hostname +
                                 "\": the DNS over HTTPS client knows only " + dnsHostname_ +
                                 " (its bootstrap addresses)");
    }
    return addresses_;
  }

 private:
  const std::string dnsHostname_;
  std::vector<InetAddress> addresses_;
};

// Collects an asynchronous lookup's answer for a caller that waits for it.
class BlockingCallback final : public Dns::Callback {
 public:
  void onAddresses(std::vector<InetAddress> addresses) override {
    MutexLock lock(mutex_);
    answer_.addresses.insert(answer_.addresses.end(), addresses.begin(), addresses.end());
  }
  void onTtl(std::chrono::seconds ttl) override {
    MutexLock lock(mutex_);
    answer_.ttl = answer_.ttl ? std::min(*answer_.ttl, ttl) : ttl;
  }
  void onComplete(std::exception_ptr failure) override {
    MutexLock lock(mutex_);
    failure_ = std::move(failure);
    done_ = true;
    finished_.notify_all();
  }

  // Blocks until onComplete(); throws its failure. IPv6 addresses first, as OkHttp's.
  DnsAnswer await() {
    MutexLock lock(mutex_);
    while (!done_) finished_.wait(lock.native());
    if (failure_) std::rethrow_exception(failure_);
    std::stable_partition(answer_.addresses.begin(), answer_.addresses.end(),
                          [](const InetAddress& a) { return a.isIpv6(); });
    return std::move(answer_);
  }

 private:
  internal::Mutex mutex_;
  std::condition_variable finished_;
  DnsAnswer answer_ TERN_GUARDED_BY(mutex_);
  std::exception_ptr failure_ TERN_GUARDED_BY(mutex_);
  bool done_ TERN_GUARDED_BY(mutex_) = false;
};

}  // namespace

struct DnsOverHttps::Settings {
  Client client;
  HttpUrl url;
  bool includeIPv6;
  bool post;
  bool resolvePrivateAddresses;
  bool resolvePublicAddresses;

  UnknownHostException failure(const std::string& hostname, const std::string& reason) const {
    return UnknownHostException("Unable to resolve host \"" + hostname +
                                "\" over DNS over HTTPS (" + url.toString() + "): " + reason);
  }

  Request request(const std::string& hostname, uint16_t type) const {
    std::vector<uint8_t> query = internal::encodeDnsQuery(hostname, type);
    Request::Builder builder;
    builder.header("Accept", kDnsMessage);
    if (post) {
      auto bytes = reinterpret_cast<const std::byte*>(query.data());
      builder.url(url).post(RequestBody::create(std::vector<std::byte>(bytes, bytes + query.size()),
                                                MediaType::get(kDnsMessage)));
    } else {
      builder.url(url.newBuilder().addQueryParameter("dns", base64Url(query)).build());
    }
    return builder.build();
  }

  // The answer in `response`, or an IOException saying why there is none.
  static DnsAnswer answerOf(const std::string& hostname, uint16_t type, Response& response) {
    if (response.code() != 200) {
      throw IOException("HTTP " + std::to_string(response.code()) +
                        (response.message().empty() ? "" : " " + response.message()) + " for " +
                        typeName(type));
    }
    if (response.body() == nullptr) throw IOException("no response body");
    std::vector<uint8_t> message = readMessage(*response.body());
    return internal::decodeDnsAnswers(hostname, type, message);
  }

  // OkHttp's rule: a host is private if the Public Suffix List finds no registrable domain for
  // it ("localhost", single labels).
  void checkScope(const std::string& hostname) const {
    if (resolvePrivateAddresses && resolvePublicAddresses) return;
    std::string canonical = hostname;
    if (!canonical.empty() && canonical.back() == '.') canonical.pop_back();
    std::transform(canonical.begin(), canonical.end(), canonical.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    bool isPrivate = !internal::registrableDomain(canonical).has_value();
    if (isPrivate && !resolvePrivateAddresses)
      throw failure(hostname, "private hosts not resolved");
    if (!isPrivate && !resolvePublicAddresses) throw failure(hostname, "public hosts not resolved");
  }
};

namespace {

// One lookup's queries under way: the last to finish completes the callback.
struct Lookup {
  std::shared_ptr<Dns::Callback> callback;
  internal::Mutex mutex;
  int running TERN_GUARDED_BY(mutex) = 0;
  bool found TERN_GUARDED_BY(mutex) = false;
  // The first failure of each kind: a DNS error (RCODE) says most, then anything else.
  std::exception_ptr dnsFailure TERN_GUARDED_BY(mutex);
  std::exception_ptr otherFailure TERN_GUARDED_BY(mutex);
};

}  // namespace

DnsOverHttps::DnsOverHttps(std::shared_ptr<const Settings> settings)
    : settings_(std::move(settings)) {}

DnsOverHttps::~DnsOverHttps() = default;

std::vector<InetAddress> DnsOverHttps::lookup(const std::string& hostname) {
  return lookupWithTtl(hostname).addresses;
}

DnsAnswer DnsOverHttps::lookupWithTtl(const std::string& hostname) {
  auto callback = std::make_shared<BlockingCallback>();
  lookupAsync(hostname, callback);
  return callback->await();
}

void DnsOverHttps::lookupAsync(const std::string& hostname, std::shared_ptr<Callback> callback) {
  if (std::optional<InetAddress> literal = InetAddress::parse(hostname)) {
    callback->onAddresses({*literal});
    callback->onComplete(nullptr);
    return;
  }
  std::vector<std::pair<uint16_t, Request>> queries;
  try {
    settings_->checkScope(hostname);
    if (settings_->includeIPv6) {
      queries.emplace_back(internal::kDnsTypeAaaa,
                           settings_->request(hostname, internal::kDnsTypeAaaa));
    }
    queries.emplace_back(internal::kDnsTypeA, settings_->request(hostname, internal::kDnsTypeA));
  } catch (const UnknownHostException& e) {
    callback->onComplete(std::make_exception_ptr(e));
    return;
  }

  auto lookup = std::make_shared<Lookup>();
  lookup->callback = std::move(callback);
  {
    MutexLock lock(lookup->mutex);
    lookup->running = static_cast<int>(queries.size());
  }
  std::shared_ptr<const Settings> settings = settings_;
  for (auto& [type, request] : queries) {
    // Each query's outcome: its addresses go out at once; the last one completes the lookup.
    auto finish = [lookup, settings, hostname](std::optional<DnsAnswer> answer,
                                               std::exception_ptr failure, bool dnsError) {
      if (answer && !answer->addresses.empty()) {
        {
          MutexLock lock(lookup->mutex);
          lookup->found = true;
        }
        lookup->callback->onAddresses(std::move(answer->addresses));
        if (answer->ttl) lookup->callback->onTtl(*answer->ttl);
      }
      std::exception_ptr complete;
      {
        MutexLock lock(lookup->mutex);
        if (failure) {
          std::exception_ptr& slot = dnsError ? lookup->dnsFailure : lookup->otherFailure;
          if (!slot) slot = failure;
        }
        if (--lookup->running > 0) return;
        if (!lookup->found) {
          complete = lookup->dnsFailure ? lookup->dnsFailure
                     : lookup->otherFailure
                         ? lookup->otherFailure
                         : std::make_exception_ptr(settings->failure(hostname, "no addresses"));
        }
      }
      lookup->callback->onComplete(complete);
    };
    settings->client.newCall(std::move(request))
        ->enqueue(
            [settings, hostname, type = type, finish](Call&, Response response) {
              try {
                finish(Settings::answerOf(hostname, type, response), nullptr, false);
              } catch (const UnknownHostException& e) {  // The server's RCODE.
                finish(std::nullopt,
                       std::make_exception_ptr(settings->failure(hostname, reasonOf(e, hostname))),
                       true);
              } catch (const std::exception& e) {  // A bad answer: an IOException, or worse.
                finish(std::nullopt,
                       std::make_exception_ptr(settings->failure(hostname, reasonOf(e, hostname))),
                       false);
              }
            },
            [settings, hostname, finish](Call&, const IOException& e) {
              finish(std::nullopt, std::make_exception_ptr(settings->failure(hostname, e.what())),
                     false);
            });
  }
}

const HttpUrl& DnsOverHttps::url() const noexcept { return settings_->url; }
bool DnsOverHttps::includeIPv6() const noexcept { return settings_->includeIPv6; }
bool DnsOverHttps::post() const noexcept { return settings_->post; }
bool DnsOverHttps::resolvePrivateAddresses() const noexcept {
  return settings_->resolvePrivateAddresses;
}
bool DnsOverHttps::resolvePublicAddresses() const noexcept {
  return settings_->resolvePublicAddresses;
}
const Client& DnsOverHttps::client() const noexcept { return settings_->client; }

DnsOverHttps::Builder::Builder() : systemDns_(Dns::system()) {}

DnsOverHttps::Builder& DnsOverHttps::Builder::client(Client client) {
  client_ = std::move(client);
  return *this;
}
DnsOverHttps::Builder& DnsOverHttps::Builder::url(HttpUrl url) {
  url_ = std::move(url);
  return *this;
}
DnsOverHttps::Builder& DnsOverHttps::Builder::includeIPv6(bool includeIPv6) {
  includeIPv6_ = includeIPv6;
  return *this;
}
DnsOverHttps::Builder& DnsOverHttps::Builder::post(bool post) {
  post_ = post;
  return *this;
}
DnsOverHttps::Builder& DnsOverHttps::Builder::resolvePrivateAddresses(bool value) {
  resolvePrivateAddresses_ = value;
  return *this;
}
DnsOverHttps::Builder& DnsOverHttps::Builder::resolvePublicAddresses(bool value) {
  resolvePublicAddresses_ = value;
  return *this;
}
DnsOverHttps::Builder& DnsOverHttps::Builder::bootstrapDnsHosts(std::vector<InetAddress> hosts) {
  bootstrapDnsHosts_ = std::move(hosts);
  return *this;
}
DnsOverHttps::Builder& DnsOverHttps::Builder::systemDns(std::shared_ptr<Dns> systemDns) {
  systemDns_ = std::move(systemDns);
  return *this;
}

std::shared_ptr<DnsOverHttps> DnsOverHttps::Builder::build() const {
  if (!client_) throw std::invalid_argument("DnsOverHttps::Builder: client() is not set");
  if (!url_) throw std::invalid_argument("DnsOverHttps::Builder: url() is not set");
  if (!systemDns_) throw std::invalid_argument("DnsOverHttps::Builder: systemDns is null");
  std::shared_ptr<Dns> bootstrap =
      bootstrapDnsHosts_.empty() ? systemDns_
                                 : std::make_shared<BootstrapDns>(url_->host(), bootstrapDnsHosts_);
  // The queries run on a dispatcher of their own: on the client's, the calls waiting for these
  // lookups (up to its 64) could hold every place the queries need. All go to one server, over
  // one HTTP/2 connection when it speaks h2, so its per-host limit is the total. And in a pool
  // of their own: a client whose Dns is this one keeps it alive from every pooled connection's
  // Address, so a shared pool would keep itself alive through us (a cycle no one breaks).
  auto dispatcher = std::make_shared<Dispatcher>();
  dispatcher->setMaxRequestsPerHost(dispatcher->maxRequests());
  auto settings = std::make_shared<Settings>(
      Settings{client_->newBuilder()
                   .dns(bootstrap)
                   .dispatcher(dispatcher)
                   .connectionPool(std::make_shared<ConnectionPool>())
                   .build(),
               *url_, includeIPv6_, post_, resolvePrivateAddresses_, resolvePublicAddresses_});
  // The constructor is private (only the builder makes one), so make_shared cannot reach it.
  return std::shared_ptr<DnsOverHttps>(new DnsOverHttps(std::move(settings)));
}

}  // namespace tern
