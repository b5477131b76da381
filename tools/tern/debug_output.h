// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#pragma once

#include <memory>
#include <mutex>
#include <ostream>
#include <string>
#include <string_view>

#include "options.h"

namespace tern::tool {

// What -v, --trace and --trace-ascii write, as curl 7.88's debug callback (its
// src/tool_cb_dbg.c) writes them for the same pieces of a transfer:
//  - -v: "* " before each informational line, "> " before each request header line, "< "
//    before each response header line, and "} [N bytes data]" / "{ [N bytes data]" once for a
//    run of sent or received body pieces (none when the body goes to a terminal);
//  - --trace-ascii FILE: "== Info: " lines, then for each piece "=> Send header, N bytes (0xN)"
//    (and "=> Send data", "<= Recv header", "<= Recv data") and curl's dump of it: lines of
//    "%04x: " and up to 64 characters, a CR LF ending a line, other bytes outside 0x20..0x7f
//    as '.';
//  - --trace FILE: the same with 16 bytes a line, in hex and then as characters.
// --trace-time puts "HH:MM:SS.uuuuuu " (local time) before each line or piece.
//
// Thread-safe: with -Z, calls on the dispatcher's threads write at once; each piece is written
// whole. The stream must outlive the object.
class DebugOutput {
 public:
  enum class Style { kVerbose, kTraceAscii, kTrace };

  // `dataLines`: whether -v writes its "[N bytes data]" lines (curl: not when the body goes to
  // the terminal).
  DebugOutput(std::ostream& out, Style style, bool traceTime, bool dataLines);

  // The debug output `options` ask for (written to `err`, or a --trace file), or null for none.
  // `stdoutBodyOnTerminal`: some body goes to stdout and it is a terminal. A trace file that
  // cannot be opened is a warning on `err`, as curl's, and no trace.
  static std::shared_ptr<DebugOutput> forOptions(const Options& options, std::ostream& out,
                                                 std::ostream& err, bool stdoutBodyOnTerminal);

  // One or more informational lines, each ending in '\n', without curl's "* ".
  void info(std::string_view text);
  // The request's head as sent, "\r\n" after each line and the last.
  void headerOut(std::string_view head);
  // A piece of the request body as sent.
  void dataOut(std::string_view bytes);
  // One line of the response's head as received (its "\r\n" included).
  void headerIn(std::string_view line);
  // A piece of the response body as read.
  void dataIn(std::string_view bytes);

 private:
  enum class Kind { kText, kHeaderOut, kDataOut, kHeaderIn, kDataIn };
  void write(Kind kind, std::string_view bytes);
  void dump(std::string_view timestamp, std::string_view text, std::string_view bytes);

  std::unique_ptr<std::ostream> file_;  // A --trace file of our own, if not stdout or stderr.
  std::ostream& out_;
  const Style style_;
  const bool traceTime_;
  const bool dataLines_;
  std::mutex mutex_;         // Guards the stream and the state below.
  bool midLine_ = false;     // -v: the last piece did not end its line (curl's `newl`).
  bool tracedData_ = false;  // -v: a "[N bytes data]" line stands for the current run of data.
};

}  // namespace tern::tool
