// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#include "output.h"

#include <cerrno>
#include <stdexcept>
#include <string>
#include <system_error>

#include "exit_code.h"

namespace tern::tool {
namespace {

[[noreturn]] void failToWrite(const std::string& fileName, int error) {
  std::string message = "Failure writing output to destination";
  if (!fileName.empty()) {
    message += ", " + fileName;
  }
  if (error != 0) {
    message += ": " + std::error_code(error, std::generic_category()).message();
  }
  throw ToolException(kExitWriteError, message);
}

}  // namespace

std::string remoteFileName(std::string_view url) {
  size_t end = url.find_first_of("?#");
  std::string_view withoutQuery = url.substr(0, end);
  size_t scheme = withoutQuery.find("://");
  std::string_view afterScheme =
      scheme == std::string_view::npos ? withoutQuery : withoutQuery.substr(scheme + 3);
  size_t slash = afterScheme.rfind('/');
  std::string_view name =
      slash == std::string_view::npos ? std::string_view() : afterScheme.substr(slash + 1);
  if (name.empty()) {
    throw ToolException(kExitWriteError, "Remote file name has no length!");
  }
  return std::string(name);
}

std::string outputFileName(const OutputSpec& spec, const GlobExpansion& expansion) {
  switch (spec.kind) {
    case OutputSpec::Kind::kStdout:
      return "";
    case OutputSpec::Kind::kRemoteName:
      return remoteFileName(expansion.url);
    case OutputSpec::Kind::kFile:
      return spec.fileName == "-" ? "" : substituteGlobValues(spec.fileName, expansion.values);
  }
  return "";
}

Output::Output(std::ostream& stream) : stream_(&stream) {}

Output::Output(const std::string& fileName)
    : file_(std::fopen(fileName.c_str(), "wb")), fileName_(fileName) {
  if (file_ == nullptr) {
    failToWrite(fileName_, errno);
  }
}

Output::~Output() {
  if (file_ != nullptr) {
    std::fclose(file_);  // A failure here was reported by finish(), or the transfer failed.
  }
}

void Output::write(std::string_view bytes) {
  if (bytes.empty()) {
    return;
  }
  if (stream_ != nullptr) {
    if (!stream_->write(bytes.data(), static_cast<std::streamsize>(bytes.size()))) {
      failToWrite(fileName_, 0);
    }
    return;
  }
  if (file_ == nullptr) {
    throw std::logic_error("Output::write after finish()");
  }
  if (std::fwrite(bytes.data(), 1, bytes.size(), file_) != bytes.size()) {
    failToWrite(fileName_, errno);
  }
}

void Output::finish() {
  if (stream_ != nullptr) {
    if (!stream_->flush()) {
      failToWrite(fileName_, 0);
    }
    return;
  }
  if (file_ == nullptr) {
    return;
  }
  int result = std::fclose(file_);
  file_ = nullptr;
  if (result != 0) {
    failToWrite(fileName_, errno);
  }
}

}  // namespace tern::tool
