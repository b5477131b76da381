// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
// tern: a curl-like command-line client on the tern library (OkHttp's okcurl). Options and exit
// codes follow curl's so that scripts written for curl keep working.
#include <idn2.h>
#include <libpsl.h>
#include <openssl/crypto.h>
#include <zlib.h>

#include <CLI/CLI.hpp>
#include <iostream>
#include <string>
#include <vector>

#include "tern/tern.h"

namespace {

// curl's exit codes, for the cases this tool reports so far.
constexpr int kExitUnsupported = 2;  // CURLE_FAILED_INIT: the feature is not built.

void printVersion() {
  std::cout << "tern " << tern::version() << " " << OpenSSL_version(OPENSSL_VERSION) << " zlib/"
            << zlibVersion() << " libidn2/" << idn2_check_version(nullptr) << " libpsl/"
            << psl_get_version() << "\n"
            << "Protocols: http https\n";
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"tern: transfer a URL with the tern HTTP client", "tern"};
  bool showVersion = false;
  std::vector<std::string> urls;
  app.add_flag("-V,--version", showVersion, "Show version number and quit");
  app.add_option("urls", urls, "URLs to fetch");
  CLI11_PARSE(app, argc, argv);

  if (showVersion) {
    printVersion();
    return 0;
  }
  if (urls.empty()) {
    std::cerr << "tern: no URL specified\n"
              << "tern: try 'tern --help' for more information\n";
    return kExitUnsupported;
  }
  std::cerr << "tern: fetching is not built yet: the call engine lands with the next milestone\n";
  return kExitUnsupported;
}
