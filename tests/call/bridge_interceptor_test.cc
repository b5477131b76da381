// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#include "call/bridge_interceptor.h"

#include <gtest/gtest.h>

namespace tern::internal {
namespace {

TEST(BridgeInterceptorTest, HostHeaderOmitsTheSchemesDefaultPort) {
  EXPECT_EQ(hostHeader(HttpUrl::get("http://example.com/")), "example.com");
  EXPECT_EQ(hostHeader(HttpUrl::get("https://example.com/")), "example.com");
  EXPECT_EQ(hostHeader(HttpUrl::get("http://example.com:443/")), "example.com:443");
  EXPECT_EQ(hostHeader(HttpUrl::get("https://example.com:80/")), "example.com:80");
  EXPECT_EQ(hostHeader(HttpUrl::get("http://127.0.0.1:8080/a")), "127.0.0.1:8080");
}

TEST(BridgeInterceptorTest, HostHeaderBracketsIpv6) {
  EXPECT_EQ(hostHeader(HttpUrl::get("http://[::1]/")), "[::1]");
  EXPECT_EQ(hostHeader(HttpUrl::get("http://[2001:db8::1]:8080/")), "[2001:db8::1]:8080");
}

}  // namespace
}  // namespace tern::internal
