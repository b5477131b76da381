// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#include "debug_output.h"

#include <sys/time.h>

#include <cstdio>
#include <ctime>
#include <fstream>
#include <utility>

namespace tern::tool {
namespace {

// curl's --trace-time stamp: the local time of day to the microsecond, then a space.
std::string timestampNow() {
  timeval now{};
  ::gettimeofday(&now, nullptr);
  std::tm local{};
  localtime_r(&now.tv_sec, &local);
  char text[32];
  std::snprintf(text, sizeof(text), "%02d:%02d:%02d.%06ld ", local.tm_hour, local.tm_min,
                local.tm_sec, static_cast<long>(now.tv_usec));
  return text;
}

}  // namespace

DebugOutput::DebugOutput(std::ostream& out, Style style, bool traceTime, bool dataLines)
    : out_(out), style_(style), traceTime_(traceTime), dataLines_(dataLines) {}

std::shared_ptr<DebugOutput> DebugOutput::forOptions(const Options& options, std::ostream& out,
                                                     std::ostream& err, bool stdoutBodyOnTerminal) {
  if (!options.traceFile) {
    if (options.verbose == 0) return nullptr;
    return std::make_shared<DebugOutput>(err, Style::kVerbose, options.traceTime,
                                         !stdoutBodyOnTerminal);
  }
  Style style = options.traceAscii ? Style::kTraceAscii : Style::kTrace;
  // As curl: "-" is stdout and "%" stderr.
  if (*options.traceFile == "-") {
    return std::make_shared<DebugOutput>(out, style, options.traceTime, true);
  }
  if (*options.traceFile == "%") {
    return std::make_shared<DebugOutput>(err, style, options.traceTime, true);
  }
  auto file = std::make_unique<std::ofstream>(*options.traceFile, std::ios::binary);
  if (!*file) {
    if (!options.silent) err << "Warning: Failed to create/open output\n";
    return nullptr;
  }
  auto output = std::make_shared<DebugOutput>(*file, style, options.traceTime, true);
  output->file_ = std::move(file);
  return output;
}

void DebugOutput::info(std::string_view text) {
  while (!text.empty()) {
    size_t end = text.find('\n');
    end = end == std::string_view::npos ? text.size() : end + 1;
    write(Kind::kText, text.substr(0, end));
    text.remove_prefix(end);
  }
}

void DebugOutput::headerOut(std::string_view head) { write(Kind::kHeaderOut, head); }
void DebugOutput::dataOut(std::string_view bytes) { write(Kind::kDataOut, bytes); }
void DebugOutput::headerIn(std::string_view line) { write(Kind::kHeaderIn, line); }
void DebugOutput::dataIn(std::string_view bytes) { write(Kind::kDataIn, bytes); }

void DebugOutput::write(Kind kind, std::string_view bytes) {
  std::string timestamp = traceTime_ ? timestampNow() : std::string();
  std::lock_guard lock(mutex_);
  if (style_ == Style::kVerbose) {
    // curl's TRACE_PLAIN: a prefix at the start of each line, one data line per run of data.
    static constexpr const char* kPrefixes[] = {"* ", "> ", "} ", "< ", "{ "};
    auto lineStart = [&] { out_ << timestamp << kPrefixes[static_cast<int>(kind)]; };
    switch (kind) {
      case Kind::kHeaderOut:
        for (size_t start = 0; start < bytes.size();) {
          size_t end = bytes.find('\n', start);
          end = end == std::string_view::npos ? bytes.size() : end + 1;
          if (!midLine_) lineStart();
          out_ << bytes.substr(start, end - start);
          midLine_ = false;
          start = end;
        }
        midLine_ = !bytes.empty() && bytes.back() != '\n';
        tracedData_ = false;
        break;
      case Kind::kText:
      case Kind::kHeaderIn:
        if (!midLine_) lineStart();
        out_ << bytes;
        midLine_ = !bytes.empty() && bytes.back() != '\n';
        tracedData_ = false;
        break;
      case Kind::kDataOut:
      case Kind::kDataIn:
        if (!tracedData_ && dataLines_) {
          if (!midLine_) lineStart();
          out_ << '[' << bytes.size() << " bytes data]\n";
          midLine_ = false;
          tracedData_ = true;
        }
        break;
    }
    out_.flush();
    return;
  }
  switch (kind) {
    case Kind::kText:
      out_ << timestamp << "== Info: " << bytes;
      break;
    case Kind::kHeaderOut:
      dump(timestamp, "=> Send header", bytes);
      break;
    case Kind::kDataOut:
      dump(timestamp, "=> Send data", bytes);
      break;
    case Kind::kHeaderIn:
      dump(timestamp, "<= Recv header", bytes);
      break;
    case Kind::kDataIn:
      dump(timestamp, "<= Recv data", bytes);
      break;
  }
  out_.flush();
}

// curl's dump(): "%04zx: " and then 16 bytes in hex and as characters (--trace), or up to 64
// characters where CR LF ends the line early (--trace-ascii).
void DebugOutput::dump(std::string_view timestamp, std::string_view text, std::string_view bytes) {
  const bool ascii = style_ == Style::kTraceAscii;
  const size_t width = ascii ? 0x40 : 0x10;
  const size_t size = bytes.size();
  auto byte = [&](size_t i) { return static_cast<unsigned char>(bytes[i]); };
  char number[32];
  std::snprintf(number, sizeof(number), ", %zu bytes (0x%zx)\n", size, size);
  out_ << timestamp << text << number;
  // The index arithmetic is curl's own, so the lines break where curl's do: `i` may step back
  // by up to `width` before the loop adds it again.
  for (size_t i = 0; i < size; i += width) {
    std::snprintf(number, sizeof(number), "%04zx: ", i);
    out_ << number;
    if (!ascii) {
      for (size_t c = 0; c < width; ++c) {
        if (i + c < size) {
          std::snprintf(number, sizeof(number), "%02x ", byte(i + c));
          out_ << number;
        } else {
          out_ << "   ";
        }
      }
    }
    for (size_t c = 0; c < width && i + c < size; ++c) {
      if (ascii && i + c + 1 < size && byte(i + c) == 0x0D && byte(i + c + 1) == 0x0A) {
        i += c + 2 - width;
        break;
      }
      unsigned char b = byte(i + c);
      out_ << (b >= 0x20 && b < 0x80 ? static_cast<char>(b) : '.');
      if (ascii && i + c + 2 < size && byte(i + c + 1) == 0x0D && byte(i + c + 2) == 0x0A) {
        i += c + 3 - width;
        break;
      }
    }
    out_ << '\n';
  }
}

}  // namespace tern::tool
