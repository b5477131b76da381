// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#include "output.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <filesystem>
#include <stdexcept>
#include <string>
#include <system_error>
#include <tuple>
#include <utility>

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

std::string outputFileName(const OutputSpec& spec, const GlobExpansion& expansion,
                           const std::optional<std::string>& outputDir) {
  std::string name;
  switch (spec.kind) {
    case OutputSpec::Kind::kStdout:
      return "";
    case OutputSpec::Kind::kRemoteName:
      name = remoteFileName(expansion.url);
      break;
    case OutputSpec::Kind::kFile:
      if (spec.fileName == "-") return "";
      name = substituteGlobValues(spec.fileName, expansion.values);
      break;
  }
  if (outputDir && !outputDir->empty()) {
    name = *outputDir + (outputDir->ends_with('/') ? "" : "/") + name;
  }
  return name;
}

void createDirectories(const std::string& fileName) {
  std::filesystem::path parent = std::filesystem::path(fileName).parent_path();
  if (parent.empty()) return;
  std::error_code error;
  std::filesystem::create_directories(parent, error);
  if (error) {
    throw ToolException(kExitWriteError,
                        "Failed to create the file " + fileName + ": " + error.message());
  }
}

OutputFiles::~OutputFiles() {
  for (const auto& [name, fd] : devices_) {
    ::close(fd);  // Nothing is buffered: every write went out with write(2).
  }
}

std::pair<int, bool> OutputFiles::open(const std::string& fileName, bool append) {
  std::lock_guard lock(mutex_);
  if (auto kept = devices_.find(fileName); kept != devices_.end()) return {kept->second, false};
  int fd = ::open(fileName.c_str(), O_WRONLY | O_CREAT | (append ? O_APPEND : O_TRUNC) | O_CLOEXEC,
                  0666);
  if (fd < 0) failToWrite(fileName, errno);
  struct stat status {};
  if (::fstat(fd, &status) == 0 && S_ISCHR(status.st_mode)) {
    devices_.emplace(fileName, fd);
    return {fd, false};
  }
  return {fd, true};
}

Output::Output(std::ostream& stream) : stream_(&stream) {}

Output::Output(const std::string& fileName, OutputFiles* files, bool append) : fileName_(fileName) {
  if (files != nullptr) {
    std::tie(fd_, closeFd_) = files->open(fileName, append);
    return;
  }
  fd_ = ::open(fileName.c_str(), O_WRONLY | O_CREAT | (append ? O_APPEND : O_TRUNC) | O_CLOEXEC,
               0666);
  if (fd_ < 0) failToWrite(fileName_, errno);
  closeFd_ = true;
}

Output::~Output() {
  if (fd_ >= 0 && closeFd_) {
    ::close(fd_);  // A failure here was reported by finish(), or the transfer failed.
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
  if (fd_ < 0) {
    throw std::logic_error("Output::write after finish()");
  }
  // Unbuffered: the caller writes a body in chunks of up to 64 KiB, as they arrive.
  while (!bytes.empty()) {
    ssize_t n = ::write(fd_, bytes.data(), bytes.size());
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) failToWrite(fileName_, n < 0 ? errno : 0);
    bytes.remove_prefix(static_cast<size_t>(n));
  }
}

void Output::finish() {
  if (stream_ != nullptr) {
    if (!stream_->flush()) {
      failToWrite(fileName_, 0);
    }
    return;
  }
  if (fd_ < 0) {
    return;
  }
  int fd = std::exchange(fd_, -1);
  if (closeFd_ && ::close(fd) != 0) {
    failToWrite(fileName_, errno);
  }
}

}  // namespace tern::tool
