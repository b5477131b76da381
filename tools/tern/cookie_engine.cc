// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#include "cookie_engine.h"

#include <algorithm>
#include <cctype>
#include <numeric>
#include <utility>

#include "tern/exceptions.h"
#include "tern/file_cookie_jar.h"

namespace tern::tool {
namespace {

// Appends -b's data to the Cookie header the bridge wrote (or makes one), as curl writes the
// jar's cookies and then CURLOPT_COOKIE's text in one header.
class CookieDataInterceptor final : public Interceptor {
 public:
  explicit CookieDataInterceptor(std::string data) : data_(std::move(data)) {}

  Response intercept(Chain& chain) override {
    const Request& request = chain.request();
    std::optional<std::string> jar = request.header("Cookie");
    std::string value = jar ? *jar + "; " + data_ : data_;
    return chain.proceed(request.newBuilder().header("Cookie", value).build());
  }

 private:
  std::string data_;
};

bool isCookieHeaderLine(const std::string& line) {
  static constexpr std::string_view kName = "cookie:";
  if (line.size() < kName.size()) return false;
  for (size_t i = 0; i < kName.size(); ++i) {
    if (std::tolower(static_cast<unsigned char>(line[i])) != kName[i]) return false;
  }
  return true;
}

}  // namespace

std::shared_ptr<CookieEngine> CookieEngine::forOptions(const Options& options) {
  if (options.cookies.empty() && options.cookieFiles.empty() && !options.cookieJar) {
    return nullptr;
  }
  return std::make_shared<CookieEngine>(options);
}

CookieEngine::CookieEngine(const Options& options) : jarFile_(options.cookieJar) {
  // curl sends CURLOPT_COOKIE only when no custom Cookie header was given.
  bool customHeader =
      std::any_of(options.headers.begin(), options.headers.end(), isCookieHeaderLine);
  if (!customHeader) {
    for (const std::string& data : options.cookies) {
      if (!data_.empty()) data_ += ';';
      data_ += data;
    }
  }
  if (options.cookieFiles.empty() && !options.cookieJar) return;
  jar_ = std::make_shared<InMemoryCookieJar>();
  for (const std::string& file : options.cookieFiles) {
    try {
      int64_t now = jar_->now();
      for (const Cookie& cookie : FileCookieJar::readFile(file, options.junkSessionCookies)) {
        jar_->add(cookie, now);
      }
    } catch (const IOException&) {
      // curl reads a cookie file it cannot open as no cookies, without a word.
    }
  }
}

void CookieEngine::saveFromResponse(const HttpUrl& url, const std::vector<Cookie>& cookies) {
  if (jar_) jar_->saveFromResponse(url, cookies);
}

std::vector<Cookie> CookieEngine::loadForRequest(const HttpUrl& url) {
  if (!jar_) return {};
  std::vector<Cookie> cookies = jar_->loadForRequest(url);
  // The jar's order is RFC 6265bis's: longer paths, then older. curl 7.88's cookie_sort() breaks
  // path ties by longer domain, longer name and then the newer cookie: reorder to send its bytes.
  std::vector<size_t> order(cookies.size());
  std::iota(order.begin(), order.end(), 0);
  std::sort(order.begin(), order.end(), [&](size_t a, size_t b) {
    const Cookie& x = cookies[a];
    const Cookie& y = cookies[b];
    if (x.path().size() != y.path().size()) return x.path().size() > y.path().size();
    if (x.domain().size() != y.domain().size()) return x.domain().size() > y.domain().size();
    if (x.name().size() != y.name().size()) return x.name().size() > y.name().size();
    return a > b;  // Within one path length the jar lists the older first.
  });
  std::vector<Cookie> sorted;
  sorted.reserve(cookies.size());
  for (size_t i : order) sorted.push_back(std::move(cookies[i]));
  return sorted;
}

std::shared_ptr<Interceptor> CookieEngine::dataInterceptor() const {
  if (data_.empty()) return nullptr;
  return std::make_shared<CookieDataInterceptor>(data_);
}

void CookieEngine::writeJar(std::ostream& out, DebugOutput* debug) {
  if (!jarFile_ || !jar_) return;
  std::vector<Cookie> cookies = jar_->cookies();
  if (*jarFile_ == "-") {
    out << FileCookieJar::format(cookies);
    out.flush();
    return;
  }
  try {
    FileCookieJar::writeFile(*jarFile_, cookies);
  } catch (const IOException& e) {
    // curl 7.88 says so only with -v ("WARNING: failed to save cookies in FILE") and exits 0.
    if (debug) debug->info("WARNING: failed to save cookies in " + *jarFile_ + "\n");
  }
}

}  // namespace tern::tool
