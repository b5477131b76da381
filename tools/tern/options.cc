// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#include "options.h"

#include <CLI/CLI.hpp>
#include <vector>

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <limits>
#include <map>
#include <sstream>
#include <string>
#include <string_view>
#include <utility>
#include "argument_words.h"
#include "tern/http_url.h"

namespace tern::tool {
namespace {

constexpr int kUsageError = 2;
constexpr int kExitReadError =
    26;  // curl's CURLE_READ_ERROR: a -K file that cannot be read.  // curl's CURLE_FAILED_INIT,
         // its exit code for a bad command line.

// Reads `path` ("-" is `in`) whole, or nullopt if it cannot be read.
std::optional<std::string> readFileOrStdin(const std::string& path, std::istream& in) {
  if (path == "-") {
    return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
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

bool equalsIgnoreCase(std::string_view a, std::string_view b) {
  return std::equal(a.begin(), a.end(), b.begin(), b.end(), [](char x, char y) {
    auto lower = [](char c) { return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c; };
    return lower(x) == lower(y);
  });
}

// Reads one -F word at `spec[i]`: a double-quoted string (backslash escapes '"' and '\'), or text
// up to the next ';'. Leaves `i` at the ';' or the end.
std::string readFormWord(std::string_view spec, size_t& i) {
  std::string word;
  if (i < spec.size() && spec[i] == '"') {
    size_t j = i + 1;
    std::string quoted;
    while (j < spec.size() && spec[j] != '"') {
      if (spec[j] == '\\' && j + 1 < spec.size() && (spec[j + 1] == '"' || spec[j + 1] == '\\')) {
        ++j;
      }
      quoted.push_back(spec[j++]);
    }
    if (j < spec.size()) {  // A closing quote: the word is the quoted text.
      i = j + 1;
      while (i < spec.size() && spec[i] != ';') {
        ++i;  // curl ignores what follows the closing quote up to the next ';'.
      }
      return quoted;
    }
  }
  size_t end = spec.find(';', i);
  if (end == std::string_view::npos) {
    end = spec.size();
  }
  word = spec.substr(i, end - i);
  i = end;
  return word;
}

// The message curl prints for a CLI11 parse error, after "tern: ".
std::string describeParseError(const CLI::ParseError& e) {
  std::string what = e.what();
  if (dynamic_cast<const CLI::ArgumentMismatch*>(&e) != nullptr) {
    // "--data: 1 required TEXT missing"
    size_t colon = what.find(':');
    if (colon != std::string::npos && what.find("missing") != std::string::npos) {
      return "option " + what.substr(0, colon) + ": requires parameter";
    }
  }
  return what;
}

int usageError(std::ostream& err, const std::string& message) {
  err << "tern: " << message << "\n"
      << "tern: try 'tern --help' or 'tern --manual' for more information\n";
  return kUsageError;
}

// curl's --help: "Usage:", then one line per option, " -d, --data <data>" and its description
// from column 27, sorted by long name.
void printHelp(const CLI::App& app, std::ostream& out) {
  std::vector<std::pair<std::string, std::string>> lines;
  for (const CLI::Option* option : app.get_options()) {
    if (option->get_lnames().empty()) continue;
    // The short names CLI11 cannot hold ('#' and digits); the pre-pass maps them.
    static const std::map<std::string, std::string> kSpecialShort = {
        {"progress-bar", "#"}, {"http1.0", "0"}, {"ipv4", "4"}, {"ipv6", "6"}};
    auto special = kSpecialShort.find(option->get_lnames().front());
    std::string names = special != kSpecialShort.end() ? " -" + special->second + ","
                        : option->get_snames().empty() ? "    "
                                                       : " -" + option->get_snames().front() + ",";
    names += " --" + option->get_lnames().front();
    if (option->get_expected_min() > 0) names += " " + option->get_type_name();
    lines.emplace_back(option->get_lnames().front(), names);
    std::string& line = lines.back().second;
    line += std::string(line.size() < 26 ? 26 - line.size() : 1, ' ') + option->get_description();
  }
  std::sort(lines.begin(), lines.end());
  out << "Usage: tern [options...] <url>\n";
  for (const auto& [name, line] : lines) out << line << "\n";
}

// --manual: what the tool is, the options (as --help), and where it differs from curl.
void printManual(const CLI::App& app, std::ostream& out) {
  out << "tern - transfer a URL with the tern HTTP client, as curl does\n\n"
         "SYNOPSIS\n    tern [options / URLs]\n\n"
         "DESCRIPTION\n"
         "    tern takes curl's options and gives curl's output and exit codes for HTTP and\n"
         "    HTTPS URLs, on the tern library (HTTP/1.1 and HTTP/2, TLS on OpenSSL). Short\n"
         "    options cluster (-sSL), \"--\" ends the options, -K reads a config file.\n"
         "    Where tern differs from curl on purpose, docs/tool.md says so.\n\n"
         "OPTIONS\n";
  printHelp(app, out);
}

// curl's escaping for --data-urlencode: letters, digits and "-._~" stay, a space is '+', every
// other byte %XX.
std::string urlencode(std::string_view text) {
  static constexpr char kHex[] = "0123456789ABCDEF";
  std::string result;
  for (char c : text) {
    auto byte = static_cast<unsigned char>(c);
    if (std::isalnum(byte) != 0 || c == '-' || c == '.' || c == '_' || c == '~') {
      result += c;
    } else if (c == ' ') {
      result += '+';
    } else {
      result += '%';
      result += kHex[byte >> 4];
      result += kHex[byte & 0xf];
    }
  }
  return result;
}

// One --data-urlencode piece: "content", "=content", "name=content", "@file", "name@file"
// (the file's content encoded), as curl reads them; nullopt if the file cannot be read.
std::optional<std::string> urlencodedPiece(const std::string& spec, std::istream& in) {
  size_t equals = spec.find('=');
  size_t at = spec.find('@');
  if (at != std::string::npos && (equals == std::string::npos || at < equals)) {
    std::optional<std::string> content = readFileOrStdin(spec.substr(at + 1), in);
    if (!content) return std::nullopt;
    std::string name = spec.substr(0, at);
    return (name.empty() ? "" : name + "=") + urlencode(*content);
  }
  if (equals == std::string::npos) return urlencode(spec);
  std::string name = spec.substr(0, equals);
  return (name.empty() ? "" : name + "=") + urlencode(spec.substr(equals + 1));
}

// A size in bytes as curl writes one (--max-filesize): digits, then optionally K, M or G
// (1024-based); nullopt if it is not one or does not fit.
std::optional<int64_t> byteCount(const std::string& text) {
  int64_t value = 0;
  auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (error != std::errc() || end == text.data() || value < 0) return std::nullopt;
  std::string_view suffix(end, text.data() + text.size() - end);
  int shift = 0;
  if (suffix.size() == 1) {
    switch (std::toupper(static_cast<unsigned char>(suffix[0]))) {
      case 'K':
        shift = 10;
        break;
      case 'M':
        shift = 20;
        break;
      case 'G':
        shift = 30;
        break;
      default:
        return std::nullopt;
    }
  } else if (!suffix.empty()) {
    return std::nullopt;
  }
  if (value > (std::numeric_limits<int64_t>::max() >> shift)) return std::nullopt;
  return value << shift;
}

}  // namespace

std::optional<FormField> FormField::parse(std::string_view spec) {
  size_t equals = spec.find('=');
  if (equals == std::string_view::npos) {
    return std::nullopt;
  }
  FormField field;
  field.name = spec.substr(0, equals);
  size_t i = equals + 1;
  if (i < spec.size() && spec[i] == '@') {
    field.kind = Kind::kFile;
    ++i;
  } else if (i < spec.size() && spec[i] == '<') {
    field.kind = Kind::kFileContent;
    ++i;
  }
  field.value = readFormWord(spec, i);
  // Parameters: ";type=...", ";filename=..."; curl skips the ones it does not know.
  while (i < spec.size() && spec[i] == ';') {
    ++i;
    while (i < spec.size() && (spec[i] == ' ' || spec[i] == '\t')) {
      ++i;
    }
    size_t keyEnd = spec.find('=', i);
    size_t semicolon = spec.find(';', i);
    if (keyEnd == std::string_view::npos ||
        (semicolon != std::string_view::npos && semicolon < keyEnd)) {
      i = semicolon == std::string_view::npos ? spec.size() : semicolon;
      continue;
    }
    std::string_view key = spec.substr(i, keyEnd - i);
    i = keyEnd + 1;
    std::string word = readFormWord(spec, i);
    if (equalsIgnoreCase(key, "type")) {
      field.type = std::move(word);
    } else if (equalsIgnoreCase(key, "filename")) {
      field.fileName = std::move(word);
    }
  }
  return field;
}

CommandLine parseCommandLine(const std::vector<std::string>& args, std::istream& in,
                             std::ostream& out, std::ostream& err) {
  CommandLine result;
  Options& options = result.options;

  CLI::App app{"tern: transfer URLs with the tern HTTP client (curl's options)", "tern"};
  app.allow_extras();  // Unknown options are reported below in curl's words.
  // As in curl, a repeated single-valued option takes its last value.
  app.option_defaults()->multi_option_policy(CLI::MultiOptionPolicy::TakeLast);

  std::vector<std::string> urlOptions;
  std::vector<std::string> outputs;
  std::vector<std::string> headers;
  std::vector<std::string> data;
  std::vector<std::string> dataBinary;
  std::vector<std::string> dataRaw;
  std::vector<std::string> form;
  std::string writeOut;
  int remoteNames = 0;
  std::vector<std::string> traceFiles;
  std::vector<std::string> traceAsciiFiles;

  // Repeatable options take one value per occurrence, so "-d a URL" never swallows the URL.
  auto repeatable = [](CLI::Option* option) {
    return option->take_all()->expected(1)->allow_extra_args(false);
  };

  // A value's placeholder shows in --help, as curl's does ("-d, --data <data>").
  auto value = [&](const std::string& names, std::string placeholder, const std::string& help) {
    return app.add_option(names, help)->type_name(std::move(placeholder));
  };
  auto valueInto = [&](const std::string& names, auto& target, std::string placeholder,
                       const std::string& help) {
    return app.add_option(names, target, help)->type_name(std::move(placeholder));
  };

  CLI::Option* urlOption = repeatable(valueInto("--url", urlOptions, "<url>", "URL to work with"));
  CLI::Option* method = value("-X,--request", "<method>", "Specify request method to use");
  repeatable(
      valueInto("-H,--header", headers, "<header/@file>", "Pass custom header(s) to server"));
  CLI::Option* dataOption = repeatable(valueInto("-d,--data,--data-ascii", data, "<data>",
                                                 "HTTP POST data (@file strips CR/LF; @- stdin)"));
  CLI::Option* dataBinaryOption = repeatable(
      valueInto("--data-binary", dataBinary, "<data>", "HTTP POST binary data (@file, @-)"));
  CLI::Option* dataRawOption =
      repeatable(valueInto("--data-raw", dataRaw, "<data>", "HTTP POST data, '@' allowed"));
  repeatable(valueInto("-F,--form", form, "<name=content>", "Specify multipart MIME data"));
  CLI::Option* userAgent = value("-A,--user-agent", "<name>", "Send User-Agent <name> to server");
  CLI::Option* user = value("-u,--user", "<user:password>", "Server user and password");
  app.add_flag("--digest", options.digest, "Use HTTP Digest Authentication");
  CLI::Option* dohUrl = value("--doh-url", "<URL>", "Resolve host names over DNS over HTTPS");
  app.add_flag("--doh-insecure", options.dohInsecure, "Allow insecure DoH server connections");
  CLI::Option* outputOption = repeatable(
      valueInto("-o,--output", outputs, "<file>", "Write to file instead of stdout (#N: glob)"));
  CLI::Option* remoteName = app.add_flag("-O,--remote-name", remoteNames,
                                         "Write output to a file named as the remote file");
  app.add_flag("-i,--include", options.include, "Include protocol response headers in the output");
  app.add_flag("-I,--head", options.head, "Show document info only");
  app.add_flag("-s,--silent", options.silent, "Silent mode");
  app.add_flag("-S,--show-error", options.showError, "Show error even when -s is used");
  CLI::Option* verbose =
      app.add_flag("-v,--verbose", options.verbose, "Make the operation more talkative");
  app.add_flag("-f,--fail", options.fail, "Fail fast with no output on HTTP errors");
  app.add_flag("-L,--location", options.location, "Follow redirects");
  app.add_flag("--location-trusted", options.locationTrusted,
               "Like --location, and send auth to other hosts");
  app.add_flag("-g,--globoff", options.globOff, "Disable URL sequences and ranges using {} and []");
  app.add_flag("--compressed", options.compressed,
               "Request compressed response (deflate, gzip, br, zstd)");
  bool disable = false;  // curl reads no .curlrc with -q; tern reads none anyway.
  app.add_flag("-q,--disable", disable, "Disable .curlrc (tern reads none)");
  std::vector<std::string> dataUrlencode;
  std::vector<std::string> json;
  CLI::Option* dataUrlencodeOption = repeatable(
      valueInto("--data-urlencode", dataUrlencode, "<data>", "HTTP POST data URL-encoded"));
  CLI::Option* jsonOption = repeatable(valueInto("--json", json, "<data>", "HTTP POST JSON"));
  app.add_flag("-G,--get", options.get, "Put the post data in the URL and use GET");
  CLI::Option* uploadFile =
      value("-T,--upload-file", "<file>", "Transfer local FILE to destination");
  CLI::Option* range = value("-r,--range", "<range>", "Retrieve only the bytes within RANGE");
  CLI::Option* referer =
      value("-e,--referer", "<URL>", "Referrer URL (URL;auto: also each redirect's)");
  CLI::Option* oauth2Bearer = value("--oauth2-bearer", "<token>", "OAuth 2 Bearer Token");
  app.add_flag("--fail-with-body", options.failWithBody, "Fail on HTTP errors but save the body");
  std::vector<std::string> cookies;  // -b: data when it holds '=', else a file, as curl decides.
  repeatable(valueInto("-b,--cookie", cookies, "<data|filename>", "Send cookies from string/file"));
  CLI::Option* cookieJar =
      value("-c,--cookie-jar", "<filename>", "Write cookies to <filename> after operation");
  app.add_flag("-j,--junk-session-cookies", options.junkSessionCookies,
               "Ignore session cookies read from file");
  repeatable(
      valueInto("--hsts", options.hstsFiles, "<file name>", "Enable HSTS with this cache file"));
  repeatable(valueInto("--alt-svc", options.altSvcFiles, "<file name>",
                       "Enable alt-svc with this cache file"));
  CLI::Option* dumpHeader =
      value("-D,--dump-header", "<filename>", "Write the received headers to <filename>");
  app.add_flag("--create-dirs", options.createDirs, "Create necessary local directory hierarchy");
  CLI::Option* outputDir = value("--output-dir", "<dir>", "Directory to save files in");
  bool netrc = false;
  app.add_flag("-n,--netrc", netrc, "Must read .netrc for user name and password");
  CLI::Option* netrcFile = value("--netrc-file", "<filename>", "Specify FILE for netrc");
  CLI::Option* continueAt =
      value("-C,--continue-at", "<offset>", "Resumed transfer offset (- for the file's size)");
  CLI::Option* limitRate = value("--limit-rate", "<speed>", "Limit transfer speed to RATE");
  app.add_flag("-R,--remote-time", options.remoteTime,
               "Set the remote file's time on the local output");
  CLI::Option* maxRedirs =
      value("--max-redirs", "<num>", "Maximum number of redirects allowed (50)");
  CLI::Option* connectTimeout =
      value("--connect-timeout", "<fractional seconds>", "Maximum time allowed for connection");
  CLI::Option* maxTime =
      value("-m,--max-time", "<fractional seconds>", "Maximum time allowed for transfer");
  CLI::Option* retry = value("--retry", "<num>", "Retry request if transient problems occur");
  CLI::Option* retryDelay = value("--retry-delay", "<seconds>", "Wait time between retries");
  CLI::Option* retryMaxTime =
      value("--retry-max-time", "<seconds>", "Retry only within this period");
  app.add_flag("--retry-all-errors", options.retryAllErrors, "Retry all errors (use with --retry)");
  app.add_flag("--retry-connrefused", options.retryConnrefused,
               "Retry on connection refused (use with --retry)");
  CLI::Option* writeOutOption =
      valueInto("-w,--write-out", writeOut, "<format>", "Use output FORMAT after completion");
  CLI::Option* trace =
      repeatable(valueInto("--trace", traceFiles, "<file>", "Write a debug trace to FILE"));
  CLI::Option* traceAscii = repeatable(valueInto("--trace-ascii", traceAsciiFiles, "<file>",
                                                 "Like --trace, but without hex output"));
  app.add_flag("--trace-time", options.traceTime, "Add time stamps to trace/verbose output");
  app.add_flag("--trace-events", options.traceEvents,
               "Every call's events on stderr: <ms> <call#> <event> [details]");
  CLI::Option* waterfall =
      value("--waterfall", "<file.svg>", "Draw the run's calls as a waterfall chart");
  app.add_flag("-V,--version", options.showVersion, "Show version number and quit");
  app.add_flag("--progress-bar", options.progressBar, "Display transfer progress as a bar");
  app.add_flag("--no-progress-meter", options.noProgressMeter, "Do not show the progress meter");
  app.add_flag("--demo", options.demo,
               "Fetch a few URLs from an in-process HTTPS server and explain what happened");
  app.add_flag("--sse", options.sse, "Print the URL's server-sent events as they come");
  CLI::Option* caCert = value("--cacert", "<file>", "CA certificate to verify peer against");
  app.add_flag("-k,--insecure", options.insecure, "Allow insecure server connections");
  CLI::Option* pinnedPubKey =
      value("--pinnedpubkey", "<hashes>", "Public key pins: sha256//BASE64[;sha256//BASE64]");
  CLI::Option* clientCert = value("-E,--cert", "<certificate>", "Client certificate file (PEM)");
  CLI::Option* clientKey = value("--key", "<key>", "Private key file name (PEM)");
  bool tls12 = false;
  bool tls13 = false;
  app.add_flag("--tlsv1.2", tls12, "Use TLSv1.2 or greater");
  app.add_flag("--tlsv1.3", tls13, "Use TLSv1.3 or greater");
  bool http10Flag = false;  // The last of these wins: read in parse order below.
  bool http11Flag = false;
  bool http2Flag = false;
  bool http2PriorKnowledgeFlag = false;
  bool http3Flag = false;
  bool http3OnlyFlag = false;
  CLI::Option* http10 = app.add_flag("--http1.0", http10Flag, "Use HTTP 1.0 (tern sends HTTP/1.1)");
  CLI::Option* http11 = app.add_flag("--http1.1", http11Flag, "Use HTTP 1.1");
  CLI::Option* http2 = app.add_flag("--http2", http2Flag, "Use HTTP 2 (where TLS offers it)");
  CLI::Option* http2PriorKnowledge = app.add_flag(
      "--http2-prior-knowledge", http2PriorKnowledgeFlag, "Use HTTP 2 without HTTP/1.1 Upgrade");
  CLI::Option* http3 = app.add_flag("--http3", http3Flag, "Use HTTP v3");
  CLI::Option* http3Only = app.add_flag("--http3-only", http3OnlyFlag, "Use HTTP v3 only");
  bool ipv4Flag = false;
  bool ipv6Flag = false;
  CLI::Option* ipv4 = app.add_flag("--ipv4", ipv4Flag, "Resolve names to IPv4 addresses");
  CLI::Option* ipv6 = app.add_flag("--ipv6", ipv6Flag, "Resolve names to IPv6 addresses");
  // -x, --socks5 and --socks5-hostname set one proxy, the last one winning (read in order
  // below).
  std::vector<std::string> proxies;
  std::vector<std::string> socks5Proxies;
  std::vector<std::string> socks5hProxies;
  CLI::Option* proxy =
      repeatable(valueInto("-x,--proxy", proxies, "[protocol://]host[:port]", "Use this proxy"));
  CLI::Option* socks5 = repeatable(
      valueInto("--socks5", socks5Proxies, "<host[:port]>", "SOCKS5 proxy on given host + port"));
  CLI::Option* socks5h = repeatable(valueInto("--socks5-hostname", socks5hProxies, "<host[:port]>",
                                              "SOCKS5 proxy, pass host name to proxy"));
  CLI::Option* proxyUser = value("-U,--proxy-user", "<user:password>", "Proxy user and password");
  CLI::Option* noProxy =
      value("--noproxy", "<no-proxy-list>", "List of hosts which do not use proxy");
  app.add_flag("--proxy-basic", options.proxyBasic,
               "Use Basic authentication on the proxy (tern's only kind)");
  app.add_flag("--proxy-insecure", options.proxyInsecure,
               "Do not verify the HTTPS proxy's certificate");
  CLI::Option* proxyCaCert =
      value("--proxy-cacert", "<file>", "CA certificates to verify the HTTPS proxy against");
  repeatable(valueInto("--resolve", options.resolve, "<[+]host:port:addr[,addr]...>",
                       "Resolve the host+port to this address"));
  repeatable(
      valueInto("--connect-to", options.connectTo, "<HOST1:PORT1:HOST2:PORT2>", "Connect to host"));
  std::vector<std::string> unixSockets;
  std::vector<std::string> abstractUnixSockets;
  CLI::Option* unixSocket = repeatable(
      valueInto("--unix-socket", unixSockets, "<path>", "Connect through this Unix domain socket"));
  CLI::Option* abstractUnixSocket =
      repeatable(valueInto("--abstract-unix-socket", abstractUnixSockets, "<path>",
                           "Connect via abstract Unix domain socket"));
  app.add_flag("-Z,--parallel", options.parallel, "Perform transfers in parallel");
  CLI::Option* parallelMax =
      value("--parallel-max", "<num>", "Maximum concurrency for parallel transfers (50)");
  CLI::Option* cacheDir =
      value("--cache", "<dir>", "Keep responses in a disk cache in DIR, across runs (tern's own)");
  CLI::Option* cacheSize =
      value("--cache-size", "<bytes>", "Largest size of the --cache (K, M, G; 50M; tern's own)");
  app.add_flag("--ws", options.ws,
               "Talk WebSocket: stdin lines out, messages to stdout (tern's own)");
  app.add_flag("--ws-no-compress", options.wsNoCompress, "With --ws, offer no permessage-deflate");
  value("-K,--config", "<file>", "Read config from a file");
  bool manual = false;
  app.add_flag("-M,--manual", manual, "Display the full manual");

  // curl's own reading of the words (clusters, "--", values that look like options), so CLI11
  // sees each option spelled one way.
  OptionTable table;
  for (const CLI::Option* option : app.get_options()) {
    if (option->get_lnames().empty()) continue;
    OptionSpelling spelling{"--" + option->get_lnames().front(), option->get_expected_min() > 0};
    for (const std::string& name : option->get_lnames()) table.longNames["--" + name] = spelling;
    for (const std::string& name : option->get_snames()) table.shortNames[name[0]] = spelling;
  }
  table.shortNames['#'] = table.longNames["--progress-bar"];
  table.shortNames['0'] = table.longNames["--http1.0"];
  table.shortNames['4'] = table.longNames["--ipv4"];
  table.shortNames['6'] = table.longNames["--ipv6"];
  // -K/--config FILE: the file's words in its place ("-" is stdin), as curl reads them.
  std::vector<std::string> expanded;
  for (size_t i = 0; i < args.size(); ++i) {
    std::optional<std::string> config;
    const std::string& word = args[i];
    if (word == "--config" && i + 1 < args.size()) {
      config = args[++i];
    } else if (word.size() > 1 && word[0] == '-' && word[1] != '-') {
      // -K in a cluster of flags: "-sK file", "-sKfile".
      for (size_t j = 1; j < word.size(); ++j) {
        if (word[j] == 'K') {
          if (j > 1) expanded.push_back(word.substr(0, j));
          if (j + 1 < word.size()) {
            config = word.substr(j + 1);
          } else if (i + 1 < args.size()) {
            config = args[++i];
          }
          break;
        }
        auto letter = table.shortNames.find(word[j]);
        if (letter == table.shortNames.end() || letter->second.takesValue) break;
      }
    }
    if (!config) {
      expanded.push_back(word);
      continue;
    }
    std::optional<std::string> text = readFileOrStdin(*config, in);
    if (!text) {
      if (std::find(args.begin(), args.end(), "-s") == args.end()) {
        err << "tern: cannot read config from '" << *config << "'\n";
      }
      usageError(err, "option -K: error encountered when reading a file");
      result.exitCode = kExitReadError;
      return result;
    }
    for (std::string& word : configFileWords(*text)) expanded.push_back(std::move(word));
  }
  ArgumentWords words = normalizeArguments(expanded, table);
  if (!words.error.empty()) {
    result.exitCode = usageError(err, words.error);
    return result;
  }
  std::vector<std::string> reversed(words.words.rbegin(), words.words.rend());  // CLI11 parses
                                                                                // backwards.
  try {
    app.parse(reversed);
  } catch (const CLI::CallForHelp&) {
    printHelp(app, out);
    result.exitCode = 0;
    return result;
  } catch (const CLI::ParseError& e) {
    result.exitCode = usageError(err, describeParseError(e));
    return result;
  }
  if (manual) {
    printManual(app, out);
    result.exitCode = 0;
    return result;
  }
  for (const std::string& extra : app.remaining()) {
    result.exitCode = usageError(err, "option " + extra + ": is unknown");
    return result;
  }

  auto warn = [&](const std::string& message) {
    if (!options.silent) {
      err << "Warning: " << message << "\n";
    }
  };

  // Numeric options, checked as curl checks them: whole numbers of redirects from -1, seconds
  // from 0 with a fraction.
  auto badNumber = [&](const CLI::Option* option) {
    result.exitCode =
        usageError(err, "option " + option->get_name() + ": expected a proper numerical parameter");
    return result;
  };
  if (*parallelMax) {
    std::string text = parallelMax->as<std::string>();
    int value = 0;
    auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (error != std::errc() || end != text.data() + text.size() || value < 0) {
      return badNumber(parallelMax);
    }
    // As curl: 0 means the default, and more than 300 is 300.
    options.parallelMax = value == 0 ? 50 : std::min(value, 300);
  }
  if (*cacheSize) {
    std::optional<int64_t> bytes = byteCount(cacheSize->as<std::string>());
    if (!bytes || *bytes <= 0) return badNumber(cacheSize);
    options.cacheSize = *bytes;
  }
  if (*maxRedirs) {
    std::string text = maxRedirs->as<std::string>();
    int64_t value = 0;
    auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (error != std::errc() || end != text.data() + text.size() || value < -1) {
      return badNumber(maxRedirs);
    }
    options.maxRedirs = value;
  }
  for (auto [option, target] :
       {std::pair{retry, &options.retry}, std::pair{retryDelay, &options.retryDelay},
        std::pair{retryMaxTime, &options.retryMaxTime}}) {
    // Whole numbers from 0, as curl 7.88's str2unum reads them.
    if (*option) {
      std::string text = option->as<std::string>();
      int64_t value = 0;
      auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
      if (error == std::errc() && end == text.data() + text.size() && value < 0) {
        result.exitCode = usageError(
            err, "option " + option->get_name() + ": expected a positive numerical parameter");
        return result;
      }
      if (error != std::errc() || end != text.data() + text.size() || text.empty()) {
        return badNumber(option);
      }
      *target = value;
    }
  }
  for (auto [option, target] :
       {std::pair{connectTimeout, &options.connectTimeout}, std::pair{maxTime, &options.maxTime}}) {
    if (*option) {
      std::string text = option->as<std::string>();
      char* end = nullptr;
      double seconds = std::strtod(text.c_str(), &end);
      if (text.empty() || end != text.c_str() + text.size() || !(seconds >= 0) || seconds > 1e9) {
        return badNumber(option);
      }
      *target = seconds;
    }
  }
  for (auto [option, target] :
       {std::pair{method, &options.method}, std::pair{userAgent, &options.userAgent},
        std::pair{user, &options.user}, std::pair{caCert, &options.caCert},
        std::pair{clientCert, &options.clientCert}, std::pair{clientKey, &options.clientKey},
        std::pair{waterfall, &options.waterfall}, std::pair{uploadFile, &options.uploadFile},
        std::pair{range, &options.range}, std::pair{referer, &options.referer},
        std::pair{oauth2Bearer, &options.oauth2Bearer}, std::pair{dumpHeader, &options.dumpHeader},
        std::pair{outputDir, &options.outputDir}, std::pair{netrcFile, &options.netrcFile},
        std::pair{limitRate, &options.limitRate}, std::pair{continueAt, &options.continueAt},
        std::pair{proxyUser, &options.proxyUser}, std::pair{noProxy, &options.noProxy},
        std::pair{proxyCaCert, &options.proxyCaCert}}) {
    if (*option) {
      *target = option->as<std::string>();
    }
  }

  if (*dohUrl) {
    std::string url = dohUrl->as<std::string>();
    if (!url.empty() && !HttpUrl::parse(url)) {
      result.exitCode = usageError(err, "option --doh-url: not an http or https URL: " + url);
      return result;
    }
    options.dohUrl = url.empty() ? std::nullopt : std::optional(url);
  }
  if (*cacheDir) options.cacheDir = cacheDir->as<std::string>();
  if (*cookieJar) options.cookieJar = cookieJar->as<std::string>();
  for (const std::string& cookie : cookies) {
    if (cookie.starts_with('@')) {
      options.cookieFiles.push_back(cookie.substr(1));
    } else if (cookie.find('=') != std::string::npos) {
      options.cookies.push_back(cookie);
    } else {
      options.cookieFiles.push_back(cookie);
    }
  }
  if (options.locationTrusted) options.location = true;
  if (netrc && !options.netrcFile) {
    const char* home = std::getenv("HOME");
    options.netrcFile = std::string(home != nullptr ? home : "") + "/.netrc";
  }
  if (options.uploadFile == "-") options.uploadStdin = readFileOrStdin("-", in).value_or("");

  // As in curl, the highest minimum asked for wins.
  if (tls13) {
    options.tlsMinimum = "1.3";
  } else if (tls12) {
    options.tlsMinimum = "1.2";
  }

  // curl's pins: "sha256//BASE64", several joined by ';'. tern's pins are "sha256/BASE64".
  if (*pinnedPubKey) {
    const std::string pins = pinnedPubKey->as<std::string>();
    size_t start = 0;
    while (start <= pins.size()) {
      size_t end = pins.find(';', start);
      if (end == std::string::npos) end = pins.size();
      const std::string pin = pins.substr(start, end - start);
      if (!pin.starts_with("sha256//") || pin.size() == 8) {
        result.exitCode = usageError(
            err, "option --pinnedpubkey: expected sha256//BASE64[;sha256//BASE64...], got \"" +
                     pin + "\" (tern does not read public key files)");
        return result;
      }
      options.pinnedPublicKeys.push_back("sha256/" + pin.substr(8));
      start = end + 1;
    }
  }
  if (options.clientKey && !options.clientCert) {
    result.exitCode = usageError(err, "option --key: needs --cert");
    return result;
  }

  // Options whose order matters (URLs and outputs pair up in order; data pieces join in order)
  // are read in command-line order.
  std::map<const CLI::Option*, size_t> taken;
  std::vector<std::string> dataPieces;
  options.verbose = 0;  // Counted again below, where --trace may replace it.
  for (const CLI::Option* option : app.parse_order()) {
    size_t index = taken[option]++;
    if (option == http10 || option == http11) options.httpVersion = Options::HttpVersion::kHttp11;
    if (option == ipv4) options.ipResolve = Options::IpResolve::kIpv4;
    if (option == ipv6) options.ipResolve = Options::IpResolve::kIpv6;
    if (option == http2) options.httpVersion = Options::HttpVersion::kHttp2;
    // -v, --trace and --trace-ascii: the last one wins, with curl's warning if it replaces
    // another.
    if (option == verbose || option == trace || option == traceAscii) {
      bool ascii = option == traceAscii;
      bool replaces = option == verbose ? options.traceFile.has_value()
                                        : options.verbose > 0 ||
                                              (options.traceFile && options.traceAscii != ascii);
      if (replaces) {
        warn(std::string(option == verbose ? "-v, --verbose" : option->get_name()) +
             " overrides an earlier trace/verbose option");
      }
      if (option == verbose) {
        options.traceFile.reset();
        ++options.verbose;
      } else {
        options.verbose = 0;
        options.traceFile = ascii ? traceAsciiFiles.at(index) : traceFiles.at(index);
        options.traceAscii = ascii;
      }
    }
    if (option == proxy) options.proxy = proxies.at(index);
    if (option == unixSocket || option == abstractUnixSocket) {
      options.abstractUnixSocket = option == abstractUnixSocket;
      options.unixSocket =
          options.abstractUnixSocket ? abstractUnixSockets.at(index) : unixSockets.at(index);
    }
    // curl's --socks5 and --socks5-hostname: a SOCKS5 proxy unless the value names a scheme.
    if (option == socks5 || option == socks5h) {
      const std::string& value =
          option == socks5 ? socks5Proxies.at(index) : socks5hProxies.at(index);
      bool plain = value.empty() || value.find("://") != std::string::npos;
      options.proxy = plain ? value : (option == socks5 ? "socks5://" : "socks5h://") + value;
    }
    if (option == http2PriorKnowledge) {
      options.httpVersion = Options::HttpVersion::kHttp2PriorKnowledge;
    }
    if (option == http3) options.httpVersion = Options::HttpVersion::kHttp3;
    if (option == http3Only) options.httpVersion = Options::HttpVersion::kHttp3Only;
    if (option == urlOption) {
      options.urls.push_back(urlOptions.at(index));
    } else if (option == outputOption) {
      options.outputs.push_back({OutputSpec::Kind::kFile, outputs.at(index)});
    } else if (option == remoteName) {
      options.outputs.push_back({OutputSpec::Kind::kRemoteName, ""});
    } else if (option == dataOption || option == dataBinaryOption) {
      bool binary = option == dataBinaryOption;
      const std::string& value = binary ? dataBinary.at(index) : data.at(index);
      if (!value.starts_with('@')) {
        dataPieces.push_back(value);
        continue;
      }
      std::string path = value.substr(1);
      std::optional<std::string> content = readFileOrStdin(path, in);
      if (!content) {
        warn("Couldn't read data from file \"" + path + "\", this makes an empty POST.");
        content.emplace();
      }
      if (!binary) {  // curl's -d @file drops every CR and LF.
        std::erase_if(*content, [](char c) { return c == '\r' || c == '\n'; });
      }
      dataPieces.push_back(std::move(*content));
    } else if (option == dataRawOption) {
      dataPieces.push_back(dataRaw.at(index));
    } else if (option == dataUrlencodeOption) {
      std::optional<std::string> piece = urlencodedPiece(dataUrlencode.at(index), in);
      if (!piece) {
        warn("Couldn't read data from file, this makes an empty POST.");
        piece.emplace();
      }
      dataPieces.push_back(std::move(*piece));
    } else if (option == jsonOption) {
      // curl joins --json pieces with nothing between them.
      const std::string& value = json.at(index);
      std::optional<std::string> content =
          value.starts_with('@') ? readFileOrStdin(value.substr(1), in) : value;
      if (!content) {
        warn("Couldn't read data from file \"" + value.substr(1) + "\", this makes an empty POST.");
        content.emplace();
      }
      if (options.json && !dataPieces.empty()) {
        dataPieces.back() += *content;
      } else {
        dataPieces.push_back(std::move(*content));
      }
      options.json = true;
    }
  }
  if (!dataPieces.empty()) {
    std::string joined;
    for (size_t i = 0; i < dataPieces.size(); ++i) {
      joined += (i == 0 ? "" : "&") + dataPieces[i];
    }
    options.data = std::move(joined);
  }

  for (const std::string& header : headers) {
    if (!header.starts_with('@')) {
      options.headers.push_back(header);
      continue;
    }
    std::optional<std::string> content = readFileOrStdin(header.substr(1), in);
    if (!content) {
      warn("Failed to read " + header.substr(1));
      continue;
    }
    std::istringstream lines(*content);
    for (std::string line; std::getline(lines, line);) {
      if (!line.empty() && line.back() == '\r') {
        line.pop_back();
      }
      if (!line.empty()) {
        options.headers.push_back(line);
      }
    }
  }

  for (const std::string& spec : form) {
    std::optional<FormField> field = FormField::parse(spec);
    if (!field) {
      warn("Illegally formatted input field!");
      result.exitCode = usageError(err, "option -F: is badly used here");
      return result;
    }
    options.form.push_back(std::move(*field));
  }

  if (*writeOutOption) {
    if (writeOut.starts_with('@')) {
      std::optional<std::string> content = readFileOrStdin(writeOut.substr(1), in);
      if (!content) {
        warn("Failed to read " + writeOut.substr(1));
      }
      options.writeOut = content.value_or("");
    } else {
      options.writeOut = writeOut;
    }
  }

  // curl sends one request method: data, a form and HEAD exclude each other.
  if (options.data && !options.form.empty()) {
    result.exitCode = usageError(err,
                                 "You can only select one HTTP request method! You asked for both "
                                 "POST (-d, --data) and multipart formpost (-F, --form).");
    return result;
  }
  if (options.head && ((options.data && !options.get) || !options.form.empty())) {
    result.exitCode =
        usageError(err, std::string("You can only select one HTTP request method! You "
                                    "asked for both HEAD (-I, --head) and ") +
                            (options.data ? "POST (-d, --data)."
                                          : "multipart formpost "
                                            "(-F, --form)."));
    return result;
  }

  if (options.showVersion || options.demo) {
    return result;
  }
  if (options.urls.empty()) {
    result.exitCode = usageError(err, "no URL specified!");
  }
  return result;
}

}  // namespace tern::tool
