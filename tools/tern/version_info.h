// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#pragma once

#include <ostream>

namespace tern::tool {

// --version, in curl's form, for scripts that read curl's:
//   tern 0.1.0 (x86_64-pc-linux-gnu) libtern/0.1.0 OpenSSL/3.0.19 zlib/1.2.13 libidn2/2.3.3
//     libpsl/0.21.2 nghttp2/1.52.0
//   Release-Date: [unreleased]
//   Protocols: http https
//   Features: HTTP2 IDN IPv6 Largefile libz PSL SSL threadsafe
// The libraries are the versions linked at run time; the features are curl's names for what
// tern does (sorted as curl sorts them, ignoring case).
void printVersion(std::ostream& out);

}  // namespace tern::tool
