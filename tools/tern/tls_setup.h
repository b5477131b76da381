// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#pragma once

#include <memory>
#include <ostream>
#include <string>
#include <vector>

#include "options.h"
#include "tern/client.h"
#include "tern/exceptions.h"
#include "tern/interceptor.h"

namespace tern::tool {

// The server's public key is not among --pinnedpubkey's (curl's exit code 90).
class PinnedKeyMismatchException : public SSLPeerUnverifiedException {
 public:
  using SSLPeerUnverifiedException::SSLPeerUnverifiedException;
};

// Applies curl's TLS options to `builder`:
// - --cacert FILE: trust the PEM certificates in FILE instead of the system's roots;
// - --cert FILE [--key FILE]: present the PEM certificate (followed by its intermediates) in FILE
//   with the PEM private key in --key's file (or FILE itself), for mutual TLS;
// - -k/--insecure: accept any certificate for any host, after a warning on `err` ("tern:
//   warning: --insecure: the server's certificate is not verified");
// - --tlsv1.2 / --tlsv1.3: the oldest TLS version to offer;
// - --pinnedpubkey: adds an interceptor that fails a transfer whose server key is not pinned.
// Throws ToolException (exit 58, curl's "problem with the local client certificate", or 77,
// "problem reading the CA cert") naming a file that cannot be read or parsed.
void configureTls(const Options& options, Client::Builder& builder, std::ostream& err);

// A network interceptor that checks the server's leaf certificate against curl's pinned public
// keys ("sha256/BASE64" each), for https exchanges, and throws PinnedKeyMismatchException
// otherwise. (curl pins the leaf's key only; the library's CertificatePinner accepts any key in
// the chain, per host.)
class PinnedPublicKeyCheck final : public Interceptor {
 public:
  explicit PinnedPublicKeyCheck(std::vector<std::string> pins) : pins_(std::move(pins)) {}
  Response intercept(Chain& chain) override;

 private:
  std::vector<std::string> pins_;
};

}  // namespace tern::tool
