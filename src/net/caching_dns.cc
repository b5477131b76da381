// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#include "tern/caching_dns.h"

#include <algorithm>
#include <exception>
#include <list>
#include <optional>
#include <stdexcept>
#include <unordered_map>
#include <utility>

#include "concurrent/condition.h"
#include "concurrent/mutex.h"
#include "concurrent/thread_annotations.h"
#include "tern/exceptions.h"

namespace tern {

using internal::MutexLock;
using std::chrono::seconds;
using TimePoint = std::chrono::steady_clock::time_point;

namespace {

bool isUnknownHost(const std::exception_ptr& failure) {
  try {
    std::rethrow_exception(failure);
  } catch (const UnknownHostException&) {
    return true;
  } catch (...) {
    return false;  // Any other failure is reported, but not remembered.
  }
}

// What a finished lookup tells those waiting for it, or what the cache holds for a name.
struct Outcome {
  std::vector<InetAddress> addresses;
  seconds ttl{0};
  std::exception_ptr failure;  // Null on success.
};

// Reports `outcome` to an asynchronous caller, in Dns::Callback's order.
void deliver(Dns::Callback& callback, const Outcome& outcome) {
  if (outcome.failure) {
    callback.onComplete(outcome.failure);
    return;
  }
  callback.onAddresses(outcome.addresses);
  callback.onTtl(outcome.ttl);
  callback.onComplete(nullptr);
}

}  // namespace

struct CachingDns::State {
  // A lookup of the delegate under way, which later callers of the same name join. Its fields are
  // guarded by State::mutex.
  struct Pending {
    std::vector<InetAddress> addresses;  // Reported so far (asynchronous lookups).
    std::optional<seconds> ttl;          // The smallest reported so far.
    bool done = false;
    Outcome outcome;                                 // Once done.
    std::vector<std::shared_ptr<Callback>> joiners;  // Asynchronous callers waiting for it.
    internal::Condition finished;
  };

  struct Entry {
    Outcome outcome;
    TimePoint expires;
    std::list<std::string>::iterator recency;
  };

  State(std::shared_ptr<Dns> delegate, Options options)
      : delegate(std::move(delegate)), options(std::move(options)) {}

  TimePoint now() const {
    return options.clock ? options.clock() : std::chrono::steady_clock::now();
  }

  // The cached outcome for `hostname` with its remaining TTL, if fresh; drops an expired one.
  std::optional<Outcome> freshLocked(const std::string& hostname) TERN_REQUIRES(mutex) {
    auto it = entries.find(hostname);
    if (it == entries.end()) return std::nullopt;
    TimePoint at = now();
    if (it->second.expires <= at) {
      recency.erase(it->second.recency);
      entries.erase(it);
      return std::nullopt;
    }
    recency.splice(recency.begin(), recency, it->second.recency);
    Outcome outcome = it->second.outcome;
    outcome.ttl = std::chrono::duration_cast<seconds>(it->second.expires - at);
    return outcome;
  }

  void storeLocked(const std::string& hostname, const Outcome& outcome, seconds ttl)
      TERN_REQUIRES(mutex) {
    if (ttl <= seconds::zero()) return;
    if (auto it = entries.find(hostname); it != entries.end()) {
      recency.erase(it->second.recency);
      entries.erase(it);
    }
    recency.push_front(hostname);
    entries.emplace(hostname, Entry{outcome, now() + ttl, recency.begin()});
    while (entries.size() > options.maxEntries) {
      entries.erase(recency.back());
      recency.pop_back();
    }
  }

  // Ends `pending`: caches the outcome, wakes the synchronous waiters and reports to the
  // asynchronous ones. Returns what the lookup's own caller reports. A second call (a delegate
  // that both threw and completed) changes nothing.
  Outcome complete(const std::string& hostname, const std::shared_ptr<Pending>& pending,
                   std::exception_ptr failure) {
    std::vector<std::shared_ptr<Callback>> joiners;
    Outcome outcome;
    {
      MutexLock lock(mutex);
      if (pending->done) return pending->outcome;
      if (!failure && pending->addresses.empty()) {
        failure = std::make_exception_ptr(
            UnknownHostException("Dns returned no addresses for " + hostname));
      }
      outcome.failure = failure;
      if (failure) {
        outcome.ttl = isUnknownHost(failure) ? options.negativeTtl : seconds::zero();
      } else {
        outcome.addresses = pending->addresses;
        outcome.ttl =
            std::clamp(pending->ttl.value_or(options.defaultTtl), options.minTtl, options.maxTtl);
      }
      storeLocked(hostname, outcome, outcome.ttl);
      if (auto it = this->pending.find(hostname);
          it != this->pending.end() && it->second == pending) {
        this->pending.erase(it);
      }
      pending->done = true;
      pending->outcome = outcome;
      joiners.swap(pending->joiners);
      pending->finished.notify_all();
    }
    for (const std::shared_ptr<Callback>& joiner : joiners) deliver(*joiner, outcome);
    return outcome;
  }

  const std::shared_ptr<Dns> delegate;
  const Options options;
  internal::Mutex mutex;
  std::unordered_map<std::string, Entry> entries TERN_GUARDED_BY(mutex);
  std::list<std::string> recency TERN_GUARDED_BY(mutex);  // Most recently used first.
  std::unordered_map<std::string, std::shared_ptr<Pending>> pending TERN_GUARDED_BY(mutex);
};

namespace {

// The delegate's callback for an asynchronous lookup this cache started: passes each part on to
// the caller that started it and collects them for the cache and the joiners.
class Forwarder final : public Dns::Callback {
 public:
  Forwarder(std::function<void(std::vector<InetAddress>)> onAddresses,
            std::function<void(seconds)> onTtl, std::function<void(std::exception_ptr)> onComplete)
      : onAddresses_(std::move(onAddresses)),
        onTtl_(std::move(onTtl)),
        onComplete_(std::move(onComplete)) {}

  void onAddresses(std::vector<InetAddress> addresses) override {
    onAddresses_(std::move(addresses));
  }
  void onTtl(seconds ttl) override { onTtl_(ttl); }
  void onComplete(std::exception_ptr failure) override { onComplete_(std::move(failure)); }

 private:
  std::function<void(std::vector<InetAddress>)> onAddresses_;
  std::function<void(seconds)> onTtl_;
  std::function<void(std::exception_ptr)> onComplete_;
};

}  // namespace

CachingDns::CachingDns(std::shared_ptr<Dns> delegate, Options options) {
  if (!delegate) throw std::invalid_argument("CachingDns: delegate is null");
  for (auto [name, ttl] : {std::pair{"defaultTtl", options.defaultTtl},
                           {"minTtl", options.minTtl},
                           {"maxTtl", options.maxTtl},
                           {"negativeTtl", options.negativeTtl}}) {
    if (ttl < seconds::zero()) {
      throw std::invalid_argument(std::string("CachingDns: ") + name +
                                  " is negative: " + std::to_string(ttl.count()) + "s");
    }
  }
  if (options.minTtl > options.maxTtl) {
    throw std::invalid_argument("CachingDns: minTtl (" + std::to_string(options.minTtl.count()) +
                                "s) > maxTtl (" + std::to_string(options.maxTtl.count()) + "s)");
  }
  if (options.maxEntries == 0) throw std::invalid_argument("CachingDns: maxEntries is 0");
  state_ = std::make_shared<State>(std::move(delegate), std::move(options));
}

CachingDns::CachingDns(std::shared_ptr<Dns> delegate)
    : CachingDns(std::move(delegate), Options()) {}

CachingDns::~CachingDns() = default;

std::vector<InetAddress> CachingDns::lookup(const std::string& hostname) {
  return lookupWithTtl(hostname).addresses;
}

DnsAnswer CachingDns::lookupWithTtl(const std::string& hostname) {
  State& state = *state_;
  std::shared_ptr<State::Pending> pending;
  {
    MutexLock lock(state.mutex);
    std::optional<Outcome> outcome = state.freshLocked(hostname);
    if (!outcome) {
      if (auto it = state.pending.find(hostname); it != state.pending.end()) {
        // Another caller is looking it up: share its answer.
        std::shared_ptr<State::Pending> running = it->second;
        running->finished.wait(lock.native(), [&] { return running->done; });
        outcome = running->outcome;
      }
    }
    if (outcome) {
      if (outcome->failure) std::rethrow_exception(outcome->failure);
      return {std::move(outcome->addresses), outcome->ttl};
    }
    pending = std::make_shared<State::Pending>();
    state.pending.emplace(hostname, pending);
  }

  std::exception_ptr failure;
  try {
    DnsAnswer answer = state.delegate->lookupWithTtl(hostname);
    MutexLock lock(state.mutex);
    pending->addresses = std::move(answer.addresses);
    pending->ttl = answer.ttl;
  } catch (...) {
    failure = std::current_exception();  // Reported to every caller below.
  }
  Outcome outcome = state.complete(hostname, pending, failure);
  if (outcome.failure) std::rethrow_exception(outcome.failure);
  return {std::move(outcome.addresses), outcome.ttl};
}

void CachingDns::lookupAsync(const std::string& hostname, std::shared_ptr<Callback> callback) {
  std::shared_ptr<State> state = state_;
  std::shared_ptr<State::Pending> pending;
  {
    MutexLock lock(state->mutex);
    if (std::optional<Outcome> outcome = state->freshLocked(hostname)) {
      lock.unlock();
      deliver(*callback, *outcome);
      return;
    }
    if (auto it = state->pending.find(hostname); it != state->pending.end()) {
      it->second->joiners.push_back(std::move(callback));
      return;
    }
    pending = std::make_shared<State::Pending>();
    state->pending.emplace(hostname, pending);
  }

  auto forwarder = std::make_shared<Forwarder>(
      [state, pending, callback](std::vector<InetAddress> addresses) {
        {
          MutexLock lock(state->mutex);
          pending->addresses.insert(pending->addresses.end(), addresses.begin(), addresses.end());
        }
        callback->onAddresses(std::move(addresses));
      },
      [state, pending](seconds ttl) {
        MutexLock lock(state->mutex);
        pending->ttl = pending->ttl ? std::min(*pending->ttl, ttl) : ttl;
      },
      [state, pending, callback, hostname](std::exception_ptr failure) {
        Outcome outcome = state->complete(hostname, pending, std::move(failure));
        // The caller has had the addresses; it gets the TTL the cache gave them.
        if (!outcome.failure) callback->onTtl(outcome.ttl);
        callback->onComplete(outcome.failure);
      });
  try {
    state->delegate->lookupAsync(hostname, forwarder);
  } catch (...) {
    // The delegate will not call back: end the lookup for those who joined it, then let the
    // caller see the exception as it would without the cache.
    state->complete(hostname, pending, std::current_exception());
    throw;
  }
}

void CachingDns::evictAll() {
  MutexLock lock(state_->mutex);
  state_->entries.clear();
  state_->recency.clear();
}

size_t CachingDns::size() const {
  MutexLock lock(state_->mutex);
  return state_->entries.size();
}

}  // namespace tern
