// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstdint>
#include <cstdio>
#include <memory>
#include <ostream>
#include <string>
#include <string_view>

#include "options.h"
#include "url_glob.h"

namespace tern::tool {

// The name -O gives a URL's body: the last path segment of `url` as given (before any query or
// fragment), as curl does. Throws ToolException (exit 23, "Remote file name has no length!") if
// that is empty.
std::string remoteFileName(std::string_view url);

// The file one expansion of a URL writes its body to: the -o name with its "#N" references
// replaced, the remote name for -O, or "" for stdout (also for "-o -").
std::string outputFileName(const OutputSpec& spec, const GlobExpansion& expansion);

// Where one transfer writes what it outputs (the -i headers, then the body): stdout, or a file,
// created (or truncated) when the output is constructed. Counts the bytes written. Not
// thread-safe; one per transfer.
class Output {
 public:
  // Writes to `stream` (stdout in the tool), which must outlive this.
  explicit Output(std::ostream& stream);
  // Creates the file `fileName`. Throws ToolException (exit 23) naming it and the system's
  // reason if it cannot be created.
  explicit Output(const std::string& fileName);
  Output(const Output&) = delete;
  Output& operator=(const Output&) = delete;
  ~Output();

  // Throws ToolException (exit 23) if the bytes cannot be written.
  void write(std::string_view bytes);
  // Flushes (and for a file, closes) the output. Throws ToolException (exit 23) on failure.
  void finish();

 private:
  std::ostream* stream_ = nullptr;  // Stdout, or null for a file.
  std::FILE* file_ = nullptr;       // The file, until finish() closes it.
  std::string fileName_;            // For messages; empty for stdout.
};

}  // namespace tern::tool
