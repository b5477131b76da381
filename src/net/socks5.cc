// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#include "net/socks5.h"

#include <stdexcept>
#include <vector>

#include "tern/buffer.h"
#include "tern/exceptions.h"
#include "tern/inet_address.h"

namespace tern::internal {
namespace {

constexpr uint8_t kVersion = 5;
constexpr uint8_t kNoAuthentication = 0;
constexpr uint8_t kUsernamePassword = 2;
constexpr uint8_t kNoAcceptableMethods = 0xff;
constexpr uint8_t kConnect = 1;
constexpr uint8_t kIpv4 = 1;
constexpr uint8_t kDomainName = 3;
constexpr uint8_t kIpv6 = 4;

std::string where(const Proxy& proxy, const std::string& host, int port) {
  const std::string origin = host.find(':') != std::string::npos ? "[" + host + "]" : host;
  return " (" + proxy.toString() + " to " + origin + ":" + std::to_string(port) + ")";
}

void send(Sink& sink, const std::vector<uint8_t>& bytes) {
  Buffer buffer;
  static_cast<BufferedSink&>(buffer).write(bytes.data(), bytes.size());
  sink.write(buffer, static_cast<int64_t>(bytes.size()));
  sink.flush();
}

// Exactly `byteCount` bytes: never more, as the origin's bytes follow the proxy's reply.
std::vector<uint8_t> receive(Source& source, size_t byteCount, const std::string& context) {
  Buffer buffer;
  while (buffer.size() < static_cast<int64_t>(byteCount)) {
    if (source.read(buffer, static_cast<int64_t>(byteCount) - buffer.size()) == -1) {
      throw ProtocolException("SOCKS5 proxy closed the connection" + context);
    }
  }
  std::vector<uint8_t> bytes;
  for (std::byte b : buffer.snapshot()) bytes.push_back(static_cast<uint8_t>(b));
  return bytes;
}

void appendString(std::vector<uint8_t>& out, const std::string& s, const char* what) {
  if (s.size() > 255) {
    throw std::invalid_argument(std::string("SOCKS5: ") + what + " longer than 255 bytes");
  }
  out.push_back(static_cast<uint8_t>(s.size()));
  out.insert(out.end(), s.begin(), s.end());
}

}  // namespace

std::string socks5ReplyText(int code) {
  switch (code) {
    case 1:
      return "general SOCKS server failure";
    case 2:
      return "connection not allowed by ruleset";
    case 3:
      return "network unreachable";
    case 4:
      return "host unreachable";
    case 5:
      return "connection refused";
    case 6:
      return "TTL expired";
    case 7:
      return "command not supported";
    case 8:
      return "address type not supported";
    default:
      return "unassigned reply " + std::to_string(code);
  }
}

void socks5Connect(Source& source, Sink& sink, const Proxy& proxy, const std::string& host,
                   int port) {
  const std::string context = where(proxy, host, port);

  // Greeting (§3): the methods we can do.
  if (proxy.hasCredentials()) {
    send(sink, {kVersion, 2, kNoAuthentication, kUsernamePassword});
  } else {
    send(sink, {kVersion, 1, kNoAuthentication});
  }
  std::vector<uint8_t> choice = receive(source, 2, context);
  if (choice[0] != kVersion) {
    throw ProtocolException("not a SOCKS5 proxy: version " + std::to_string(choice[0]) + context);
  }
  if (choice[1] == kUsernamePassword && proxy.hasCredentials()) {
    // RFC 1929 §2.
    std::vector<uint8_t> request{1};
    appendString(request, proxy.username(), "username");
    appendString(request, proxy.password(), "password");
    send(sink, request);
    std::vector<uint8_t> status = receive(source, 2, context);
    if (status[1] != 0) {
      throw ProxyException("SOCKS5 proxy refused the username and password" + context);
    }
  } else if (choice[1] == kNoAcceptableMethods) {
    throw ProxyException(std::string("SOCKS5 proxy accepts none of the offered authentication "
                                     "methods (") +
                         (proxy.hasCredentials() ? "none, username/password" : "none") + ")" +
                         context);
  } else if (choice[1] != kNoAuthentication) {
    throw ProtocolException(
        "SOCKS5 proxy chose a method not offered: " + std::to_string(choice[1]) + context);
  }

  // CONNECT (§4): an IP address, or the name for the proxy to resolve.
  std::vector<uint8_t> request{kVersion, kConnect, 0};
  if (std::optional<InetAddress> ip = InetAddress::parse(host)) {
    request.push_back(ip->isIpv6() ? kIpv6 : kIpv4);
    auto bytes = ip->address();
    request.insert(request.end(), bytes.begin(), bytes.end());
  } else {
    request.push_back(kDomainName);
    appendString(request, host, "host name");
  }
  request.push_back(static_cast<uint8_t>(port >> 8));
  request.push_back(static_cast<uint8_t>(port & 0xff));
  send(sink, request);

  // Reply (§6): VER REP RSV ATYP BND.ADDR BND.PORT.
  std::vector<uint8_t> reply = receive(source, 4, context);
  if (reply[0] != kVersion) {
    throw ProtocolException("not a SOCKS5 reply: version " + std::to_string(reply[0]) + context);
  }
  if (reply[1] != 0) {
    throw ProxyException("SOCKS5 proxy could not connect: " + socks5ReplyText(reply[1]) + " (" +
                         std::to_string(reply[1]) + ")" + context);
  }
  size_t addressLength;
  switch (reply[3]) {
    case kIpv4:
      addressLength = 4;
      break;
    case kIpv6:
      addressLength = 16;
      break;
    case kDomainName:
      addressLength = receive(source, 1, context)[0];
      break;
    default:
      throw ProtocolException("SOCKS5 reply with unknown address type " + std::to_string(reply[3]) +
                              context);
  }
  receive(source, addressLength + 2, context);  // The bound address and port: unused.
}

}  // namespace tern::internal
