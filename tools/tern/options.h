// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstdint>
#include <istream>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

namespace tern::tool {

// Where one URL's body goes: stdout, a file (-o, whose name may hold "#N" glob references), or a
// file named after the URL's last path segment (-O).
struct OutputSpec {
  enum class Kind { kStdout, kFile, kRemoteName };
  Kind kind = Kind::kStdout;
  std::string fileName;  // kFile only; "-" is stdout, as in curl.
};

// One -F/--form field, as curl spells it: "name=value", "name=@file" (a file upload),
// "name=<file" (a file's content as the value), each optionally followed by ";type=..." and
// ";filename=...".
struct FormField {
  enum class Kind { kText, kFile, kFileContent };
  Kind kind = Kind::kText;
  std::string name;
  std::string value;  // The text, or the path for kFile and kFileContent.
  std::optional<std::string> type;
  std::optional<std::string> fileName;

  // Parses a -F argument. nullopt if it has no '=' (curl: "option -F: is badly used here").
  static std::optional<FormField> parse(std::string_view spec);
};

// --cache-size when none is given: 50 MiB.
constexpr int64_t kDefaultCacheSize = int64_t{50} * 1024 * 1024;

// The command line, with curl's option names and meanings.
struct Options {
  std::vector<std::string> urls;
  // The i-th spec applies to the i-th URL (and all its glob expansions); URLs beyond the specs
  // write to stdout. -o and -O count in the order given, as in curl.
  std::vector<OutputSpec> outputs;

  std::optional<std::string> method;     // -X/--request
  std::vector<std::string> headers;      // -H/--header lines, in order; "@file" already read.
  std::optional<std::string> data;       // -d/--data, --data-binary, --data-raw,
                                         // --data-urlencode, --json, joined with '&'.
  std::vector<FormField> form;           // -F/--form
  std::optional<std::string> userAgent;  // -A/--user-agent; "" sends none.
  std::optional<std::string> user;       // -u/--user "user:password"
  bool digest = false;                   // --digest: answer -u's 401 with Digest (RFC 7616).
  std::optional<std::string> writeOut;   // -w/--write-out, "@file" already read.

  bool get = false;                         // -G/--get: the data goes in the query of a GET.
  bool json = false;                        // The data came from --json (its type and Accept).
  std::optional<std::string> uploadFile;    // -T/--upload-file: PUT this file ("-": stdin).
  std::string uploadStdin;                  // With -T -: stdin, read while parsing.
  std::optional<std::string> range;         // -r/--range: "Range: bytes=RANGE".
  std::optional<std::string> referer;       // -e/--referer: the Referer (";auto": each hop's too).
  std::optional<std::string> oauth2Bearer;  // --oauth2-bearer: "Authorization: Bearer TOKEN".
  bool failWithBody = false;                // --fail-with-body: exit 22 for >= 400, body kept.
  std::optional<std::string> dumpHeader;    // -D/--dump-header FILE ("-": stdout).
  bool createDirs = false;                  // --create-dirs: make the output file's directories.
  std::optional<std::string> outputDir;     // --output-dir: where -o and -O files go.
  // -n/--netrc (~/.netrc), --netrc-file FILE: the host's login and password from it (no -u).
  std::optional<std::string> netrcFile;
  // Cookies, as curl's options (see cookie_engine.h). -b/--cookie: an argument with '=' is
  // "name=value; n2=v2" data sent as it is (several joined with ';'), any other (or "@file") a
  // cookie file to read, which also turns the cookie engine on; -c/--cookie-jar FILE: the engine
  // on, and its cookies written to FILE ("-": stdout) at the end; -j/--junk-session-cookies.
  std::vector<std::string> cookies;
  std::vector<std::string> cookieFiles;
  std::optional<std::string> cookieJar;
  bool junkSessionCookies = false;
  // --hsts FILE, as curl's (see hsts_cache.h): every file read at the start, the last one
  // written at the end; "" keeps the cache in memory only.
  std::vector<std::string> hstsFiles;
  // --alt-svc FILE, as curl's (see alt_svc_setup.h): the last one is the client's Alt-Svc file,
  // "" keeps the cache in memory only; any of them lets the client record HTTP/3 alternatives.
  std::vector<std::string> altSvcFiles;
  std::optional<std::string> limitRate;  // --limit-rate SPEED: "100K", "1M" bytes a second.
  // -C/--continue-at: resume at this byte offset, or ("-") at the output file's size.
  std::optional<std::string> continueAt;
  bool remoteTime = false;  // -R/--remote-time: the file's time from Last-Modified.

  bool include = false;                  // -i/--include: response headers before the body.
  bool head = false;                     // -I/--head
  bool silent = false;                   // -s/--silent
  bool showError = false;                // -S/--show-error: errors even when silent.
  int verbose = 0;                       // -v/--verbose: request and response headers on stderr.
  bool fail = false;                     // -f/--fail: no body and exit 22 for a status >= 400.
  bool location = false;                 // -L/--location: follow redirects.
  bool locationTrusted = false;          // --location-trusted: -L, credentials sent to every host.
  bool globOff = false;                  // -g/--globoff
  bool compressed = false;               // --compressed: ask for curl's codings, decode them.
  std::optional<int64_t> maxRedirs;      // --max-redirs (-L's limit; 50 if not given); -1: none.
  std::optional<double> connectTimeout;  // --connect-timeout, seconds.
  std::optional<double> maxTime;         // -m/--max-time, seconds for each transfer.
  // --retry N: a transfer that failed transiently runs again, up to N more times (curl's
  // transient errors: a timeout, a name that did not resolve, HTTP 408, 429, 500, 502, 503 or
  // 504); --retry-delay S waits S seconds each time instead of curl's backoff (1 s, doubled up
  // to 10 minutes); --retry-max-time S retries only within S seconds of the first start;
  // --retry-all-errors retries any failure, --retry-connrefused a refused connection too.
  int64_t retry = 0;
  int64_t retryDelay = 0;
  int64_t retryMaxTime = 0;
  bool retryAllErrors = false;
  bool retryConnrefused = false;
  bool traceEvents = false;  // --trace-events: every call's events on stderr.
  // --trace FILE / --trace-ascii FILE ("-" stdout, "%" stderr): curl's trace of the transfers.
  // -v and the two replace each other, the last one winning, as in curl.
  std::optional<std::string> traceFile;
  bool traceAscii = false;  // --trace-ascii rather than --trace's hex dump.
  bool traceTime = false;   // --trace-time: the time of day before each -v or trace line.
  std::optional<std::string> waterfall;  // --waterfall FILE.svg: the run as a waterfall chart.
  bool showVersion = false;              // -V/--version
  bool progressBar = false;              // -#/--progress-bar: a bar instead of the meter.
  bool noProgressMeter = false;          // --no-progress-meter: no meter, messages still shown.
  bool demo = false;                     // --demo: the offline showcase (see demo.h); needs no URL.
  bool sse = false;                      // --sse: print the URL's server-sent events (sse_mode.h).

  // TLS, as curl's options.
  std::optional<std::string> caCert;  // --cacert FILE: PEM roots to trust instead of the system's.
  bool insecure = false;              // -k/--insecure: no certificate or hostname checks.
  std::vector<std::string> pinnedPublicKeys;  // --pinnedpubkey "sha256//B64[;sha256//B64]", as pins
                                              // in tern's form ("sha256/B64").
  std::optional<std::string> clientCert;      // --cert FILE: the client certificate (PEM).
  std::optional<std::string> clientKey;   // --key FILE: its private key (PEM); defaults to --cert.
  std::optional<std::string> tlsMinimum;  // "1.2" (--tlsv1.2) or "1.3" (--tlsv1.3).

  // --http1.1, --http2 (the default: h2 where TLS offers it, else HTTP/1.1; tern has no h2c
  // Upgrade), --http2-prior-knowledge (cleartext HTTP/2 without negotiation). The last one wins.
  // --http3: HTTP/3 to every https URL's host and port, raced against TCP; --http3-only: HTTP/3
  // and nothing else (curl's).
  enum class HttpVersion { kDefault, kHttp11, kHttp2, kHttp2PriorKnowledge, kHttp3, kHttp3Only };
  HttpVersion httpVersion = HttpVersion::kDefault;
  // -4/--ipv4, -6/--ipv6: resolve names to addresses of one family only (the last one wins).
  enum class IpResolve { kAny, kIpv4, kIpv6 };
  IpResolve ipResolve = IpResolve::kAny;
  // --resolve HOST:PORT:ADDR[,ADDR]..., in order (see resolve_table.h).
  std::vector<std::string> resolve;
  // --doh-url URL: resolve names over DNS over HTTPS at URL ("" unsets it, as curl), verifying
  // its server with --cacert's roots (not -k's choice); --doh-insecure: don't verify it.
  std::optional<std::string> dohUrl;
  bool dohInsecure = false;
  // --connect-to HOST1:PORT1:HOST2:PORT2, in order (see connect_to.h).
  std::vector<std::string> connectTo;
  // --unix-socket PATH, or --abstract-unix-socket NAME (abstract): every connection goes to this
  // Unix domain socket, as curl's. The last of the two wins; "" is TCP.
  std::string unixSocket;
  bool abstractUnixSocket = false;
  // Proxies, as curl's options. -x/--proxy "[scheme://][user:password@]host[:port]", or
  // --socks5 / --socks5-hostname "host[:port]" (kept here as "socks5://..." / "socks5h://..."
  // when they name no scheme): the last of the three wins, as in curl. "" is no proxy at all,
  // not even the environment's. Unset: the proxy environment variables (see proxy_setup.h).
  std::optional<std::string> proxy;
  std::optional<std::string> proxyUser;  // -U/--proxy-user "user:password".
  std::optional<std::string> noProxy;    // --noproxy LIST: instead of no_proxy / NO_PROXY.
  // --proxy-basic (Basic is what tern sends anyway), --proxy-insecure and --proxy-cacert (for
  // HTTPS proxies, which tern does not support yet): accepted, and no effect.
  bool proxyBasic = false;
  bool proxyInsecure = false;
  std::optional<std::string> proxyCaCert;

  bool parallel = false;  // -Z/--parallel: transfers run at once, through the dispatcher.
  int parallelMax = 50;   // --parallel-max: at most this many at once (curl: 1..300).

  // --cache DIR (tern's own): one disk cache (tern::Cache) for every transfer of the run, kept
  // in DIR across runs; --cache-size BYTES bounds it (K, M, G suffixes, 1024-based).
  std::optional<std::string> cacheDir;
  int64_t cacheSize = kDefaultCacheSize;

  // --ws (tern's own): the URL is a WebSocket; stdin's lines are sent and its messages printed
  // (ws_mode.h). --ws-no-compress: offer no permessage-deflate.
  bool ws = false;
  bool wsNoCompress = false;

  // True if error messages are printed: not silent, or silent with -S.
  bool showErrors() const { return !silent || showError; }
};

// curl's --max-redirs when none is given.
constexpr int64_t kDefaultMaxRedirs = 50;

// The result of reading the command line: the options, or the exit code to stop with (after
// --help, or a usage error already printed).
struct CommandLine {
  Options options;
  std::optional<int> exitCode;
};

// Reads the command line `args` (without the program name) as curl reads its own. Files named by
// "-d @file", "--data-binary @file", "-H @file" and "-w @file" are read now ("@-" reads `in`),
// as curl does; -d strips CR and LF from a file's content, --data-binary keeps every byte. A file
// that cannot be read is a warning on `err` (none with -s), as in curl: a data file then sends no
// data, a header or write-out file adds nothing. --help goes to `out`; usage errors print curl's
// messages to `err` and give exit code 2.
CommandLine parseCommandLine(const std::vector<std::string>& args, std::istream& in,
                             std::ostream& out, std::ostream& err);

}  // namespace tern::tool
