// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#include "message_text.h"

#include <optional>
#include <string>
#include <string_view>

#include "http/request_line.h"
#include "io/ascii.h"

namespace tern::tool {
namespace {

using tern::internal::equalsIgnoreCase;

void appendHeaders(std::string& text, const Headers& headers) {
  for (const auto& [name, value] : headers) {
    text += name;
    text += ": ";
    text += value;
    text += "\r\n";
  }
  text += "\r\n";
}

}  // namespace

std::string_view httpVersionText(Protocol protocol) {
  switch (protocol) {
    case Protocol::HTTP_1_0:
      return "HTTP/1.0";
    case Protocol::HTTP_1_1:
      return "HTTP/1.1";
    case Protocol::HTTP_2:
    case Protocol::H2_PRIOR_KNOWLEDGE:
      return "HTTP/2";
    case Protocol::HTTP_3:
      return "HTTP/3";  // curl's status line: "HTTP/3 200".
  }
  return "HTTP/1.1";
}

std::string responseHead(Protocol protocol, int code, std::string_view message,
                         const Headers& headers) {
  std::string text(httpVersionText(protocol));
  text += ' ';
  text += std::to_string(code);
  if (!message.empty()) {
    text += ' ';
    text += message;
  }
  text += "\r\n";
  appendHeaders(text, headers);
  return text;
}

std::string requestHead(const Request& request, Protocol protocol, bool usesHttpProxy) {
  // HTTP/2 and HTTP/3 send fields, not a request line; curl shows one made of the pseudo-fields.
  const bool fields = protocol == Protocol::HTTP_2 || protocol == Protocol::H2_PRIOR_KNOWLEDGE ||
                      protocol == Protocol::HTTP_3;
  std::string text = fields ? request.method() + " " + internal::requestPath(request.url())
                            : internal::requestLine(request, usesHttpProxy);
  text += fields ? " " + std::string(httpVersionText(protocol)) + "\r\n" : "\r\n";
  if (!fields) {
    appendHeaders(text, request.headers());
    return text;
  }
  Headers::Builder sent;
  for (const auto& [name, value] : request.headers()) {
    static constexpr std::string_view kNotSent[] = {
        "Connection", "Keep-Alive", "Proxy-Connection", "TE", "Transfer-Encoding", "Upgrade"};
    bool skipped = false;
    for (std::string_view notSent : kNotSent) {
      skipped = skipped || equalsIgnoreCase(name, notSent);
    }
    if (!skipped) sent.addLenient(name, value);
  }
  appendHeaders(text, sent.build());
  return text;
}

}  // namespace tern::tool
