// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#include "tern/proxy.h"

#include <gtest/gtest.h>

#include <map>
#include <sstream>
#include <stdexcept>

#include "tern/proxy_selector.h"

namespace tern {
namespace {

TEST(ProxyTest, ParsesCurlsForms) {
  Proxy plain = Proxy::parse("proxy.example:3128");
  EXPECT_EQ(plain.type(), Proxy::Type::HTTP);
  EXPECT_EQ(plain.host(), "proxy.example");
  EXPECT_EQ(plain.port(), 3128);
  EXPECT_FALSE(plain.hasCredentials());

  EXPECT_EQ(Proxy::parse("proxy.example").port(), 1080);  // curl's default for every kind...
  EXPECT_EQ(Proxy::parse("http://proxy.example/").port(), 1080);
  EXPECT_EQ(Proxy::parse("https://proxy.example").port(), 443);  // ...but https.
  EXPECT_EQ(Proxy::parse("https://proxy.example").type(), Proxy::Type::HTTPS);

  Proxy socks = Proxy::parse("socks5://127.0.0.1:1080");
  EXPECT_EQ(socks.type(), Proxy::Type::SOCKS);
  EXPECT_FALSE(socks.remoteDns());
  EXPECT_TRUE(Proxy::parse("socks5h://127.0.0.1:1080").remoteDns());
  EXPECT_EQ(Proxy::parse("SOCKS5H://Proxy.Example:9").host(), "proxy.example");

  Proxy v6 = Proxy::parse("http://[::1]:8080");
  EXPECT_EQ(v6.host(), "::1");
  EXPECT_EQ(v6.port(), 8080);
  EXPECT_EQ(v6.toString(), "HTTP @ [::1]:8080");
}

TEST(ProxyTest, ParsesPercentEncodedCredentials) {
  Proxy proxy = Proxy::parse("http://ann%40corp:p%3Ass@proxy.example:3128");
  ASSERT_TRUE(proxy.hasCredentials());
  EXPECT_EQ(proxy.username(), "ann@corp");
  EXPECT_EQ(proxy.password(), "p:ss");
  EXPECT_EQ(proxy.toString(), "HTTP @ proxy.example:3128");  // Never the credentials.
  EXPECT_EQ(Proxy::parse("socks5://bob@h:1").username(), "bob");
  EXPECT_EQ(Proxy::parse("socks5://bob@h:1").password(), "");
}

TEST(ProxyTest, RejectsWhatCurlRejects) {
  for (const char* bad : {"socks4://h:1", "ftp://h:1", "http://h:0", "http://h:65536", "http://h:x",
                          "http://:80", "http://h/path", "http://[::1", "::1:80"}) {
    EXPECT_THROW(Proxy::parse(bad), std::invalid_argument) << bad;
  }
  try {
    Proxy::parse("socks4://h:1");
  } catch (const std::invalid_argument& e) {
    EXPECT_STREQ(e.what(),
                 "Invalid proxy \"socks4://h:1\": unsupported scheme socks4 (http, https, socks5 "
                 "and socks5h are)");
  }
  EXPECT_THROW(Proxy(Proxy::Type::DIRECT, "h", 1), std::invalid_argument);
  EXPECT_THROW(Proxy::http("", 1), std::invalid_argument);
  EXPECT_THROW(Proxy::direct().withCredentials("a", "b"), std::invalid_argument);
}

TEST(ProxyTest, PrintsAsJava) {
  std::ostringstream out;
  out << Proxy::direct() << " " << Proxy::socks5h("10.0.0.1", 1080) << " "
      << Proxy::https("p", 443);
  EXPECT_EQ(out.str(), "DIRECT SOCKS @ 10.0.0.1:1080 HTTPS @ p:443");
}

TEST(NoProxyTest, MatchesAsCurl) {
  EXPECT_TRUE(matchesNoProxy("example.com", "example.com"));
  EXPECT_TRUE(matchesNoProxy("api.example.com", "example.com"));
  EXPECT_TRUE(matchesNoProxy("api.example.com", ".example.com"));
  EXPECT_TRUE(matchesNoProxy("example.com", ".example.com"));
  EXPECT_TRUE(matchesNoProxy("API.Example.COM", "example.com"));
  EXPECT_FALSE(matchesNoProxy("notexample.com", "example.com"));
  EXPECT_FALSE(matchesNoProxy("example.com.evil", "example.com"));
  EXPECT_TRUE(matchesNoProxy("b.test", "a.test, b.test ,c.test"));
  EXPECT_TRUE(matchesNoProxy("anything", "*"));
  EXPECT_FALSE(matchesNoProxy("anything", "*.anything"));  // "*" only alone.
  EXPECT_FALSE(matchesNoProxy("anything", ""));

  EXPECT_TRUE(matchesNoProxy("127.0.0.1", "127.0.0.1"));
  EXPECT_TRUE(matchesNoProxy("10.1.2.3", "10.0.0.0/8"));
  EXPECT_FALSE(matchesNoProxy("11.1.2.3", "10.0.0.0/8"));
  EXPECT_TRUE(matchesNoProxy("192.168.1.77", "192.168.1.0/24"));
  EXPECT_TRUE(matchesNoProxy("::1", "::1"));
  EXPECT_TRUE(matchesNoProxy("::1", "[::1]"));
  EXPECT_TRUE(matchesNoProxy("2001:db8::5", "2001:db8::/32"));
  EXPECT_FALSE(matchesNoProxy("2001:db9::5", "2001:db8::/32"));
  EXPECT_FALSE(matchesNoProxy("127.0.0.1", "::1"));  // Another family.
  EXPECT_FALSE(matchesNoProxy("127.0.0.2", "127.0.0.1"));
}

std::shared_ptr<ProxySelector> fromEnvironment(std::map<std::string, std::string> env) {
  return ProxySelector::fromEnvironment(
      [env = std::move(env)](const std::string& name) -> std::optional<std::string> {
        auto it = env.find(name);
        if (it == env.end()) return std::nullopt;
        return it->second;
      });
}

std::string selected(ProxySelector& selector, const char* url) {
  std::string result;
  for (const Proxy& proxy : selector.select(HttpUrl::get(url))) {
    result += (result.empty() ? "" : ", ") + proxy.toString();
  }
  return result;
}

TEST(ProxySelectorTest, EnvironmentAsCurlReadsIt) {
  auto selector = fromEnvironment({{"http_proxy", "http://h1:1"},
                                   {"https_proxy", "http://h2:2"},
                                   {"no_proxy", "internal.test,10.0.0.0/8"}});
  EXPECT_EQ(selected(*selector, "http://example.com/"), "HTTP @ h1:1");
  EXPECT_EQ(selected(*selector, "https://example.com/"), "HTTP @ h2:2");
  EXPECT_EQ(selected(*selector, "https://www.internal.test/"), "DIRECT");
  EXPECT_EQ(selected(*selector, "http://10.9.9.9/"), "DIRECT");
}

TEST(ProxySelectorTest, UpperCaseHttpProxyIsIgnored) {
  // httpoxy: a CGI server puts a request's "Proxy:" header in HTTP_PROXY.
  auto selector = fromEnvironment({{"HTTP_PROXY", "http://evil:1"}});
  EXPECT_EQ(selected(*selector, "http://example.com/"), "DIRECT");
  auto upper = fromEnvironment(
      {{"HTTPS_PROXY", "http://h:2"}, {"ALL_PROXY", "socks5h://s:3"}, {"NO_PROXY", "skip.test"}});
  EXPECT_EQ(selected(*upper, "https://example.com/"), "HTTP @ h:2");
  EXPECT_EQ(selected(*upper, "http://example.com/"), "SOCKS @ s:3");  // all_proxy for http.
  EXPECT_EQ(selected(*upper, "http://skip.test/"), "DIRECT");
}

TEST(ProxySelectorTest, LowerCaseWinsAndEmptyIsUnset) {
  auto selector = fromEnvironment({{"https_proxy", "http://lower:1"},
                                   {"HTTPS_PROXY", "http://upper:2"},
                                   {"all_proxy", ""},
                                   {"ALL_PROXY", "http://all:3"}});
  EXPECT_EQ(selected(*selector, "https://example.com/"), "HTTP @ lower:1");
  EXPECT_EQ(selected(*selector, "http://example.com/"), "HTTP @ all:3");
  EXPECT_EQ(selected(*fromEnvironment({}), "http://example.com/"), "DIRECT");
}

TEST(ProxySelectorTest, BadValueFailsTheCallsItAppliesTo) {
  auto selector = fromEnvironment({{"https_proxy", "socks4://h:1"}});
  EXPECT_EQ(selected(*selector, "http://example.com/"), "DIRECT");
  try {
    selector->select(HttpUrl::get("https://example.com/"));
    FAIL();
  } catch (const IOException& e) {
    EXPECT_STREQ(e.what(),
                 "Invalid proxy \"socks4://h:1\": unsupported scheme socks4 (http, https, socks5 "
                 "and socks5h are) (from the https_proxy variable)");
  }
}

TEST(ProxySelectorTest, OfWithNoProxyList) {
  auto selector = ProxySelector::of(Proxy::socks5("s", 1), "localhost");
  EXPECT_EQ(selected(*selector, "https://example.com/"), "SOCKS @ s:1");
  EXPECT_EQ(selected(*selector, "http://localhost:8080/"), "DIRECT");
  EXPECT_EQ(selected(*ProxySelector::of(Proxy::direct()), "http://a/"), "DIRECT");
  EXPECT_EQ(selected(*ProxySelector::noProxy(), "http://a/"), "DIRECT");
}

}  // namespace
}  // namespace tern
