// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#pragma once

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "tern/export.h"
#include "tern/headers.h"
#include "tern/http_url.h"

namespace tern {

// A Strict-Transport-Security header's value (RFC 6797 §6.1).
struct TERN_API StrictTransportSecurity {
  // The longest max-age honoured: one year, Chromium's cap (a larger value would pin a host to
  // https for decades on one response). Larger values are lowered to it.
  static constexpr int64_t kMaxAgeCapSeconds = 365 * 24 * 60 * 60;

  int64_t maxAgeSeconds = 0;  // 0: forget the host (§6.1.1). At most kMaxAgeCapSeconds.
  bool includeSubDomains = false;

  // The header value parsed by RFC 6797 §6.1: directives separated by ';', names compared
  // case-insensitively, values tokens or quoted strings. std::nullopt (the header is ignored,
  // §8.1) when max-age is missing or not delta-seconds, when a directive appears twice, when
  // includeSubDomains has a value, or on a syntax error. Unknown directives are ignored.
  static std::optional<StrictTransportSecurity> parse(std::string_view value);
};

// One known HSTS host (RFC 6797 §8.1): calls to it, and to its subdomains when
// includeSubDomains, go over https until it expires.
struct TERN_API HstsEntry {
  std::string host;  // Canonical: lowercase ASCII (IDNA A-labels), no trailing dot.
  bool includeSubDomains = false;
  std::optional<std::chrono::sys_seconds> expiresAt;  // std::nullopt: never ("unlimited").

  bool operator==(const HstsEntry&) const = default;
};

// The known HSTS hosts of a client (RFC 6797 §8), kept in memory for the store's life:
//
//   auto hsts = std::make_shared<tern::Hsts>();
//   tern::Client client = tern::Client::Builder().hsts(hsts).build();
//
// The client records the first Strict-Transport-Security header of every response that came
// over https from a host that is not an IP address (never over http, never from the cache), and
// before each request it sends (the first one and every redirect) it rewrites an http URL to a
// known host, or to a subdomain of one known with includeSubDomains, to https: port 80 becomes
// 443, another explicit port is kept (§8.3). max-age=0 forgets the host. Expired entries are
// dropped. See docs/hsts.md.
//
// Thread-safe: calls on any number of threads may record and look up at once.
class TERN_API Hsts {
 public:
  // The time now. Tests pass a fake one.
  using Clock = std::function<std::chrono::system_clock::time_point()>;

  // An empty store on `clock` (empty: the system clock).
  explicit Hsts(Clock clock = {});
  virtual ~Hsts();
  Hsts(const Hsts&) = delete;
  Hsts& operator=(const Hsts&) = delete;

  // `url` as it must be requested: to https when its host is a known HSTS host (RFC 6797 §8.3),
  // `url` itself otherwise (https URLs, unknown hosts, IP addresses).
  HttpUrl upgrade(const HttpUrl& url);

  // True if `host` is a known HSTS host: an unexpired entry for it, or for a parent domain with
  // includeSubDomains (§8.2), ignoring ASCII case and a trailing dot. Never for an IP address.
  bool isKnownHost(std::string_view host);

  // Records the first Strict-Transport-Security header in `headers`, a response to `url`, if it
  // is valid and came over https from a host that is not an IP address (§8.1); returns whether
  // it did.
  bool saveFromResponse(const HttpUrl& url, const Headers& headers);

  // Adds or replaces the entry for entry.host (as a store loaded from disk does; no origin
  // check). An expired entry removes the host instead. Throws std::invalid_argument if the host
  // is empty, an IP address, or not a valid host name.
  void add(HstsEntry entry);

  // Forgets `host` (its exact entry; a parent domain's entry stays).
  void remove(std::string_view host);

  // Every unexpired entry, ordered by host.
  std::vector<HstsEntry> entries();

  // Forgets every host.
  void clear();

  // The time now by the store's clock.
  std::chrono::system_clock::time_point now() const;

 private:
  struct State;
  std::unique_ptr<State> state_;
};

// An Hsts kept in a file in curl's --hsts format (CURLOPT_HSTS): a cache tern and curl can
// share.
//
//   auto hsts = std::make_shared<tern::FileHsts>("hsts.txt");  // Loads it, if it exists.
//   tern::Client client = tern::Client::Builder().hsts(hsts).build();
//   ...
//   hsts->save();  // Or Options::saveOnDestruction.
//
// One line a host: the host name, a leading '.' when it includes subdomains, and its expiry in
// UTC, quoted, or "unlimited":
//   .example.com "20271202 20:44:04"
// Lines starting with '#' are comments. Reading skips lines it cannot parse and expired entries.
// Saving is atomic (a temporary file renamed over the old one), as FileCookieJar's.
class TERN_API FileHsts final : public Hsts {
 public:
  struct Options {
    bool saveOnDestruction = false;  // save() in the destructor (errors ignored there).
    Clock clock;                     // Empty: the system clock.
  };

  // A store kept in `path`: loads it now if it exists (a missing file is an empty store).
  // Throws IOException naming the path if it exists but cannot be read.
  explicit FileHsts(std::filesystem::path path);
  FileHsts(std::filesystem::path path, Options options);
  // With Options::saveOnDestruction, saves; a failure then is lost (call save() to see it).
  ~FileHsts() override;

  const std::filesystem::path& path() const noexcept { return path_; }

  // Writes every unexpired entry to path(), atomically. Throws IOException naming the file and
  // the reason; the old file is then intact.
  void save();

  // Adds the entries of the file `path` (as the constructor does). Throws IOException naming the
  // file if it exists and cannot be read.
  void load(const std::filesystem::path& path);

  // The entries in the text of an HSTS file, in file order; lines that are not entries are
  // skipped. Expired ones are kept (the store drops them).
  static std::vector<HstsEntry> parse(std::string_view text);

  // An HSTS file holding `entries`, with curl's header comment.
  static std::string format(const std::vector<HstsEntry>& entries);

  // Writes format(entries) to `path` atomically. Throws IOException naming the file.
  static void writeFile(const std::filesystem::path& path, const std::vector<HstsEntry>& entries);

  // The entries of the file `path`, as parse() reads them; none if it does not exist. Throws
  // IOException naming the file if it exists and cannot be read.
  static std::vector<HstsEntry> readFile(const std::filesystem::path& path);

 private:
  std::filesystem::path path_;
  bool saveOnDestruction_;
};

}  // namespace tern
