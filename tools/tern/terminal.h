// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#pragma once

#include <optional>

#include "options.h"
#include "progress_meter.h"

namespace tern::tool {

// What the tool knows of where its output goes: whether stdout and stderr are terminals, and how
// many columns stderr's has. main() detects it (Terminal::detect()); tests make one up, so the
// progress meter can be tested without a terminal.
struct Terminal {
  bool stdoutIsTerminal = false;
  bool stderrIsTerminal = false;
  int columns = 80;

  // isatty() on file descriptors 1 and 2; the width from TIOCGWINSZ on stderr, else $COLUMNS,
  // else 80.
  static Terminal detect();
};

// The style of progress meter one transfer shows, or nullopt for none. curl's rules (its
// tool_operate.c) with the "only on a terminal":
// - only when stderr is a terminal (curl draws into a redirected stderr too; a log file full of
//   '\r'-joined meter lines helps nobody);
// - never with -s or --no-progress-meter;
// - never when the body goes to stdout and stdout is a terminal: the meter would mix with the
//   body (curl's rule, so `tern URL` on a terminal shows the body only);
// - never with -v or --trace-events: they write whole lines to the same stderr as the calls run,
//   and a meter redrawn with '\r' between them garbles both (curl still draws it with -v, and its
//   first meter line and "*   Trying ..." share a line; tern leaves the meter out instead);
// - never with -Z, which has its own (parallelMeterShown()).
// -#/--progress-bar selects the bar instead of the default meter.
std::optional<ProgressMeter::Style> progressMeterStyle(const Options& options, bool bodyToStdout,
                                                       const Terminal& terminal);

// Whether a -Z run shows curl's combined meter (ParallelMeter), by curl 7.88's rules: also when
// stderr is no terminal (curl's -Z meter goes into a pipe or a file; the tests compare it so),
// and with -# (curl -Z has no bar); not with --no-progress-meter, and not when some transfer's
// body goes to stdout and stdout is a terminal. Unlike curl 7.88, not with -s either (its manual
// promises no meter; curl 7.88 draws it anyway), and, as for the serial meter, not with -v,
// --trace-events or a trace on stdout or stderr.
bool parallelMeterShown(const Options& options, bool anyBodyToStdout, const Terminal& terminal);

}  // namespace tern::tool
