// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#include "tern/cookie_jar.h"

namespace tern {
namespace {

// Keeps nothing and sends nothing.
class NoCookies final : public CookieJar {
 public:
  void saveFromResponse(const HttpUrl&, const std::vector<Cookie>&) override {}
  std::vector<Cookie> loadForRequest(const HttpUrl&) override { return {}; }
};

}  // namespace

const std::shared_ptr<CookieJar>& CookieJar::noCookies() {
  static const std::shared_ptr<CookieJar> kNoCookies = std::make_shared<NoCookies>();
  return kNoCookies;
}

}  // namespace tern
