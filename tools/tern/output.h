// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <ostream>
#include <string>
#include <string_view>
#include <utility>

#include "options.h"
#include "url_glob.h"

namespace tern::tool {

// The name -O gives a URL's body: the last path segment of `url` as given (before any query or
// fragment), as curl does. Throws ToolException (exit 23, "Remote file name has no length!") if
// that is empty.
std::string remoteFileName(std::string_view url);

// The file one expansion of a URL writes its body to: the -o name with its "#N" references
// replaced, the remote name for -O, or "" for stdout (also for "-o -"); in `outputDir`
// (--output-dir) if given.
std::string outputFileName(const OutputSpec& spec, const GlobExpansion& expansion,
                           const std::optional<std::string>& outputDir = std::nullopt);

// --create-dirs: makes the directories `fileName` is in. Throws ToolException (exit 23) if it
// cannot.
void createDirectories(const std::string& fileName);

// The files a run's transfers write their bodies to. Each transfer's file is created (or
// truncated) for it, as curl does; but a character device (/dev/null, a terminal) is opened
// once and kept open for the rest of the run, since there is nothing to truncate: `tern -o
// /dev/null 'URL?[1-20000]'` then costs one write(2) per transfer instead of an open, a write and
// a close. Thread-safe (-Z transfers share one).
class OutputFiles {
 public:
  OutputFiles() = default;
  OutputFiles(const OutputFiles&) = delete;
  OutputFiles& operator=(const OutputFiles&) = delete;
  ~OutputFiles();

  // A descriptor open for writing `fileName`, and true if the caller must close it (false for a
  // kept device). Throws ToolException (exit 23) naming the file and the system's reason if it
  // cannot be opened.
  // With `append` (-C), the file is not truncated and writes go to its end.
  std::pair<int, bool> open(const std::string& fileName, bool append = false);

 private:
  std::mutex mutex_;
  std::map<std::string, int> devices_;  // Kept character devices by name.
};

// Where one transfer writes what it outputs (the -i headers, then the body): stdout, or a file,
// created (or truncated) when the output is constructed. Not thread-safe; one per transfer.
class Output {
 public:
  // Writes to `stream` (stdout in the tool), which must outlive this.
  explicit Output(std::ostream& stream);
  // Creates the file `fileName` (through `files`, which must outlive this, if given). Throws
  // ToolException (exit 23) naming it and the system's reason if it cannot be created.
  // With `append` (-C), an existing file is kept and written at its end.
  explicit Output(const std::string& fileName, OutputFiles* files = nullptr, bool append = false);
  Output(const Output&) = delete;
  Output& operator=(const Output&) = delete;
  ~Output();

  // Throws ToolException (exit 23) if the bytes cannot be written.
  void write(std::string_view bytes);
  // Flushes (and for a file, closes) the output. Throws ToolException (exit 23) on failure.
  void finish();

 private:
  std::ostream* stream_ = nullptr;  // Stdout, or null for a file.
  int fd_ = -1;                     // The file, until finish().
  bool closeFd_ = false;            // False for a device OutputFiles keeps open.
  std::string fileName_;            // For messages; empty for stdout.
};

}  // namespace tern::tool
