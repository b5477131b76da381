// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#include "terminal.h"

#include <sys/ioctl.h>
#include <unistd.h>

#include <charconv>
#include <cstdlib>
#include <string_view>

namespace tern::tool {

Terminal Terminal::detect() {
  Terminal terminal;
  terminal.stdoutIsTerminal = ::isatty(STDOUT_FILENO) == 1;
  terminal.stderrIsTerminal = ::isatty(STDERR_FILENO) == 1;
  winsize size{};
  if (terminal.stderrIsTerminal && ::ioctl(STDERR_FILENO, TIOCGWINSZ, &size) == 0 &&
      size.ws_col > 0) {
    terminal.columns = size.ws_col;
  } else if (const char* columns = std::getenv("COLUMNS"); columns != nullptr) {
    std::string_view text(columns);
    int value = 0;
    auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (error == std::errc() && end == text.data() + text.size() && value > 20 && value < 10000) {
      terminal.columns = value;
    }
  }
  return terminal;
}

namespace {

// The rules the serial and the parallel meter share.
bool meterAllowed(const Options& options, bool bodyToStdout, const Terminal& terminal) {
  if (options.silent || options.noProgressMeter) return false;
  if (bodyToStdout && terminal.stdoutIsTerminal) return false;
  if (options.verbose > 0 || options.traceEvents) return false;
  // A trace on stdout or stderr would mix with the meter.
  return !options.traceFile || (*options.traceFile != "-" && *options.traceFile != "%");
}

}  // namespace

std::optional<ProgressMeter::Style> progressMeterStyle(const Options& options, bool bodyToStdout,
                                                       const Terminal& terminal) {
  if (!terminal.stderrIsTerminal || options.parallel ||
      !meterAllowed(options, bodyToStdout, terminal)) {
    return std::nullopt;
  }
  return options.progressBar ? ProgressMeter::Style::kBar : ProgressMeter::Style::kMeter;
}

bool parallelMeterShown(const Options& options, bool anyBodyToStdout, const Terminal& terminal) {
  return options.parallel && meterAllowed(options, anyBodyToStdout, terminal);
}

}  // namespace tern::tool
