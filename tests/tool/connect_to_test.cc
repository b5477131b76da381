// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#include "connect_to.h"

#include <gtest/gtest.h>

#include "exit_code.h"

namespace tern::tool {
namespace {

TEST(ConnectToTableTest, ReadsCurlsFourParts) {
  ConnectToTable table({"example.com:443:other.example:8443", "[::1]:80:[::2]:81", ":8080::9090",
                        "a.test:80:b.test", "a.test:81::"});
  EXPECT_EQ(table.rules(), (std::vector<ConnectTo>{{"example.com", 443, "other.example", 8443},
                                                   {"::1", 80, "::2", 81},
                                                   {"", 8080, "", 9090},
                                                   {"a.test", 80, "b.test", 0},
                                                   {"a.test", 81, "", 0}}));
  EXPECT_EQ(table.match("EXAMPLE.com", 443),
            (ConnectTo{"example.com", 443, "other.example", 8443}));
  EXPECT_EQ(table.match("::1", 80), (ConnectTo{"::1", 80, "::2", 81}));
  EXPECT_EQ(table.match("any.test", 8080), (ConnectTo{"", 8080, "", 9090}));
  EXPECT_EQ(table.match("a.test", 81), std::nullopt);  // Keeps both: no rule.
  EXPECT_EQ(table.match("example.com", 80), std::nullopt);
}

TEST(ConnectToTableTest, LinesThatCannotMatchAreIgnored) {
  ConnectToTable table({"nocolons", "a.test:x:b.test:1", "a.test:0:b.test:1", "a.test"});
  EXPECT_TRUE(table.rules().empty());
  EXPECT_EQ(table.match("a.test", 80), std::nullopt);
}

TEST(ConnectToTableTest, ABadPortFailsOnlyWhenItsLineMatches) {
  ConnectToTable table({"a.test:80:b.test:99999", "::c.test:"});
  EXPECT_EQ(table.rules(), (std::vector<ConnectTo>{{"", 0, "c.test", 0}}));
  EXPECT_EQ(table.match("other.test", 80), (ConnectTo{"", 0, "c.test", 0}));
  try {
    table.match("a.test", 80);
    FAIL();
  } catch (const ToolException& e) {
    EXPECT_EQ(e.exitCode(), 49);
    EXPECT_STREQ(e.what(), "No valid port number in connect to host string (99999)");
  }
}

}  // namespace
}  // namespace tern::tool
