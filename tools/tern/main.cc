// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
// tern: a curl-like command-line client on the tern library (OkHttp's okcurl). Options and exit
// codes follow curl's so that scripts written for curl keep working. The logic lives in
// tern_tool_lib (options.h, transfer.h, ...); this file only wires it to the process.
#include <unistd.h>

#include <csignal>
#include <exception>
#include <iostream>
#include <string>
#include <vector>

#include "demo.h"
#include "exit_code.h"
#include "options.h"
#include "sse_mode.h"
#include "tern/tern.h"
#include "transfer.h"
#include "version_info.h"
#include "ws_mode.h"

int main(int argc, char** argv) {
  // A closed stdout (tern URL | head) is a write error (exit 23), as in curl, not a signal.
  std::signal(SIGPIPE, SIG_IGN);

  std::vector<std::string> args(argv + 1, argv + argc);
  tern::tool::CommandLine commandLine =
      tern::tool::parseCommandLine(args, std::cin, std::cout, std::cerr);
  if (commandLine.exitCode) {
    return *commandLine.exitCode;
  }
  const tern::tool::Options& options = commandLine.options;
  if (options.showVersion) {
    tern::tool::printVersion(std::cout);
    return tern::tool::kExitOk;
  }
  try {
    if (options.ws) return tern::tool::runWebSocket(options, STDIN_FILENO, std::cout, std::cerr);
    if (options.demo) return tern::tool::runDemo(std::cout);
    if (options.sse) return tern::tool::runSse(options, std::cout, std::cerr);
    tern::tool::TransferRunner runner(options, std::cout, std::cerr,
                                      tern::tool::Terminal::detect());
    return runner.run();
  } catch (const tern::tool::ToolException& e) {
    // A client that could not be set up from the command line's files (--cacert, --cert).
    if (options.showErrors()) {
      std::cerr << "tern: (" << e.exitCode() << ") " << e.what() << "\n";
    }
    return e.exitCode();
  } catch (const std::exception& e) {
    // Transfers report their own failures; this is a client that could not be set up.
    std::cerr << "tern: (" << tern::tool::kExitFailedInit << ") " << e.what() << "\n";
    return tern::tool::kExitFailedInit;
  }
}
