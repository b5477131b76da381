// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#include "write_out.h"

#include <algorithm>
#include <cstdio>
#include <optional>
#include <string>
#include <utility>
#include <vector>

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
    case Protocol::HTTP_3:
      return "3";
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

// Whole bytes per second, as curl prints its speeds.
std::string bytesPerSecond(int64_t bytes, std::chrono::nanoseconds duration) {
  double seconds = std::chrono::duration<double>(duration).count();
  return std::to_string(seconds > 0 ? static_cast<int64_t>(static_cast<double>(bytes) / seconds)
                                    : int64_t{0});
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
    {"local_ip", [](const TransferInfo& info) { return info.localIp; }},
    {"local_port", [](const TransferInfo& info) { return std::to_string(info.localPort); }},
    {"num_headers",
     [](const TransferInfo& info) {
       return std::to_string(info.responseHeaders ? info.responseHeaders->size() : 0);
     }},
    {"redirect_url", [](const TransferInfo& info) { return info.redirectUrl; }},
    {"remote_ip", [](const TransferInfo& info) { return info.remoteIp; }},
    {"remote_port", [](const TransferInfo& info) { return std::to_string(info.remotePort); }},
    {"response_code", [](const TransferInfo& info) { return statusCode(info.httpCode); }},
    {"scheme",
     [](const TransferInfo& info) {
       return info.protocol ? scheme(info.urlEffective) : std::string();
     }},
    {"size_download", [](const TransferInfo& info) { return std::to_string(info.sizeDownload); }},
    {"size_header", [](const TransferInfo& info) { return std::to_string(info.sizeHeader); }},
    {"size_request", [](const TransferInfo& info) { return std::to_string(info.sizeRequest); }},
    {"size_upload", [](const TransferInfo& info) { return std::to_string(info.sizeUpload); }},
    {"speed_download",
     [](const TransferInfo& info) { return bytesPerSecond(info.sizeDownload, info.timeTotal); }},
    {"speed_upload",
     [](const TransferInfo& info) { return bytesPerSecond(info.sizeUpload, info.timeTotal); }},
    // tern fails a transfer whose certificate it does not trust, so a result is always X509's
    // X509_V_OK, as curl's for plain HTTP too.
    {"ssl_verify_result", [](const TransferInfo&) { return std::string("0"); }},
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

std::string jsonString(std::string_view text) {
  std::string result = "\"";
  for (char c : text) {
    switch (c) {
      case '"':
        result += "\\\"";
        break;
      case '\\':
        result += "\\\\";
        break;
      case '\n':
        result += "\\n";
        break;
      case '\r':
        result += "\\r";
        break;
      case '\t':
        result += "\\t";
        break;
      default:
        if (static_cast<unsigned char>(c) < 0x20) {
          char escaped[8];
          std::snprintf(escaped, sizeof(escaped), "\\u%04x", c);
          result += escaped;
        } else {
          result += c;
        }
    }
  }
  return result + "\"";
}

// Variables %{json} writes as numbers, and those it writes as null when empty.
bool isNumeric(std::string_view name) {
  return name.starts_with("time_") || name.starts_with("size_") || name.starts_with("speed_") ||
         name.starts_with("num_") || name == "exitcode" || name == "http_code" ||
         name == "response_code" || name == "local_port" || name == "remote_port" ||
         name == "urlnum" || name == "ssl_verify_result";
}
bool isNullable(std::string_view name) {
  return name == "content_type" || name == "errormsg" || name == "redirect_url";
}

// %{json}: every variable, as curl writes it ({"content_type":null,"exitcode":0,...}).
std::string jsonOf(const TransferInfo& info) {
  std::vector<const Variable*> sorted;
  for (const Variable& variable : kVariables) sorted.push_back(&variable);
  std::sort(sorted.begin(), sorted.end(),
            [](const Variable* a, const Variable* b) { return a->name < b->name; });
  std::string result = "{";
  for (const Variable* entry : sorted) {
    const Variable& variable = *entry;
    std::string value = variable.value(info);
    if (variable.name == "http_code" || variable.name == "response_code") {
      value = std::to_string(info.httpCode);  // A number here, not "000".
    }
    if (result.size() > 1) result += ",";
    result += jsonString(variable.name) + ":";
    if (isNumeric(variable.name)) {
      result += value;
    } else if (value.empty() && isNullable(variable.name)) {
      result += "null";
    } else {
      result += jsonString(value);
    }
  }
  return result + "}";
}

// %{header_json}: the last response's headers by lower-case name, each with its values in
// order, one name a line, as curl writes it.
std::string headerJsonOf(const TransferInfo& info) {
  std::vector<std::pair<std::string, std::vector<std::string>>> fields;
  if (info.responseHeaders) {
    for (const auto& [name, value] : *info.responseHeaders) {
      std::string lower = lowerCase(name);
      auto it = std::find_if(fields.begin(), fields.end(),
                             [&](const auto& field) { return field.first == lower; });
      if (it == fields.end()) {
        fields.push_back({lower, {value}});
      } else {
        it->second.push_back(value);
      }
    }
  }
  std::string result = "{";
  for (size_t i = 0; i < fields.size(); ++i) {
    result += (i == 0 ? "" : ",\n") + jsonString(fields[i].first) + ":[";
    for (size_t j = 0; j < fields[i].second.size(); ++j) {
      result += (j == 0 ? "" : ",") + jsonString(fields[i].second[j]);
    }
    result += "]";
  }
  return result + "\n}";
}

}  // namespace

std::optional<std::string> writeOutVariable(std::string_view name, const TransferInfo& info) {
  for (const Variable& variable : kVariables) {
    if (variable.name == name) {
      return variable.value(info);
    }
  }
  if (name == "json") return jsonOf(info);
  if (name == "header_json") return headerJsonOf(info);
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
