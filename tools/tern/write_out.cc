// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#include "write_out.h"

#include <cstdio>
#include <optional>
#include <string>

namespace tern::tool {
namespace {

char toLower(char c) { return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c; }

std::string lowerCase(std::string_view text) {
  std::string result(text);
  for (char& c : result) {
    c = toLower(c);
  }
  return result;
}

// Seconds with six decimals, as curl prints its times.
std::string seconds(std::chrono::nanoseconds duration) {
  auto micros = std::chrono::duration_cast<std::chrono::microseconds>(duration).count();
  char text[48];
  std::snprintf(text, sizeof(text), "%lld.%06lld", static_cast<long long>(micros / 1000000),
                static_cast<long long>(micros % 1000000));
  return text;
}

std::string httpVersion(const std::optional<Protocol>& protocol) {
  if (!protocol) {
    return "0";
  }
  switch (*protocol) {
    case Protocol::HTTP_1_0:
      return "1";
    case Protocol::HTTP_1_1:
      return "1.1";
    case Protocol::HTTP_2:
    case Protocol::H2_PRIOR_KNOWLEDGE:
      return "2";
  }
  return "0";
}

std::string scheme(const std::string& url) {
  size_t colon = url.find(':');
  if (colon == std::string::npos || url.compare(colon, 3, "://") != 0) {
    return "";
  }
  std::string result = url.substr(0, colon);
  for (char& c : result) {
    c = c >= 'a' && c <= 'z' ? static_cast<char>(c - 'a' + 'A') : c;
  }
  return result;
}

// Three digits, "000" when there was no response, as curl prints status codes.
std::string statusCode(int code) {
  char text[16];
  std::snprintf(text, sizeof(text), "%03d", code);
  return text;
}

// The variables tern knows, by lower-case name.
struct Variable {
  std::string_view name;
  std::string (*value)(const TransferInfo& info);
};

constexpr Variable kVariables[] = {
    {"content_type",
     [](const TransferInfo& info) {
       return info.responseHeaders ? info.responseHeaders->get("Content-Type").value_or("")
                                   : std::string();
     }},
    {"errormsg", [](const TransferInfo& info) { return info.errorMessage; }},
    {"exitcode", [](const TransferInfo& info) { return std::to_string(info.exitCode); }},
    {"filename_effective", [](const TransferInfo& info) { return info.filenameEffective; }},
    {"http_code", [](const TransferInfo& info) { return statusCode(info.httpCode); }},
    {"http_version", [](const TransferInfo& info) { return httpVersion(info.protocol); }},
    {"method", [](const TransferInfo& info) { return info.method; }},
    {"num_connects", [](const TransferInfo& info) { return std::to_string(info.numConnects); }},
    {"num_redirects", [](const TransferInfo& info) { return std::to_string(info.numRedirects); }},
    {"remote_ip", [](const TransferInfo& info) { return info.remoteIp; }},
    {"remote_port", [](const TransferInfo& info) { return std::to_string(info.remotePort); }},
    {"response_code", [](const TransferInfo& info) { return statusCode(info.httpCode); }},
    {"scheme",
     [](const TransferInfo& info) {
       return info.protocol ? scheme(info.urlEffective) : std::string();
     }},
    {"size_download", [](const TransferInfo& info) { return std::to_string(info.sizeDownload); }},
    {"size_header", [](const TransferInfo& info) { return std::to_string(info.sizeHeader); }},
    {"size_upload", [](const TransferInfo& info) { return std::to_string(info.sizeUpload); }},
    {"time_appconnect", [](const TransferInfo& info) { return seconds(info.timeAppconnect); }},
    {"time_connect", [](const TransferInfo& info) { return seconds(info.timeConnect); }},
    {"time_namelookup", [](const TransferInfo& info) { return seconds(info.timeNamelookup); }},
    {"time_pretransfer", [](const TransferInfo& info) { return seconds(info.timePretransfer); }},
    {"time_starttransfer",
     [](const TransferInfo& info) { return seconds(info.timeStartTransfer); }},
    {"time_total", [](const TransferInfo& info) { return seconds(info.timeTotal); }},
    {"url", [](const TransferInfo& info) { return info.url; }},
    {"url_effective", [](const TransferInfo& info) { return info.urlEffective; }},
    {"urlnum", [](const TransferInfo& info) { return std::to_string(info.urlNumber); }},
};

}  // namespace

std::optional<std::string> writeOutVariable(std::string_view name, const TransferInfo& info) {
  for (const Variable& variable : kVariables) {
    if (variable.name == name) {
      return variable.value(info);
    }
  }
  return std::nullopt;
}

void writeOut(std::string_view format, const TransferInfo& info, std::ostream& out,
              std::ostream& err) {
  std::ostream* stream = &out;
  size_t i = 0;
  while (i < format.size()) {
    char c = format[i];
    bool hasNext = i + 1 < format.size();
    if (c == '%' && hasNext) {
      char next = format[i + 1];
      if (next == '%') {
        *stream << '%';
        i += 2;
      } else if (next == '{') {
        size_t end = format.find('}', i + 2);
        if (end == std::string_view::npos) {
          *stream << "%{";
          i += 2;
          continue;
        }
        std::string_view name = format.substr(i + 2, end - i - 2);
        std::string variable = lowerCase(name);
        i = end + 1;
        if (variable == "onerror") {
          if (info.exitCode == 0) {
            return;
          }
        } else if (variable == "stdout") {
          stream = &out;
        } else if (variable == "stderr") {
          stream = &err;
        } else if (std::optional<std::string> value = writeOutVariable(variable, info)) {
          *stream << *value;
        } else {
          err << "tern: unknown --write-out variable: '" << name << "'\n";
        }
      } else if (format.substr(i + 1, 7) == "header{") {
        size_t end = format.find('}', i + 8);
        if (end == std::string_view::npos) {
          *stream << "%header{";
          i += 8;
          continue;
        }
        std::string_view name = format.substr(i + 8, end - i - 8);
        if (info.responseHeaders) {
          std::vector<std::string> values = info.responseHeaders->values(name);
          if (!values.empty()) {
            *stream << values.front();
          }
        }
        i = end + 1;
      } else {
        *stream << c << next;  // Not a sequence curl knows: written as it is.
        i += 2;
      }
    } else if (c == '\\' && hasNext) {
      char next = format[i + 1];
      if (next == 'n') {
        *stream << '\n';
      } else if (next == 'r') {
        *stream << '\r';
      } else if (next == 't') {
        *stream << '\t';
      } else {
        *stream << c << next;
      }
      i += 2;
    } else {
      *stream << c;
      ++i;
    }
  }
}

}  // namespace tern::tool
