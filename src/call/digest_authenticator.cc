// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#include "tern/digest_authenticator.h"

#include <cstdio>
#include <map>
#include <utility>

#include "concurrent/mutex.h"
#include "http/digest.h"
#include "io/ascii.h"
#include "tern/challenge.h"
#include "tern/headers.h"

namespace tern {
namespace {

using internal::DigestAlgorithmName;
using internal::equalsIgnoreCase;

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  return s;
}

std::optional<std::string> param(const Challenge& challenge, const std::string& name) {
  auto it = challenge.authParams().find(name);
  if (it == challenge.authParams().end()) return std::nullopt;
  return it->second;
}

// A Digest challenge this authenticator can meet, with what it chose.
struct Offer {
  const Challenge* challenge = nullptr;
  DigestAlgorithmName algorithm;
  std::string qop;  // "auth", or empty when the server sent no qop (RFC 2069).
};

// `challenge` as an Offer, or nullopt if it is not Digest, has no nonce, names an unknown
// algorithm, or offers qop values without "auth" (auth-int alone would need the body hashed).
std::optional<Offer> offer(const Challenge& challenge) {
  if (!equalsIgnoreCase(challenge.scheme(), "Digest")) return std::nullopt;
  if (!param(challenge, "nonce")) return std::nullopt;
  std::optional<std::string> algorithmName = param(challenge, "algorithm");
  std::optional<DigestAlgorithmName> algorithm =
      algorithmName ? internal::parseDigestAlgorithm(*algorithmName) : DigestAlgorithmName{};
  if (!algorithm) return std::nullopt;
  Offer result{&challenge, *algorithm, ""};
  if (std::optional<std::string> qop = param(challenge, "qop")) {
    std::string_view rest = *qop;
    bool auth = false;
    while (!rest.empty()) {
      size_t comma = rest.find(',');
      if (equalsIgnoreCase(trim(rest.substr(0, comma)), "auth")) auth = true;
      rest = comma == std::string_view::npos ? std::string_view() : rest.substr(comma + 1);
    }
    if (!auth) return std::nullopt;
    result.qop = "auth";
  }
  return result;
}

// Whether `request` carries our answer in `headerName`: a Digest credential.
bool answered(const Request& request, std::string_view headerName) {
  std::optional<std::string> value = request.header(headerName);
  return value && internal::startsWithIgnoreCase(*value, "Digest ");
}

// The request-target the response is computed over (RFC 7616 §3.4: "uri"): origin-form, or a
// CONNECT's authority-form.
std::string requestTarget(const Request& request) {
  const HttpUrl& url = request.url();
  if (request.method() == "CONNECT") return url.host() + ":" + std::to_string(url.port());
  std::string target = url.encodedPath();
  if (std::optional<std::string> query = url.encodedQuery()) target += "?" + *query;
  return target;
}

// Whether `username` can go in a quoted-string as is; else it goes in username* (RFC 7616 §3.4,
// RFC 8187), percent-encoded UTF-8.
bool quotable(std::string_view username) {
  for (char c : username) {
    auto byte = static_cast<unsigned char>(c);
    if (byte < 0x20 || byte >= 0x7f) return false;
  }
  return true;
}

std::string extValue(std::string_view value) {
  std::string result = "UTF-8''";
  for (char c : value) {
    auto byte = static_cast<unsigned char>(c);
    bool attrChar = (byte >= 'a' && byte <= 'z') || (byte >= 'A' && byte <= 'Z') ||
                    (byte >= '0' && byte <= '9') ||
                    std::string_view("!#$&+-.^_`|~").find(c) != std::string_view::npos;
    if (attrChar) {
      result += c;
    } else {
      char escaped[4];
      std::snprintf(escaped, sizeof(escaped), "%%%02X", byte);
      result += escaped;
    }
  }
  return result;
}

}  // namespace

struct DigestAuthenticator::State {
  // How many times each nonce was answered (nc, RFC 7616 §3.4). Bounded: servers mint nonces
  // freely, and a forgotten one only restarts at 00000001 (which a server may then reject as a
  // replay, and the next challenge brings a fresh nonce).
  static constexpr size_t kMaxNonces = 256;
  internal::Mutex mutex;
  std::map<std::string, uint32_t> nonceCounts TERN_GUARDED_BY(mutex);

  uint32_t nextCount(const std::string& nonce) {
    internal::MutexLock lock(mutex);
    auto it = nonceCounts.find(nonce);
    if (it == nonceCounts.end()) {
      if (nonceCounts.size() >= kMaxNonces) nonceCounts.clear();
      it = nonceCounts.emplace(nonce, 0).first;
    }
    return ++it->second;
  }
};

DigestAuthenticator::DigestAuthenticator(std::string username, std::string password)
    : username_(std::move(username)),
      password_(std::move(password)),
      state_(std::make_unique<State>()) {}

DigestAuthenticator::~DigestAuthenticator() = default;

std::optional<Request> DigestAuthenticator::authenticate(const Route*, const Response& response) {
  const bool proxy = response.code() == 407;
  const std::string_view headerName = proxy ? "Proxy-Authorization" : "Authorization";

  // The strongest algorithm wins; of equals, the first offered.
  std::vector<Challenge> challenges = response.challenges();
  std::optional<Offer> best;
  for (const Challenge& challenge : challenges) {
    std::optional<Offer> candidate = offer(challenge);
    if (candidate && (!best || candidate->algorithm.algorithm > best->algorithm.algorithm)) {
      best = std::move(candidate);
    }
  }
  if (!best) return std::nullopt;
  const Challenge& challenge = *best->challenge;
  bool stale = equalsIgnoreCase(param(challenge, "stale").value_or(""), "true");

  // Our answer was refused. stale=false means the credentials are wrong (RFC 7616 §3.3): stop,
  // as OkHttp's authenticators do, rather than loop to the follow-up limit. stale=true asks for
  // the same answer to a new nonce: once.
  if (answered(response.request(), headerName)) {
    if (!stale) return std::nullopt;
    for (const Response* prior = response.priorResponse(); prior; prior = prior->priorResponse()) {
      if (prior->code() == response.code() && answered(prior->request(), headerName)) {
        return std::nullopt;
      }
    }
  }

  internal::DigestInput in;
  in.algorithm = best->algorithm;
  in.username = username_;
  in.password = password_;
  in.realm = challenge.realm().value_or("");
  in.nonce = *param(challenge, "nonce");
  in.qop = best->qop;
  in.method = response.request().method();
  in.uri = requestTarget(response.request());
  if (!in.qop.empty() || in.algorithm.session) in.cnonce = internal::randomDigestCnonce();
  if (!in.qop.empty()) {
    char nc[9];
    std::snprintf(nc, sizeof(nc), "%08x", state_->nextCount(in.nonce));
    in.nc = nc;
  }

  using internal::quoteDigestValue;
  bool userhash = equalsIgnoreCase(param(challenge, "userhash").value_or(""), "true");
  std::string value = "Digest ";
  if (userhash) {
    value += "username=" + quoteDigestValue(internal::digestUserhash(in.algorithm.algorithm,
                                                                     in.username, in.realm));
  } else if (quotable(in.username)) {
    value += "username=" + quoteDigestValue(in.username);
  } else {
    value += "username*=" + extValue(in.username);
  }
  value += ", realm=" + quoteDigestValue(in.realm);
  value += ", nonce=" + quoteDigestValue(in.nonce);
  value += ", uri=" + quoteDigestValue(in.uri);
  value += ", response=" + quoteDigestValue(internal::digestResponse(in));
  value += ", algorithm=" + internal::digestAlgorithmName(in.algorithm);
  if (!in.qop.empty()) {
    value += ", qop=" + in.qop + ", nc=" + in.nc + ", cnonce=" + quoteDigestValue(in.cnonce);
  }
  if (std::optional<std::string> opaque = param(challenge, "opaque")) {
    value += ", opaque=" + quoteDigestValue(*opaque);
  }
  if (userhash) value += ", userhash=true";
  // The challenge's quoted values go back as they came, UTF-8 realms included (RFC 7616 §3.3
  // allows any octets in a quoted-string), hence the non-ASCII-tolerant add.
  Headers::Builder headers = response.request().headers().newBuilder();
  headers.removeAll(headerName).addUnsafeNonAscii(headerName, value);
  return response.request().newBuilder().headers(headers.build()).build();
}

}  // namespace tern
