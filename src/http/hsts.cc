// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#include "tern/hsts.h"

#include <map>
#include <stdexcept>
#include <string>
#include <utility>

#include "concurrent/mutex.h"
#include "io/ascii.h"
#include "url/host_parser.h"

namespace tern {
namespace {

// The host as entries are keyed: HttpUrl's host is already lowercase ASCII; a trailing dot names
// the same host (RFC 6797 §8.3 compares hosts without it, as curl does).
std::string_view withoutTrailingDot(std::string_view host) {
  if (host.ends_with('.')) host.remove_suffix(1);
  return host;
}

}  // namespace

struct Hsts::State {
  struct Entry {
    bool includeSubDomains = false;
    std::optional<std::chrono::sys_seconds> expiresAt;
  };

  Clock clock;
  internal::Mutex mutex;
  std::map<std::string, Entry, std::less<>> entries TERN_GUARDED_BY(mutex);

  // Compared in seconds: converting a file's date past 2262 to the clock's nanoseconds would
  // overflow (hsts_fuzzer's first finding).
  static bool expired(const Entry& entry, std::chrono::system_clock::time_point now) {
    return entry.expiresAt && *entry.expiresAt <= std::chrono::floor<std::chrono::seconds>(now);
  }

  // The unexpired entry for exactly `host`; drops an expired one.
  const Entry* findLocked(std::string_view host, std::chrono::system_clock::time_point now)
      TERN_REQUIRES(mutex) {
    auto it = entries.find(host);
    if (it == entries.end()) return nullptr;
    if (expired(it->second, now)) {
      entries.erase(it);
      return nullptr;
    }
    return &it->second;
  }
};

Hsts::Hsts(Clock clock) : state_(std::make_unique<State>()) {
  state_->clock = clock ? std::move(clock) : [] { return std::chrono::system_clock::now(); };
}

Hsts::~Hsts() = default;

std::chrono::system_clock::time_point Hsts::now() const { return state_->clock(); }

bool Hsts::isKnownHost(std::string_view name) {
  // HttpUrl's hosts are lowercase already; a caller's may not be.
  const std::string lowercase = internal::toLowerAscii(withoutTrailingDot(name));
  std::string_view host = lowercase;
  if (host.empty() || internal::isIpAddressHost(host)) return false;
  auto now = this->now();
  internal::MutexLock lock(state_->mutex);
  // A congruent match (§8.2), then superdomain matches that include subdomains, label by label.
  if (state_->findLocked(host, now)) return true;
  for (size_t dot = host.find('.'); dot != std::string_view::npos; dot = host.find('.', dot + 1)) {
    const State::Entry* entry = state_->findLocked(host.substr(dot + 1), now);
    if (entry && entry->includeSubDomains) return true;
  }
  return false;
}

HttpUrl Hsts::upgrade(const HttpUrl& url) {
  if (url.isHttps() || !isKnownHost(url.host())) return url;
  // §8.3: the scheme becomes https; an explicit port 80 becomes 443, any other port is kept.
  HttpUrl::Builder builder = url.newBuilder();
  builder.scheme("https");
  builder.port(url.port() == 80 ? 443 : url.port());
  return builder.build();
}

bool Hsts::saveFromResponse(const HttpUrl& url, const Headers& headers) {
  // §8.1: only over secure transport, and never for an IP address (§8.1.1).
  if (!url.isHttps()) return false;
  std::string_view host = withoutTrailingDot(url.host());
  if (host.empty() || internal::isIpAddressHost(host)) return false;
  // Only the first header counts (§8.1).
  std::vector<std::string> values = headers.values("Strict-Transport-Security");
  if (values.empty()) return false;
  std::optional<StrictTransportSecurity> sts = StrictTransportSecurity::parse(values.front());
  if (!sts) return false;

  auto now = this->now();
  internal::MutexLock lock(state_->mutex);
  if (sts->maxAgeSeconds == 0) {
    // max-age=0: the host is no longer a known HSTS host (§6.1.1); a parent's entry stays.
    if (auto it = state_->entries.find(host); it != state_->entries.end()) {
      state_->entries.erase(it);
    }
    return true;
  }
  State::Entry entry;
  entry.includeSubDomains = sts->includeSubDomains;
  entry.expiresAt =
      std::chrono::floor<std::chrono::seconds>(now) + std::chrono::seconds(sts->maxAgeSeconds);
  state_->entries.insert_or_assign(std::string(host), entry);
  return true;
}

void Hsts::add(HstsEntry entry) {
  std::string_view name = withoutTrailingDot(entry.host);
  std::optional<std::string> host =
      name.empty() || name.starts_with('.') ? std::nullopt : internal::parseHost(name);
  // IDNA mapping can make a name that ends in a dot ("a.." less one dot; hsts_fuzzer's second
  // finding): lookups drop a trailing dot, so such an entry could never match.
  if (!host || host->empty() || host->starts_with('.') || host->ends_with('.') ||
      internal::isIpAddressHost(*host)) {
    throw std::invalid_argument("Not an HSTS host name: \"" +
                                internal::escapeForMessage(entry.host) + "\"");
  }
  State::Entry stored{entry.includeSubDomains, entry.expiresAt};
  auto now = this->now();
  internal::MutexLock lock(state_->mutex);
  if (State::expired(stored, now)) {
    state_->entries.erase(*host);
  } else {
    state_->entries.insert_or_assign(std::move(*host), stored);
  }
}

void Hsts::remove(std::string_view name) {
  const std::string lowercase = internal::toLowerAscii(withoutTrailingDot(name));
  std::string_view host = lowercase;
  internal::MutexLock lock(state_->mutex);
  if (auto it = state_->entries.find(host); it != state_->entries.end()) state_->entries.erase(it);
}

std::vector<HstsEntry> Hsts::entries() {
  auto now = this->now();
  internal::MutexLock lock(state_->mutex);
  std::vector<HstsEntry> result;
  for (auto it = state_->entries.begin(); it != state_->entries.end();) {
    if (State::expired(it->second, now)) {
      it = state_->entries.erase(it);
      continue;
    }
    result.push_back(HstsEntry{it->first, it->second.includeSubDomains, it->second.expiresAt});
    ++it;
  }
  return result;
}

void Hsts::clear() {
  internal::MutexLock lock(state_->mutex);
  state_->entries.clear();
}

}  // namespace tern
