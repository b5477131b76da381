// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
// The fixture the https call tests share: a MockWebServer over TLS with certificates made in code,
// and a client that trusts their root.
#pragma once

#include <gtest/gtest.h>

#include <exception>
#include <functional>
#include <string>
#include <typeinfo>

#include "call/call_fixture.h"
#include "support/tls_certificates.h"
#include "tern/exceptions.h"

namespace tern::testing {

class HttpsFixture : public CallFixture {
 protected:
  HttpsFixture() {
    server.useHttps(certificates.server());
    client = clientBuilder().build();
  }

  // The fixture's client settings: short timeouts, trusting the test root.
  Client::Builder clientBuilder() {
    return client.newBuilder().handshakeCertificates(certificates.clientTrust());
  }

  // What `f` threw, as "Type: message" for the TLS exception types, to assert on both at once.
  static std::string failureOf(const std::function<void()>& f) {
    try {
      f();
    } catch (const SSLHandshakeException& e) {
      return std::string("SSLHandshakeException: ") + e.what();
    } catch (const SSLPeerUnverifiedException& e) {
      return std::string("SSLPeerUnverifiedException: ") + e.what();
    } catch (const UnknownServiceException& e) {
      return std::string("UnknownServiceException: ") + e.what();
    } catch (const SocketTimeoutException& e) {
      return std::string("SocketTimeoutException: ") + e.what();
    } catch (const InterruptedIOException& e) {
      return std::string("InterruptedIOException: ") + e.what();
    } catch (const IOException& e) {
      return std::string("IOException: ") + e.what();
    }
    return "nothing thrown";
  }

  std::string failureOf(const Client& c, const Request& request) {
    return failureOf([&] { c.newCall(request)->execute(); });
  }

  TestCertificates certificates;
};

}  // namespace tern::testing
