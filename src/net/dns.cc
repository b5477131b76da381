// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#include "tern/dns.h"

#include <netdb.h>
#include <netinet/in.h>
#include <sys/socket.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <condition_variable>
#include <cstring>
#include <functional>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <thread>
#include <vector>

#include "net/error_message.h"
#include "tern/exceptions.h"

namespace tern {
namespace {

struct AddrinfoDeleter {
  void operator()(addrinfo* list) const noexcept { freeaddrinfo(list); }
};

[[noreturn]] void throwUnknownHost(const std::string& hostname, const std::string& reason) {
  throw UnknownHostException("Unable to resolve host \"" + hostname + "\": " + reason);
}

// Java's InetAddress.getAllByName over getaddrinfo, as OkHttp's Dns.SYSTEM uses it.
// getaddrinfo() for `family` (AF_UNSPEC, AF_INET6 or AF_INET), in the resolver's order (RFC 6724's
// preference) without repeats (one per protocol on some systems).
std::vector<InetAddress> resolve(const std::string& hostname, int family) {
  if (hostname.empty()) {
    throwUnknownHost(hostname, "empty host name");
  }
  // getaddrinfo() would read only up to the first NUL and answer for a different name.
  if (hostname.find('\0') != std::string::npos) {
    throwUnknownHost(hostname, "NUL in host name");
  }

  addrinfo hints{};
  hints.ai_family = family;
  hints.ai_socktype = SOCK_STREAM;
  addrinfo* raw = nullptr;
  const int status = getaddrinfo(hostname.c_str(), nullptr, &hints, &raw);
  std::unique_ptr<addrinfo, AddrinfoDeleter> list(raw);
  if (status != 0) {
    // EAI_SYSTEM puts the reason in errno; gai_strerror would only say "System error".
    const int error = errno;
    throwUnknownHost(hostname, status == EAI_SYSTEM ? internal::errorMessage(error)
                                                    : std::string(gai_strerror(status)));
  }

  std::vector<InetAddress> result;
  for (const addrinfo* entry = list.get(); entry != nullptr; entry = entry->ai_next) {
    std::optional<InetAddress> address;
    if (entry->ai_family == AF_INET && entry->ai_addrlen >= sizeof(sockaddr_in)) {
      const auto* in = reinterpret_cast<const sockaddr_in*>(entry->ai_addr);
      address = InetAddress::fromBytes(
          std::span(reinterpret_cast<const uint8_t*>(&in->sin_addr), 4), hostname);
    } else if (entry->ai_family == AF_INET6 && entry->ai_addrlen >= sizeof(sockaddr_in6)) {
      const auto* in6 = reinterpret_cast<const sockaddr_in6*>(entry->ai_addr);
      address = InetAddress::fromBytes(
          std::span(reinterpret_cast<const uint8_t*>(&in6->sin6_addr), 16), hostname);
    }
    if (address && std::find(result.begin(), result.end(), *address) == result.end()) {
      result.push_back(std::move(*address));
    }
  }
  if (result.empty()) {
    throwUnknownHost(hostname, family == AF_INET    ? "no IPv4 addresses"
                               : family == AF_INET6 ? "no IPv6 addresses"
                                                    : "no IPv4 or IPv6 addresses");
  }
  return result;
}

// The threads that asynchronous lookups run on: getaddrinfo() cannot be canceled, so each lookup
// has a thread of its own that no caller waits for. They are kept here rather than detached so
// that the program's exit can join them: a detached thread still tearing itself down as the
// process exits has already left the list of live threads but not yet freed glibc's per-thread
// resolver state, which LeakSanitizer then reports as leaked. At exit, lookups get a moment to
// finish (one that has delivered its answer needs microseconds); any still blocked in
// getaddrinfo() after that are detached and end with the process.
class LookupThreads {
 public:
  static LookupThreads& instance() {
    // Never destroyed: a lookup may start while the program exits (a callback retrying).
    static LookupThreads* const threads = new LookupThreads();
    static const struct JoinAtExit {
      ~JoinAtExit() { threads->joinAtExit(); }
    } guard;
    return *threads;
  }

  void start(std::function<void()> lookup) {
    auto done = std::make_shared<bool>(false);
    std::lock_guard lock(mutex_);
    joinFinishedLocked();
    std::thread thread([this, lookup = std::move(lookup), done]() mutable {
      lookup();
      lookup = nullptr;  // Its captures (the caller's callback) go before the thread is done.
      std::lock_guard lock(mutex_);
      *done = true;
      finished_.notify_all();
    });
    if (exiting_) {
      thread.detach();  // Nobody is left to join it.
    } else {
      threads_.push_back({std::move(thread), std::move(done)});
    }
  }

 private:
  static constexpr std::chrono::milliseconds kExitGrace{100};

  struct Running {
    std::thread thread;
    std::shared_ptr<bool> done;  // Guarded by mutex_.
  };

  void joinAtExit() {
    std::unique_lock lock(mutex_);
    exiting_ = true;
    finished_.wait_for(lock, kExitGrace, [this] {
      return std::all_of(threads_.begin(), threads_.end(),
                         [](const Running& t) { return *t.done; });
    });
    joinFinishedLocked();
    for (Running& running : threads_) running.thread.detach();
    threads_.clear();
  }

  // Joins the threads whose lookups are done: only their teardown is left, so this is quick.
  void joinFinishedLocked() {
    auto finished = std::stable_partition(threads_.begin(), threads_.end(),
                                          [](const Running& t) { return !*t.done; });
    for (auto it = finished; it != threads_.end(); ++it) it->thread.join();
    threads_.erase(finished, threads_.end());
  }

  std::mutex mutex_;
  std::condition_variable finished_;
  std::vector<Running> threads_;  // Guarded by mutex_.
  bool exiting_ = false;          // Guarded by mutex_.
};

// Java's InetAddress.getAllByName over getaddrinfo, as OkHttp's Dns.SYSTEM uses it.
class SystemDns final : public Dns {
 public:
  std::vector<InetAddress> lookup(const std::string& hostname) override {
    if (std::optional<InetAddress> literal = InetAddress::parse(hostname)) {
      return {*literal};
    }
    return resolve(hostname, AF_UNSPEC);
  }

  void lookupAsync(const std::string& hostname, std::shared_ptr<Callback> callback) override {
    if (InetAddress::parse(hostname) || hostname.empty() ||
        hostname.find('\0') != std::string::npos) {
      Dns::lookupAsync(hostname, std::move(callback));  // No lookup, or a failure at once.
      return;
    }
    // The two families' lookups, each on a thread of its own (getaddrinfo cannot be canceled, so
    // a thread waits for it); the last to finish completes the callback.
    struct Lookup {
      std::shared_ptr<Callback> callback;
      std::mutex mutex;
      int running = 2;
      bool found = false;
      std::exception_ptr ipv4Failure;
      std::exception_ptr ipv6Failure;
    };
    auto lookup = std::make_shared<Lookup>();
    lookup->callback = std::move(callback);
    for (int family : {AF_INET6, AF_INET}) {
      LookupThreads::instance().start([lookup, hostname, family] {
        std::exception_ptr failure;
        try {
          std::vector<InetAddress> addresses = resolve(hostname, family);
          {
            std::lock_guard lock(lookup->mutex);
            lookup->found = true;
          }
          lookup->callback->onAddresses(std::move(addresses));
        } catch (const UnknownHostException&) {
          failure = std::current_exception();
        }
        std::exception_ptr complete;
        {
          std::lock_guard lock(lookup->mutex);
          (family == AF_INET ? lookup->ipv4Failure : lookup->ipv6Failure) = failure;
          if (--lookup->running > 0) return;
          if (!lookup->found) {
            // Both failed: the IPv4 lookup's reason reads as the usual one ("Name or service not
            // known"); an IPv6-only host's "no address" would not.
            complete = lookup->ipv4Failure ? lookup->ipv4Failure : lookup->ipv6Failure;
          }
        }
        lookup->callback->onComplete(complete);
      });
    }
  }
};

class LambdaDns final : public Dns {
 public:
  explicit LambdaDns(std::function<std::vector<InetAddress>(const std::string&)> lookup)
      : lookup_(std::move(lookup)) {}

  std::vector<InetAddress> lookup(const std::string& hostname) override {
    return lookup_(hostname);
  }

 private:
  const std::function<std::vector<InetAddress>(const std::string&)> lookup_;
};

}  // namespace

DnsAnswer Dns::lookupWithTtl(const std::string& hostname) {
  return {lookup(hostname), std::nullopt};
}

void Dns::lookupAsync(const std::string& hostname, std::shared_ptr<Callback> callback) {
  DnsAnswer answer;
  try {
    answer = lookupWithTtl(hostname);
  } catch (const UnknownHostException&) {
    callback->onComplete(std::current_exception());
    return;
  }
  std::vector<InetAddress>& addresses = answer.addresses;
  if (addresses.empty()) {
    callback->onComplete(
        std::make_exception_ptr(UnknownHostException("Dns returned no addresses for " + hostname)));
    return;
  }
  callback->onAddresses(std::move(addresses));
  if (answer.ttl) callback->onTtl(*answer.ttl);
  callback->onComplete(nullptr);
}

std::shared_ptr<Dns> Dns::system() {
  static const std::shared_ptr<Dns> instance = std::make_shared<SystemDns>();
  return instance;
}

std::shared_ptr<Dns> Dns::of(
    std::function<std::vector<InetAddress>(const std::string& hostname)> lookup) {
  if (!lookup) {
    throw std::invalid_argument("Dns::of: lookup is empty");
  }
  return std::make_shared<LambdaDns>(std::move(lookup));
}

}  // namespace tern
