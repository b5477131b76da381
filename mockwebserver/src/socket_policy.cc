// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#include "tern/mockwebserver/socket_policy.h"

#include <string>
#include <variant>

namespace tern::mockwebserver {
namespace {

struct PolicyName {
  std::string operator()(const SocketPolicy::KeepOpen&) const { return "KeepOpen"; }
  std::string operator()(const SocketPolicy::DisconnectAtStart&) const {
    return "DisconnectAtStart";
  }
  std::string operator()(const SocketPolicy::DisconnectAtEnd&) const { return "DisconnectAtEnd"; }
  std::string operator()(const SocketPolicy::DisconnectAfterRequest&) const {
    return "DisconnectAfterRequest";
  }
  std::string operator()(const SocketPolicy::HalfCloseAfterRequest&) const {
    return "HalfCloseAfterRequest";
  }
  std::string operator()(const SocketPolicy::DisconnectDuringRequestBody&) const {
    return "DisconnectDuringRequestBody";
  }
  std::string operator()(const SocketPolicy::DisconnectDuringResponseBody&) const {
    return "DisconnectDuringResponseBody";
  }
  std::string operator()(const SocketPolicy::DoNotReadRequestBody& policy) const {
    return "DoNotReadRequestBody(http2ErrorCode=" + std::to_string(policy.http2ErrorCode) + ")";
  }
  std::string operator()(const SocketPolicy::ShutdownInputAtEnd&) const {
    return "ShutdownInputAtEnd";
  }
  std::string operator()(const SocketPolicy::ShutdownOutputAtEnd&) const {
    return "ShutdownOutputAtEnd";
  }
  std::string operator()(const SocketPolicy::ShutdownServerAfterResponse&) const {
    return "ShutdownServerAfterResponse";
  }
  std::string operator()(const SocketPolicy::StallSocketAtStart&) const {
    return "StallSocketAtStart";
  }
  std::string operator()(const SocketPolicy::FailHandshake&) const { return "FailHandshake"; }
  std::string operator()(const SocketPolicy::NoResponse&) const { return "NoResponse"; }
  std::string operator()(const SocketPolicy::ResetStreamAtStart& policy) const {
    return "ResetStreamAtStart(http2ErrorCode=" + std::to_string(policy.http2ErrorCode) + ")";
  }
};

}  // namespace

std::string SocketPolicy::toString() const { return std::visit(PolicyName{}, value_); }

}  // namespace tern::mockwebserver
