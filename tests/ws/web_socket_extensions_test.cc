// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#include "ws/web_socket_extensions.h"

#include <gtest/gtest.h>

namespace tern::internal {
namespace {

WebSocketExtensions parse(std::string_view value) {
  return WebSocketExtensions::parse(Headers::of({{"Sec-WebSocket-Extensions", value}}));
}

WebSocketExtensions deflate() {
  WebSocketExtensions e;
  e.perMessageDeflate = true;
  return e;
}

TEST(WebSocketExtensionsTest, EmptyHeader) { EXPECT_EQ(parse(""), WebSocketExtensions()); }

TEST(WebSocketExtensionsTest, NoExtensionHeader) {
  EXPECT_EQ(WebSocketExtensions::parse(Headers()), WebSocketExtensions());
  EXPECT_EQ(WebSocketExtensions::parse(Headers::of({{"Sec-WebSocket-Protocol", "chat"}})),
            WebSocketExtensions());
}

TEST(WebSocketExtensionsTest, EmptyExtensionIsUnknown) {
  auto expected = deflate();
  expected.unknownValues = true;
  EXPECT_EQ(parse(", permessage-deflate"), expected);
}

TEST(WebSocketExtensionsTest, UnknownExtension) {
  WebSocketExtensions expected;
  expected.unknownValues = true;
  EXPECT_EQ(parse("unknown-ext"), expected);
  EXPECT_EQ(parse("x-webkit-deflate-frame; max_window_bits=10"), expected);
}

TEST(WebSocketExtensionsTest, PerMessageDeflate) {
  EXPECT_EQ(parse("permessage-deflate"), deflate());
  EXPECT_EQ(parse("permessage-deflate;"), deflate());  // Empty parameters.
}

TEST(WebSocketExtensionsTest, RepeatedPerMessageDeflate) {
  auto expected = deflate();
  expected.serverNoContextTakeover = true;
  expected.unknownValues = true;
  EXPECT_EQ(parse("permessage-deflate, permessage-deflate; server_no_context_takeover"), expected);
}

TEST(WebSocketExtensionsTest, MultipleHeaders) {
  EXPECT_EQ(
      WebSocketExtensions::parse(Headers::of(
          {{"Sec-WebSocket-Extensions", ""}, {"sec-websocket-extensions", "permessage-deflate"}})),
      deflate());
  // Two fields each naming permessage-deflate is a repeat, as in one field.
  EXPECT_TRUE(
      WebSocketExtensions::parse(Headers::of({{"Sec-WebSocket-Extensions", "permessage-deflate"},
                                              {"Sec-WebSocket-Extensions", "permessage-deflate"}}))
          .unknownValues);
}

TEST(WebSocketExtensionsTest, NoContextTakeover) {
  auto both = deflate();
  both.clientNoContextTakeover = true;
  both.serverNoContextTakeover = true;
  EXPECT_EQ(parse("permessage-deflate; server_no_context_takeover; client_no_context_takeover"),
            both);
  EXPECT_EQ(parse("permessage-deflate; client_no_context_takeover; server_no_context_takeover"),
            both);
  EXPECT_EQ(parse("permessage-deflate;server_no_context_takeover;client_no_context_takeover"),
            both);
  EXPECT_EQ(parse("  permessage-deflate\t ; \tserver_no_context_takeover\t ;  "
                  "client_no_context_takeover  "),
            both);
  EXPECT_EQ(parse("PERMESSAGE-DEFLATE; SERVER_NO_CONTEXT_TAKEOVER; CLIENT_NO_CONTEXT_TAKEOVER"),
            both);

  auto client = deflate();
  client.clientNoContextTakeover = true;
  EXPECT_EQ(parse("permessage-deflate; client_no_context_takeover"), client);
  auto server = deflate();
  server.serverNoContextTakeover = true;
  EXPECT_EQ(parse("permessage-deflate; server_no_context_takeover"), server);
  EXPECT_TRUE(server.noContextTakeover(false));
  EXPECT_FALSE(server.noContextTakeover(true));
  EXPECT_TRUE(client.noContextTakeover(true));
  EXPECT_FALSE(client.noContextTakeover(false));
}

TEST(WebSocketExtensionsTest, Everything) {
  auto expected = deflate();
  expected.clientMaxWindowBits = 15;
  expected.clientNoContextTakeover = true;
  expected.serverMaxWindowBits = 8;
  expected.serverNoContextTakeover = true;
  EXPECT_EQ(parse("permessage-deflate; client_max_window_bits=15; client_no_context_takeover; "
                  "server_max_window_bits=8; server_no_context_takeover"),
            expected);
}

TEST(WebSocketExtensionsTest, MaxWindowBitsPlainQuotedAndSpaced) {
  for (std::string_view name : {"client_max_window_bits", "server_max_window_bits"}) {
    for (std::string_view form : {"=8", "=\"8\"", "\t =\t 8\t ", "\t =\t \"8\"\t "}) {
      auto e = parse("permessage-deflate; " + std::string(name) + std::string(form));
      auto expected = deflate();
      (name[0] == 'c' ? expected.clientMaxWindowBits : expected.serverMaxWindowBits) = 8;
      EXPECT_EQ(e, expected) << name << form;
    }
  }
  auto fifteen = deflate();
  fifteen.serverMaxWindowBits = 15;
  EXPECT_EQ(parse("permessage-deflate; server_max_window_bits=\"15\""), fifteen);
}

TEST(WebSocketExtensionsTest, ClientMaxWindowBitsWithoutValueMeans15) {
  // RFC 7692 §7.1.2.2: a client's offer may carry it without a value.
  auto expected = deflate();
  expected.clientMaxWindowBits = 15;
  EXPECT_EQ(parse("permessage-deflate; client_max_window_bits"), expected);
}

TEST(WebSocketExtensionsTest, UnknownParameters) {
  auto expected = deflate();
  expected.unknownValues = true;
  EXPECT_EQ(parse("permessage-deflate; unknown"), expected);
  EXPECT_EQ(parse("permessage-deflate; unknown_parameter=15"), expected);
  EXPECT_EQ(parse("permessage-deflate; unknown_parameter=15; unknown_parameter=15"), expected);
  EXPECT_EQ(parse("permessage-deflate; ; server_no_context_takeover").unknownValues, true);
}

TEST(WebSocketExtensionsTest, UnexpectedOrAbsentValues) {
  auto flag = deflate();
  flag.clientNoContextTakeover = true;
  flag.unknownValues = true;
  EXPECT_EQ(parse("permessage-deflate; client_no_context_takeover=true"), flag);
  auto bad = deflate();
  bad.unknownValues = true;
  EXPECT_EQ(parse("permessage-deflate; server_max_window_bits=true"), bad);
  EXPECT_EQ(parse("permessage-deflate; server_max_window_bits"), bad);  // §7.1.2.1: needs a value.
  EXPECT_EQ(parse("permessage-deflate; server_max_window_bits=-9"), bad);
  EXPECT_EQ(parse("permessage-deflate; server_max_window_bits=999"), bad);
}

TEST(WebSocketExtensionsTest, RepeatedParameters) {
  EXPECT_TRUE(parse("permessage-deflate; server_no_context_takeover; server_no_context_takeover")
                  .unknownValues);
  EXPECT_TRUE(parse("permessage-deflate; client_no_context_takeover; client_no_context_takeover")
                  .unknownValues);
  EXPECT_TRUE(parse("permessage-deflate; server_max_window_bits=9; server_max_window_bits=9")
                  .unknownValues);
  EXPECT_TRUE(
      parse("permessage-deflate; client_max_window_bits=9; client_max_window_bits").unknownValues);
}

TEST(WebSocketExtensionsTest, QuotedValueMayHoldDelimiters) {
  // A quoted string holding ',' or ';' does not split the list; its value is not a number.
  auto e = parse("permessage-deflate; server_max_window_bits=\"1,5;\"; server_no_context_takeover");
  EXPECT_TRUE(e.perMessageDeflate);
  EXPECT_TRUE(e.serverNoContextTakeover);
  EXPECT_TRUE(e.unknownValues);
  EXPECT_EQ(e.serverMaxWindowBits, std::nullopt);
}

TEST(WebSocketExtensionsTest, ClientRejectionReason) {
  EXPECT_EQ(parse("permessage-deflate").clientRejectionReason(), std::nullopt);
  EXPECT_EQ(WebSocketExtensions().clientRejectionReason(), std::nullopt);
  EXPECT_EQ(parse("permessage-deflate; server_no_context_takeover; client_no_context_takeover")
                .clientRejectionReason(),
            std::nullopt);
  for (int bits = 8; bits <= 15; ++bits) {
    EXPECT_EQ(parse("permessage-deflate; server_max_window_bits=" + std::to_string(bits))
                  .clientRejectionReason(),
              std::nullopt)
        << bits;
  }
  EXPECT_EQ(parse("permessage-deflate; server_max_window_bits=7").clientRejectionReason(),
            "server_max_window_bits must be in 8..15: 7");
  EXPECT_EQ(parse("permessage-deflate; server_max_window_bits=16").clientRejectionReason(),
            "server_max_window_bits must be in 8..15: 16");
  EXPECT_EQ(parse("permessage-deflate; client_max_window_bits=15").clientRejectionReason(),
            "unexpected client_max_window_bits=15 in response header: not offered");
  EXPECT_EQ(parse("permessage-deflate; foo").clientRejectionReason(),
            "unexpected Sec-WebSocket-Extensions in response header");
  EXPECT_EQ(parse("foo").clientRejectionReason(),
            "unexpected Sec-WebSocket-Extensions in response header");
}

TEST(WebSocketExtensionsTest, ToHeaderValueRoundTrips) {
  EXPECT_EQ(WebSocketExtensions().toHeaderValue(), "");
  EXPECT_EQ(deflate().toHeaderValue(), "permessage-deflate");
  for (int mask = 0; mask < 16; ++mask) {
    auto e = deflate();
    if (mask & 1) e.clientMaxWindowBits = 9;
    if (mask & 2) e.clientNoContextTakeover = true;
    if (mask & 4) e.serverMaxWindowBits = 12;
    if (mask & 8) e.serverNoContextTakeover = true;
    EXPECT_EQ(parse(e.toHeaderValue()), e) << e.toHeaderValue();
  }
  auto everything = deflate();
  everything.serverNoContextTakeover = true;
  everything.serverMaxWindowBits = 10;
  EXPECT_EQ(everything.toHeaderValue(),
            "permessage-deflate; server_max_window_bits=10; server_no_context_takeover");
}

}  // namespace
}  // namespace tern::internal
