// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#include "proxy_setup.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <map>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "options.h"

namespace tern::tool {
namespace {

Options parse(const std::vector<std::string>& args) {
  std::istringstream in;
  std::ostringstream out;
  std::ostringstream err;
  CommandLine commandLine = parseCommandLine(args, in, out, err);
  EXPECT_EQ(commandLine.exitCode, std::nullopt) << err.str();
  return commandLine.options;
}

// The proxy the tool chooses for `url` with `args` and the environment `variables`.
Proxy select(const std::vector<std::string>& args,
             const std::map<std::string, std::string>& variables,
             const std::string& url = "http://example.com/") {
  std::vector<std::string> withUrl = args;
  withUrl.push_back(url);
  ProxySetup setup(parse(withUrl), [&](const std::string& name) -> std::optional<std::string> {
    auto found = variables.find(name);
    if (found == variables.end()) return std::nullopt;
    return found->second;
  });
  Proxy proxy = setup.select(HttpUrl::get(url));
  // The client's selector agrees.
  std::vector<Proxy> selected = setup.selector()->select(HttpUrl::get(url));
  EXPECT_EQ(selected.empty() ? Proxy::direct() : selected.front(), proxy);
  return proxy;
}

// The exit code and message select() fails with.
std::pair<int, std::string> failure(const std::vector<std::string>& args,
                                    const std::map<std::string, std::string>& variables = {}) {
  try {
    select(args, variables);
  } catch (const ToolException& e) {
    return {e.exitCode(), e.what()};
  }
  return {0, ""};
}

TEST(ProxySetupTest, ProxyOptionsAndTheLastOneWins) {
  EXPECT_EQ(select({"-x", "proxy:3128"}, {}), Proxy::http("proxy", 3128));
  EXPECT_EQ(select({"-x", "proxy"}, {}), Proxy::http("proxy", 1080));  // curl's default port.
  EXPECT_EQ(select({"-x", "https://proxy"}, {}), Proxy::https("proxy", 443));
  EXPECT_EQ(select({"--socks5", "s:1"}, {}), Proxy::socks5("s", 1));
  EXPECT_EQ(select({"--socks5-hostname", "s:1"}, {}), Proxy::socks5h("s", 1));
  EXPECT_EQ(select({"--socks5", "s:1", "-x", "p:2"}, {}), Proxy::http("p", 2));
  EXPECT_EQ(select({"-x", "p:2", "--socks5-hostname", "s:1"}, {}), Proxy::socks5h("s", 1));
  // A path is ignored, as curl ignores it.
  EXPECT_EQ(select({"-x", "http://p:2/some/path"}, {}), Proxy::http("p", 2));
}

TEST(ProxySetupTest, EnvironmentUnlessXIsGiven) {
  const std::map<std::string, std::string> env{{"http_proxy", "env:1"}};
  EXPECT_EQ(select({}, env), Proxy::http("env", 1));
  EXPECT_EQ(select({"-x", "p:2"}, env), Proxy::http("p", 2));
  EXPECT_EQ(select({"-x", ""}, env), Proxy::direct());  // No proxy at all.
  EXPECT_EQ(select({}, {{"HTTP_PROXY", "env:1"}}), Proxy::direct());
  EXPECT_EQ(select({}, {{"HTTPS_PROXY", "env:1"}}, "https://example.com/"), Proxy::http("env", 1));
}

TEST(ProxySetupTest, NoProxyFromTheOptionOrTheEnvironment) {
  EXPECT_EQ(select({"-x", "p:2", "--noproxy", "example.com"}, {}), Proxy::direct());
  EXPECT_EQ(select({"-x", "p:2", "--noproxy", "*"}, {}), Proxy::direct());
  EXPECT_EQ(select({"-x", "p:2"}, {{"no_proxy", "example.com"}}), Proxy::direct());
  EXPECT_EQ(select({"-x", "p:2", "--noproxy", ""}, {{"no_proxy", "example.com"}}),
            Proxy::http("p", 2));
  EXPECT_EQ(select({}, {{"http_proxy", "e:1"}, {"NO_PROXY", "example.com"}}), Proxy::direct());
  EXPECT_EQ(select({"--noproxy", ""}, {{"http_proxy", "e:1"}, {"no_proxy", "example.com"}}),
            Proxy::http("e", 1));
  EXPECT_EQ(select({"--noproxy", "example.com"}, {{"http_proxy", "e:1"}}), Proxy::direct());
}

TEST(ProxySetupTest, ProxyUserUnlessTheProxyHasCredentials) {
  EXPECT_EQ(select({"-x", "p:2", "-U", "ann:pw"}, {}),
            Proxy::http("p", 2).withCredentials("ann", "pw"));
  EXPECT_EQ(select({"-x", "bob:x@p:2", "-U", "ann:pw"}, {}),
            Proxy::http("p", 2).withCredentials("bob", "x"));
  EXPECT_EQ(select({"-U", "ann:pw"}, {{"http_proxy", "e:1"}}),
            Proxy::http("e", 1).withCredentials("ann", "pw"));
  EXPECT_EQ(select({"-U", "ann"}, {{"all_proxy", "socks5://e:1"}}),
            Proxy::socks5("e", 1).withCredentials("ann", ""));
}

TEST(ProxySetupTest, ProxiesTernCannotUseFailAsCurl) {
  EXPECT_EQ(failure({"-x", "foo://p:1"}),
            std::pair(7, std::string("Unsupported proxy scheme for 'foo://p:1'")));
  EXPECT_EQ(failure({"-x", "p:99999"}),
            std::pair(5, std::string("Unsupported proxy syntax in 'p:99999'")));
  EXPECT_EQ(failure({}, {{"http_proxy", "foo://p:1"}}),
            std::pair(7, std::string("Unsupported proxy scheme for 'foo://p:1'")));
  EXPECT_EQ(failure({"-x", "socks4a://p"}).first, 4);
}

}  // namespace
}  // namespace tern::tool
