// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#include "version_info.h"

#include <idn2.h>
#include <libpsl.h>
#include <nghttp2/nghttp2.h>
#include <nghttp3/nghttp3.h>
#include <ngtcp2/ngtcp2.h>
#include <openssl/crypto.h>
#include <sys/utsname.h>
#include <zlib.h>

#include <string>

#include "tern/version.h"

namespace tern::tool {
namespace {

// curl's host triple, as its configure names it ("x86_64-pc-linux-gnu").
std::string platform() {
  utsname name{};
  if (::uname(&name) != 0) return "unknown";
  return std::string(name.machine) + "-pc-linux-gnu";
}

}  // namespace

void printVersion(std::ostream& out) {
  const std::string version(tern::version());
  out << "tern " << version << " (" << platform() << ") libtern/" << version << " OpenSSL/"
      << OpenSSL_version(OPENSSL_VERSION_STRING) << " zlib/" << zlibVersion() << " libidn2/"
      << idn2_check_version(nullptr) << " libpsl/" << psl_get_version() << " nghttp2/"
      << nghttp2_version(0)->version_str << " ngtcp2/" << ngtcp2_version(0)->version_str
      << " nghttp3/" << nghttp3_version(0)->version_str << "\n"
      << "Release-Date: [unreleased]\n"
      << "Protocols: http https\n"
      // curl's names, in its order (case-insensitive).
      << "Features: alt-svc HTTP2 HTTP3 IDN IPv6 Largefile libz PSL SSL threadsafe\n";
}

}  // namespace tern::tool
