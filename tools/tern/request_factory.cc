// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#include "request_factory.h"

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <optional>
#include <set>
#include <stdexcept>
#include <string>
#include <utility>

#include "exit_code.h"
#include "http/message_framing.h"
#include "tern/headers.h"
#include "tern/media_type.h"
#include "tern/multipart_body.h"
#include "tern/request_body.h"
#include "tern/version.h"

namespace tern::tool {
namespace {

constexpr std::string_view kFormUrlEncoded = "application/x-www-form-urlencoded";
// Methods whose requests must have a body (Request::Builder refuses them without one); curl sends
// them with an empty one when there is no data.
constexpr std::array<std::string_view, 5> kMethodsWithBody = {"POST", "PUT", "PATCH", "PROPPATCH",
                                                              "REPORT"};
// Headers that tern's client adds by itself, which -H "Name:" can still drop.
constexpr std::array<std::string_view, 4> kClientHeaders = {"Host", "Connection", "Accept-Encoding",
                                                            "User-Agent"};
// curl's content types for -F files, by extension; others are application/octet-stream.
constexpr std::pair<std::string_view, std::string_view> kFileTypes[] = {
    {".gif", "image/gif"},      {".jpg", "image/jpeg"},    {".jpeg", "image/jpeg"},
    {".png", "image/png"},      {".svg", "image/svg+xml"}, {".txt", "text/plain"},
    {".htm", "text/html"},      {".html", "text/html"},    {".pdf", "application/pdf"},
    {".xml", "application/xml"}};

char toLower(char c) { return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c; }

bool equalsIgnoreCase(std::string_view a, std::string_view b) {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
           return toLower(x) == toLower(y);
         });
}

bool isBlank(char c) { return c == ' ' || c == '\t'; }

std::string_view trimLeading(std::string_view text) {
  while (!text.empty() && isBlank(text.front())) {
    text.remove_prefix(1);
  }
  return text;
}

// A -H line as curl reads it: a header to send (value set, maybe empty) or to drop (nullopt).
struct CustomHeader {
  std::string name;
  std::optional<std::string> value;
};

std::optional<CustomHeader> parseHeaderLine(std::string_view line) {
  size_t colon = line.find(':');
  size_t semicolon = line.find(';');
  if (colon != std::string_view::npos &&
      (semicolon == std::string_view::npos || colon < semicolon)) {
    std::string_view value = trimLeading(line.substr(colon + 1));
    CustomHeader header{std::string(line.substr(0, colon)), std::nullopt};
    if (!value.empty()) {
      header.value = std::string(value);
    }
    return header;
  }
  if (semicolon != std::string_view::npos && trimLeading(line.substr(semicolon + 1)).empty()) {
    return CustomHeader{std::string(line.substr(0, semicolon)), std::string()};
  }
  return std::nullopt;  // curl ignores a line with neither "Name:" nor "Name;".
}

std::vector<CustomHeader> customHeaders(const Options& options) {
  std::vector<CustomHeader> result;

  for (const std::string& line : options.headers) {
    if (std::optional<CustomHeader> header = parseHeaderLine(line)) {
      result.push_back(std::move(*header));
    }
  }
  if (options.json) {
    // --json's headers follow the -H ones, as curl appends them, unless -H set them.
    // Not a structured binding: clang 14 cannot capture one in the lambda.
    for (const std::pair<const char*, const char*>& header :
         {std::pair{"Content-Type", "application/json"}, std::pair{"Accept", "application/json"}}) {
      const std::string_view name = header.first;
      if (std::none_of(result.begin(), result.end(),
                       [&](const CustomHeader& h) { return equalsIgnoreCase(h.name, name); })) {
        result.push_back({std::string(name), header.second});
      }
    }
  }
  return result;
}

std::vector<std::byte> toBytes(std::string_view text) {
  std::vector<std::byte> bytes(text.size());
  if (!text.empty()) std::memcpy(bytes.data(), text.data(), text.size());  // data() may be null.
  return bytes;
}

std::optional<std::string> readFile(const std::filesystem::path& path) {
  std::error_code error;
  if (std::filesystem::is_directory(path, error)) {
    return std::nullopt;
  }
  std::ifstream file(path, std::ios::binary);
  if (!file) {
    return std::nullopt;
  }
  std::string content((std::istreambuf_iterator<char>(file)), std::istreambuf_iterator<char>());
  if (file.bad()) {
    return std::nullopt;
  }
  return content;
}

[[noreturn]] void failToRead() {
  throw ToolException(kExitReadError, "Failed to open/read local data from file/application");
}

std::optional<MediaType> mediaType(const std::optional<std::string>& type) {
  if (!type) {
    return std::nullopt;
  }
  std::optional<MediaType> parsed = MediaType::parse(*type);
  if (!parsed) {
    throw ToolException(kExitBadFunctionArgument, "Illegal content type: \"" + *type + "\"");
  }
  return parsed;
}

MediaType fileType(const std::filesystem::path& path) {
  std::string extension = path.extension().string();
  for (auto [suffix, type] : kFileTypes) {
    if (equalsIgnoreCase(extension, suffix)) {
      return MediaType::get(type);
    }
  }
  return MediaType::get("application/octet-stream");
}

std::shared_ptr<RequestBody> formBody(const std::vector<FormField>& fields) {
  MultipartBody::Builder builder;
  builder.setType(MultipartBody::form());
  for (const FormField& field : fields) {
    switch (field.kind) {
      case FormField::Kind::kText:
        if (field.type || field.fileName) {
          builder.addFormDataPart(field.name, field.fileName,
                                  RequestBody::create(toBytes(field.value), mediaType(field.type)));
        } else {
          builder.addFormDataPart(field.name, field.value);
        }
        break;
      case FormField::Kind::kFile: {
        std::filesystem::path path(field.value);
        if (!readFile(path).has_value()) {
          failToRead();  // Checked now so a missing file is curl's exit 26, not a network error.
        }
        std::string fileName = field.fileName.value_or(path.filename().string());
        MediaType type = field.type ? *mediaType(field.type) : fileType(path);
        builder.addFormDataPart(field.name, fileName, RequestBody::fromFile(path, type));
        break;
      }
      case FormField::Kind::kFileContent: {
        std::optional<std::string> content = readFile(field.value);
        if (!content) {
          failToRead();
        }
        builder.addFormDataPart(field.name, field.fileName,
                                RequestBody::create(toBytes(*content), mediaType(field.type)));
        break;
      }
    }
  }
  return builder.build();
}

}  // namespace

std::optional<std::string> netrcLogin(const std::string& path, std::string_view host) {
  std::optional<std::string> content = readFile(path);
  if (!content) return std::nullopt;
  std::vector<std::string> tokens;
  std::string token;
  for (char c : *content) {
    if (c == ' ' || c == '\t' || c == '\n' || c == '\r') {
      if (!token.empty()) tokens.push_back(std::move(token));
      token.clear();
    } else {
      token += c;
    }
  }
  if (!token.empty()) tokens.push_back(std::move(token));
  // machine NAME login USER password PASS ... | default login USER password PASS
  bool matching = false;
  std::optional<std::string> login;
  std::optional<std::string> password;
  for (size_t i = 0; i < tokens.size(); ++i) {
    const std::string& word = tokens[i];
    bool hasNext = i + 1 < tokens.size();
    if (word == "machine" || word == "default") {
      if (matching && login) break;  // The entry for `host` is complete.
      matching = word == "default" || (hasNext && equalsIgnoreCase(tokens[i + 1], host));
      if (word == "machine") ++i;
      login.reset();
      password.reset();
    } else if (matching && word == "login" && hasNext) {
      login = tokens[++i];
    } else if (matching && word == "password" && hasNext) {
      password = tokens[++i];
    }
  }
  if (!matching || !login) return std::nullopt;
  return *login + ":" + password.value_or("");
}

HttpUrl parseCommandLineUrl(std::string_view text) {
  std::string url(text);
  size_t separator = url.find("://");
  if (separator == std::string::npos) {
    url = "http://" + url;  // curl's guess for a URL without a scheme.
    separator = 4;
  }
  std::string scheme = url.substr(0, separator);
  for (char& c : scheme) {
    c = toLower(c);
  }
  if (scheme != "http" && scheme != "https") {
    throw ToolException(kExitUnsupportedProtocol,
                        "Protocol \"" + url.substr(0, separator) + "\" not supported");
  }
  std::optional<HttpUrl> parsed = HttpUrl::parse(url);
  if (!parsed) {
    throw ToolException(kExitUrlMalformed, "URL using bad/illegal format or missing URL");
  }
  return *parsed;
}

Request buildRequest(const Options& options, std::string_view urlText) {
  std::string urlString(urlText);
  if (options.uploadFile && options.uploadFile != "-" && urlString.ends_with('/')) {
    // curl -T file URL/: the file's name is the last path segment.
    urlString += std::filesystem::path(*options.uploadFile).filename().string();
  }
  if (options.get && options.data && !options.data->empty()) {
    size_t fragment = urlString.find('#');
    std::string query = (urlString.find('?') < fragment ? "&" : "?") + *options.data;
    urlString.insert(fragment == std::string::npos ? urlString.size() : fragment, query);
  }
  HttpUrl url = parseCommandLineUrl(urlString);
  std::vector<CustomHeader> custom = customHeaders(options);
  auto customized = [&](std::string_view name) {
    return std::any_of(custom.begin(), custom.end(),
                       [&](const CustomHeader& h) { return equalsIgnoreCase(h.name, name); });
  };

  try {
    Headers::Builder headers;
    std::string userAgent = options.userAgent.value_or(defaultUserAgent());
    if (!userAgent.empty()) {
      headers.addUnsafeNonAscii("User-Agent", userAgent);
    }
    headers.add("Accept", "*/*");
    if (options.oauth2Bearer) {
      headers.addUnsafeNonAscii("Authorization", "Bearer " + *options.oauth2Bearer);
    } else if (options.user) {
      // With --digest the first request goes without: the 401's challenge is answered by the
      // client's DigestAuthenticator (as curl does).
      if (!options.digest) headers.add("Authorization", basicAuthorization(*options.user));
    } else if (options.netrcFile) {
      if (std::optional<std::string> login = netrcLogin(*options.netrcFile, url.host())) {
        headers.add("Authorization", basicAuthorization(*login));
      }
    }
    if (options.range) {
      headers.addUnsafeNonAscii("Range", "bytes=" + *options.range);
    }
    // The transfer decodes what --compressed asked for, as curl, so the client's bridge must
    // neither ask for codings nor decode them: it leaves both to a request that names its
    // encodings. Without --compressed the "identity" placeholder never reaches the wire (the
    // network side drops it: curlRequestHeaders()), and the body arrives as the server sent it.
    headers.add("Accept-Encoding", options.compressed ? kCompressedAcceptEncoding : "identity");
    if (options.referer) {
      std::string referer = *options.referer;
      if (size_t automatic = referer.find(";auto"); automatic != std::string::npos) {
        referer.erase(automatic);  // -L sets each hop's (RedirectFollower).
      }
      if (!referer.empty()) headers.addUnsafeNonAscii("Referer", referer);
    }
    // A custom header replaces tern's own of that name; several custom ones are all sent.
    std::set<std::string, CaseInsensitiveLess> replaced;
    for (const CustomHeader& header : custom) {
      if (replaced.insert(header.name).second) {
        headers.removeAll(header.name);
      }
      if (header.value) {
        headers.addUnsafeNonAscii(header.name, *header.value);
      }
    }

    std::shared_ptr<RequestBody> body;
    if (options.uploadFile) {
      if (*options.uploadFile == "-") {
        body = RequestBody::create(toBytes(options.uploadStdin), std::nullopt);
      } else {
        std::filesystem::path path(*options.uploadFile);
        if (!readFile(path)) failToRead();
        body = RequestBody::fromFile(path, std::nullopt);
      }
    } else if (options.data && !options.get) {
      // A -H Content-Type (or its removal) wins over the form type, so the body has none then.
      std::optional<MediaType> type;
      if (!customized("Content-Type")) {
        type = MediaType::get(kFormUrlEncoded);
      }
      body = RequestBody::create(toBytes(*options.data), type);
    } else if (!options.form.empty()) {
      body = formBody(options.form);
    }

    std::string method = options.method.value_or(impliedMethod(options));
    if (!body && methodNeedsBody(method)) {
      body = placeholderBody();
    }
    return Request::Builder().url(url).headers(headers.build()).method(method, body).build();
  } catch (const std::invalid_argument& e) {
    throw ToolException(kExitBadFunctionArgument, e.what());
  }
}

const std::shared_ptr<RequestBody>& placeholderBody() {
  static const std::shared_ptr<RequestBody> body =
      RequestBody::create(std::vector<std::byte>(), std::nullopt);
  return body;
}

bool methodNeedsBody(std::string_view method) {
  return std::find(kMethodsWithBody.begin(), kMethodsWithBody.end(), method) !=
         kMethodsWithBody.end();
}

Headers curlRequestHeaders(const Headers& sent, const Options& options, bool placeholder) {
  std::vector<CustomHeader> custom = customHeaders(options);
  std::set<std::string, CaseInsensitiveLess> customNames;
  for (const CustomHeader& header : custom) customNames.insert(header.name);
  std::set<std::string, CaseInsensitiveLess> dropped;
  for (const std::string& name : droppedClientHeaders(options)) dropped.insert(name);
  // A WebSocket handshake's "Connection: Upgrade" stays (RFC 6455 §4.1), as curl sends it; the
  // client's own "Connection: Keep-Alive" goes, as curl sends none, even beside a -H Upgrade.
  if (!customNames.contains("Connection") && !internal::hasToken(sent, "Connection", "upgrade")) {
    dropped.insert("Connection");
  }
  if (!options.compressed && !customNames.contains("Accept-Encoding")) {
    dropped.insert("Accept-Encoding");
  }
  if (placeholder && !customNames.contains("Content-Length")) dropped.insert("Content-Length");

  Headers::Builder result;
  std::set<std::string, CaseInsensitiveLess> placed;
  auto place = [&](std::string_view name) {
    if (placed.contains(name) || dropped.contains(name)) return;
    placed.insert(std::string(name));
    for (const auto& [fieldName, value] : sent) {
      if (equalsIgnoreCase(fieldName, name)) result.addUnsafeNonAscii(fieldName, value);
    }
  };
  place("Host");  // First even when -H sets it, as curl sends it.
  for (std::string_view name :
       {"Authorization", "Range", "User-Agent", "Accept", "Accept-Encoding", "Referer"}) {
    if (!customNames.contains(name)) place(name);
  }
  for (const CustomHeader& header : custom) place(header.name);
  place("Content-Length");
  place("Content-Type");
  for (const auto& [name, value] : sent) place(name);
  return result.build();
}

std::string impliedMethod(const Options& options) {
  if (options.head) return "HEAD";
  if (options.uploadFile) return "PUT";
  if (options.get) return "GET";
  return options.data || !options.form.empty() ? "POST" : "GET";
}

std::vector<std::string> droppedClientHeaders(const Options& options) {
  std::vector<std::string> dropped;
  for (const CustomHeader& header : customHeaders(options)) {
    if (header.value) {
      continue;
    }
    for (std::string_view name : kClientHeaders) {
      if (equalsIgnoreCase(header.name, name)) {
        dropped.emplace_back(name);
      }
    }
  }
  if (options.userAgent && options.userAgent->empty()) {
    dropped.emplace_back("User-Agent");
  }
  return dropped;
}

std::string basicAuthorization(std::string_view userAndPassword) {
  static constexpr char kAlphabet[] =
      "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  std::string credentials(userAndPassword);
  if (credentials.find(':') == std::string::npos) {
    credentials += ':';
  }
  std::string encoded;
  for (size_t i = 0; i < credentials.size(); i += 3) {
    uint32_t group = static_cast<unsigned char>(credentials[i]) << 16;
    size_t available = std::min<size_t>(3, credentials.size() - i);
    if (available > 1) {
      group |= static_cast<unsigned char>(credentials[i + 1]) << 8;
    }
    if (available > 2) {
      group |= static_cast<unsigned char>(credentials[i + 2]);
    }
    for (size_t j = 0; j < 4; ++j) {
      encoded += j <= available ? kAlphabet[(group >> (18 - 6 * j)) & 0x3f] : '=';
    }
  }
  return "Basic " + encoded;
}

std::string defaultUserAgent() { return "tern/" + std::string(tern::version()); }

}  // namespace tern::tool
