// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#include "transfer.h"

#include <sys/time.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <cstdlib>
#include <exception>
#include <filesystem>
#include <memory>
#include <mutex>
#include <optional>
#include <span>
#include <sstream>
#include <string>
#include <string_view>
#include <thread>
#include <typeinfo>
#include <vector>

#include "alt_svc_setup.h"
#include "cookie_engine.h"
#include "exit_code.h"
#include "hsts_cache.h"
#include "io/ascii.h"
#include "io/content_decoding.h"
#include "output.h"
#include "redirect_follower.h"
#include "request_factory.h"
#include "tern/buffered_source.h"
#include "tern/call.h"
#include "tern/callback.h"
#include "tern/digest_authenticator.h"
#include "tern/dispatcher.h"
#include "tern/dns.h"
#include "tern/dns_over_https.h"
#include "tern/exceptions.h"
#include "tern/inet_address.h"
#include "tern/response.h"
#include "tls_setup.h"
#include "transfer_timing.h"
#include "waterfall.h"
#include "write_out.h"

namespace tern::tool {
namespace {

using Clock = std::chrono::steady_clock;

// The Client refuses positive timeouts under a millisecond.
constexpr std::chrono::nanoseconds kShortestTimeout = std::chrono::milliseconds(1);
constexpr size_t kChunkSize = size_t{64} * 1024;
// How long a run with --cache waits at its end for the cache's background revalidations.
constexpr std::chrono::seconds kBackgroundRevalidationWait{5};

std::chrono::nanoseconds seconds(double value) {
  auto duration =
      std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::duration<double>(value));
  return std::max(duration, kShortestTimeout);
}

// -4/-6: `dns`'s addresses of one family; a name without one is not found (exit 6). (An IP
// literal of the other family is refused before the call, as curl's exit 7.)
std::shared_ptr<Dns> familyDns(std::shared_ptr<Dns> dns, bool ipv6) {
  return Dns::of([dns = std::move(dns), ipv6](const std::string& hostname) {
    std::vector<InetAddress> addresses = dns->lookup(hostname);
    std::erase_if(addresses, [&](const InetAddress& a) { return a.isIpv6() != ipv6; });
    if (!addresses.empty()) return addresses;
    throw UnknownHostException("Could not resolve host: " + hostname);
  });
}

// --doh-url: names resolved over DNS over HTTPS. As curl, the DoH server is verified with the
// transfer's --cacert (or the system's roots) whatever -k says, and not at all with
// --doh-insecure; its queries take the transfer's timeouts. A name it cannot resolve is exit 6.
std::shared_ptr<Dns> dohDns(const Options& options, std::ostream& err) {
  Options doh = options;
  doh.insecure = options.dohInsecure;
  doh.pinnedPublicKeys.clear();         // The origin's pins (curl's --pinnedpubkey is not DoH's).
  if (doh.insecure) doh.silent = true;  // Warned below, naming DoH.
  Client::Builder builder;
  configureTls(doh, builder, err);
  if (options.connectTimeout && *options.connectTimeout > 0) {
    builder.connectTimeout(seconds(*options.connectTimeout));
  }
  if (options.maxTime && *options.maxTime > 0) builder.callTimeout(seconds(*options.maxTime));
  if (options.dohInsecure && !options.silent) {
    err << "tern: warning: --doh-insecure: the DoH server's certificate is not verified\n";
  }
  return DnsOverHttps::Builder()
      .client(builder.build())
      .url(HttpUrl::get(*options.dohUrl))
      .includeIPv6(options.ipResolve != Options::IpResolve::kIpv4)
      .resolvePrivateAddresses(true)  // curl resolves every name it is given over DoH.
      .build();
}

// --cache's Cache, opened now so that a directory it cannot have is known before any transfer:
// the run then goes without a cache (each call would go to the network anyway) and -v says
// why. Null without --cache.
std::shared_ptr<Cache> openCache(const Options& options, DebugOutput* debug) {
  if (!options.cacheDir) return nullptr;
  auto cache = std::make_shared<Cache>(*options.cacheDir, options.cacheSize);
  try {
    cache->initialize();
  } catch (const std::exception& e) {
    // Safe to go on: a cache only saves fetches, and curl's exit codes know of none.
    if (debug != nullptr) debug->info(std::string("tern cache: not used: ") + e.what() + "\n");
    return nullptr;
  }
  return cache;
}

Client makeClient(const Options& options, const ProxySetup& proxies,
                  const ConnectToTable& connectTo, std::shared_ptr<ResolveTable> resolve,
                  const std::shared_ptr<NetworkObserver>& observer,
                  std::shared_ptr<TransferEvents> events,
                  const std::shared_ptr<RedirectFollower>& follower, std::shared_ptr<Cache> cache,
                  const std::shared_ptr<CookieEngine>& cookies,
                  const std::shared_ptr<HstsCache>& hsts, DebugOutput* debug, std::ostream& err) {
  Client::Builder builder;
  configureTls(options, builder, err);
  // curl has no read or write timeout: a slow transfer runs until -m stops it.
  builder.readTimeout(std::chrono::nanoseconds::zero());
  builder.writeTimeout(std::chrono::nanoseconds::zero());
  // curl takes 0 as "the default" for --connect-timeout and as "no limit" for -m.
  if (options.connectTimeout && *options.connectTimeout > 0) {
    builder.connectTimeout(seconds(*options.connectTimeout));
  }
  if (options.maxTime && *options.maxTime > 0) {
    builder.callTimeout(seconds(*options.maxTime));
  }
  switch (options.httpVersion) {
    case Options::HttpVersion::kHttp11:
      events->setAlpnOffers("http/1.1");
      builder.protocols(withAltSvcDiscovery(options, {Protocol::HTTP_1_1}));
      break;
    case Options::HttpVersion::kHttp2PriorKnowledge:
      builder.protocols({Protocol::H2_PRIOR_KNOWLEDGE});
      break;
    case Options::HttpVersion::kHttp3:
      // curl's: HTTP/3 to each https URL's own host and port, TCP raced against it.
      builder.protocols({Protocol::HTTP_3, Protocol::HTTP_2, Protocol::HTTP_1_1});
      builder.addQuicHint("*", 0, 0);
      break;
    case Options::HttpVersion::kHttp3Only:
      builder.protocols({Protocol::HTTP_3});
      break;
    case Options::HttpVersion::kDefault:
    case Options::HttpVersion::kHttp2:
      builder.protocols(withAltSvcDiscovery(options, {Protocol::HTTP_2, Protocol::HTTP_1_1}));
      break;
  }
  useAltSvcFile(options, builder, debug);
  std::shared_ptr<Dns> dns = options.dohUrl ? dohDns(options, err) : Dns::system();
  if (options.ipResolve != Options::IpResolve::kAny) {
    dns = familyDns(std::move(dns), options.ipResolve == Options::IpResolve::kIpv6);
  }
  if (resolve) dns = ResolveTable::dns(std::move(resolve), std::move(dns));
  builder.dns(std::move(dns));
  // Set even when it is the environment's, so the client and ProxySetup::select() agree.
  builder.proxySelector(proxies.selector());
  builder.connectTo(connectTo.rules());
  events->setConnectTo(connectTo.rules());
  if (options.abstractUnixSocket) {
    builder.abstractUnixSocket(options.unixSocket);
  } else {
    builder.unixSocket(options.unixSocket);
  }
  if (options.parallel) {
    // -Z: as many calls at once as --parallel-max allows, to one host or many.
    auto dispatcher = std::make_shared<Dispatcher>();
    dispatcher->setMaxRequests(options.parallelMax);
    dispatcher->setMaxRequestsPerHost(options.parallelMax);
    builder.dispatcher(std::move(dispatcher));
  }
  // curl follows redirects only with -L, and its own way (see redirect_follower.h).
  builder.followRedirects(false);
  if (options.digest && options.user) {
    // "user:password"; without ':', an empty password (as -u's Basic).
    size_t colon = options.user->find(':');
    builder.authenticator(std::make_shared<DigestAuthenticator>(
        options.user->substr(0, colon),
        colon == std::string::npos ? "" : options.user->substr(colon + 1)));
  }
  if (follower) builder.addInterceptor(follower);
  if (hsts) {
    builder.hsts(hsts->store());
    // After the follower: it sees each hop.
    if (std::shared_ptr<Interceptor> notice = hsts->switchNotice()) builder.addInterceptor(notice);
  }
  if (cache) {
    builder.cache(std::move(cache));
    builder.addInterceptor(observer->cacheSide());  // After the follower: it sees each hop.
  }
  if (cookies) {
    builder.cookieJar(cookies);
    // Before the observer, so -v shows the Cookie header as sent.
    if (std::shared_ptr<Interceptor> data = cookies->dataInterceptor()) {
      builder.addNetworkInterceptor(std::move(data));
    }
  }
  builder.addNetworkInterceptor(observer);
  builder.eventListenerFactory(std::move(events));
  return builder.build();
}

// -L's redirect follower, or null without -L.
std::shared_ptr<RedirectFollower> makeFollower(const Options& options,
                                               const std::shared_ptr<TransferEvents>& events,
                                               std::shared_ptr<DebugOutput> debug) {
  if (!options.location) return nullptr;
  auto listener = [events](const Call& call, const Response& redirect, const Request& next,
                           bool switchedToGet) {
    events->followRedirect(call, redirect, next, switchedToGet);
  };
  return std::make_shared<RedirectFollower>(
      options.maxRedirs.value_or(kDefaultMaxRedirs), options.method, impliedMethod(options),
      std::move(listener), std::move(debug), options.locationTrusted,
      options.referer && options.referer->find(";auto") != std::string::npos);
}

// -C's offset: a number, or "-" for the size of `fileName` (0 if it is stdout or absent).
int64_t resumeOffset(const std::string& continueAt, const std::string& fileName) {
  if (continueAt != "-") return std::max<int64_t>(0, std::strtoll(continueAt.c_str(), nullptr, 10));
  std::error_code error;
  auto size = fileName.empty() ? 0 : std::filesystem::file_size(fileName, error);
  return error ? 0 : static_cast<int64_t>(size);
}

// --limit-rate's speed: bytes a second, with curl's suffixes K, M, G (1024-based); 0 if it is not
// a number.
int64_t bytesPerSecond(const std::string& text) {
  char* end = nullptr;
  double value = std::strtod(text.c_str(), &end);
  if (end == text.c_str() || value <= 0) return 0;
  switch (*end) {
    case 'k':
    case 'K':
      value *= 1024;
      break;
    case 'm':
    case 'M':
      value *= 1024 * 1024;
      break;
    case 'g':
    case 'G':
      value *= 1024.0 * 1024 * 1024;
      break;
    default:
      break;
  }
  return static_cast<int64_t>(value);
}

// curl's warning when a body with a NUL byte would go to a terminal; the transfer then fails
// with exit 23 and no message of its own, as curl's.
[[noreturn]] void refuseBinaryOutput() { throw ToolException(kExitWriteError, ""); }

// HTTP/1's body ended before its Content-Length (or its last chunk): curl's exit 18 with its
// message. Other failures while reading (a timeout, a malformed chunk, HTTP/2's resets) are left
// to classifyFailure.
// --compressed: the body decoded from the codings in its Content-Encoding (none: as it came), as
// curl decodes them; a coding curl does not know fails the transfer, exit 61, as curl's. No
// decompression ratio limit: curl has none.
std::unique_ptr<BufferedSource> decodedBody(const Response& response, BufferedSource& body) {
  std::vector<std::string> codings;
  for (const std::string& value : response.headers().values("Content-Encoding")) {
    std::string_view rest = value;
    while (!rest.empty()) {
      std::string_view item = rest.substr(0, rest.find(','));
      rest.remove_prefix(std::min(rest.size(), item.size() + 1));
      size_t first = item.find_first_not_of(" \t");
      if (first == std::string_view::npos) continue;
      item = item.substr(first, item.find_last_not_of(" \t") - first + 1);
      if (internal::equalsIgnoreCase(item, "identity")) continue;
      if (!internal::isDecodableContentCoding(item)) {
        throw ToolException(kExitBadContentEncoding,
                            "Unrecognized content encoding type. libcurl understands deflate, "
                            "gzip, br, zstd content encodings.");
      }
      codings.emplace_back(item);
    }
  }
  if (codings.empty()) return nullptr;
  // Reads the response's body without owning it: the response closes it.
  class BodyView final : public Source {
   public:
    explicit BodyView(BufferedSource& body) : body_(body) {}
    int64_t read(Buffer& sink, int64_t byteCount) override { return body_.read(sink, byteCount); }
    Timeout& timeout() override { return body_.timeout(); }
    void close() override {}

   private:
    BufferedSource& body_;
  };
  return tern::buffer(
      internal::decodingSource(std::make_unique<BodyView>(body), codings, /*maxRatio=*/0));
}

void throwIfCutShort(const IOException& e, const Response& response, int64_t received) {
  if (response.protocol() != Protocol::HTTP_1_1 && response.protocol() != Protocol::HTTP_1_0) {
    return;
  }
  bool endOfStream = dynamic_cast<const EOFException*>(&e) != nullptr ||
                     std::string_view(e.what()).starts_with("unexpected end of stream");
  if (!endOfStream || dynamic_cast<const InterruptedIOException*>(&e) != nullptr) return;
  int64_t length = response.body() != nullptr ? response.body()->contentLength() : -1;
  throw ToolException(
      kExitPartialFile,
      length > received
          ? "transfer closed with " + std::to_string(length - received) + " bytes remaining to read"
          : "transfer closed with outstanding read data remaining");
}

// A connection that ended before any byte of a response: curl's "Empty reply from server" (52).
// The HTTP/1 codec reports it as a plain IOException("unexpected end of stream on URL")
// (exchange_codec.h); HTTP/2's ends are left to classifyFailure.
std::exception_ptr withEmptyReply(std::exception_ptr failure, const ExchangeLog& log) {
  if (!log.responseHeads.empty()) return failure;
  try {
    std::rethrow_exception(failure);
  } catch (const IOException& e) {
    if (typeid(e) == typeid(IOException) &&
        std::string_view(e.what()).starts_with("unexpected end of stream on ") &&
        std::string_view(e.what()).find("HTTP/2") == std::string_view::npos) {
      return std::make_exception_ptr(ToolException(kExitGotNothing, "Empty reply from server"));
    }
  } catch (...) {  // Not an IOException: classifyFailure reads it as it is.
  }
  return failure;
}

// The response's Content-Length as it came in its head (-1: none): curl's size of the download,
// also for HEAD and before a decoder takes the body over.
int64_t headerContentLength(const Response& response) {
  std::optional<std::string> value = response.header("Content-Length");
  if (!value) return -1;
  char* end = nullptr;
  long long length = std::strtoll(value->c_str(), &end, 10);
  return end != value->c_str() && *end == '\0' && length >= 0 ? length : -1;
}

std::chrono::milliseconds millisecondsSince(Clock::time_point start) {
  return std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - start);
}

}  // namespace

TransferRunner::TransferRunner(const Options& options, std::ostream& out, std::ostream& err,
                               Terminal terminal)
    : options_(options),
      out_(out),
      err_(err),
      terminal_(terminal),
      debug_(DebugOutput::forOptions(options, out, err,
                                     terminal.stdoutIsTerminal && options.outputs.empty())),
      resolve_(options.resolve.empty() ? nullptr : std::make_shared<ResolveTable>(options.resolve)),
      proxies_(options),
      connectTo_(options.connectTo),
      observer_(std::make_shared<NetworkObserver>(options, debug_)),
      events_(std::make_shared<TransferEvents>(debug_, options.traceEvents ? &err : nullptr,
                                               options.waterfall || options.demo)),
      follower_(makeFollower(options, events_, debug_)),
      cache_(openCache(options, debug_.get())),
      cookies_(CookieEngine::forOptions(options)),
      hsts_(HstsCache::forOptions(options, debug_)),
      client_(makeClient(options, proxies_, connectTo_, resolve_, observer_, events_, follower_,
                         cache_, cookies_, hsts_, debug_.get(), err)) {}

int TransferRunner::run() {
  int exitCode = runTransfers();
  if (cookies_) cookies_->writeJar(out_, debug_.get());  // -c, as curl: whatever the outcome.
  if (hsts_) hsts_->save(debug_.get());                  // --hsts, likewise.
  saveAltSvcFile(options_, debug_.get());                // --alt-svc, likewise.
  if (cache_) {
    // A stale-while-revalidate response was served at once and is being validated by a call of
    // the library's on the dispatcher: let it store its answer for the next run, but not hold
    // the exit up for long (the tool sets no read timeout).
    const std::shared_ptr<Dispatcher>& dispatcher = client_.dispatcher();
    const Clock::time_point deadline = Clock::now() + kBackgroundRevalidationWait;
    while (dispatcher->runningCallsCount() + dispatcher->queuedCallsCount() > 0 &&
           Clock::now() < deadline) {
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    dispatcher->cancelAll();
    try {
      cache_->close();  // Writes the journal now, so the next run finds this one's entries.
    } catch (const std::exception& e) {
      // Safe to ignore: the entries stored so far stay readable (docs/cache.md, "Guarantees").
      if (debug_) debug_->info(std::string("tern cache: not closed cleanly: ") + e.what() + "\n");
    }
  }
  return exitCode;
}

int TransferRunner::runTransfers() {
  int exitCode = kExitOk;
  uint64_t urlNumber = 0;
  std::vector<Transfer> parallel;
  for (size_t i = 0; i < options_.urls.size(); ++i) {
    const std::string& url = options_.urls[i];
    OutputSpec spec = i < options_.outputs.size() ? options_.outputs[i] : OutputSpec();
    std::optional<UrlGlob> glob;
    try {
      glob = options_.globOff ? UrlGlob::literal(url) : UrlGlob::parse(url);
    } catch (const GlobException& e) {
      // As curl: a bad glob stops everything, even the URLs after it.
      if (options_.showErrors()) {
        err_ << "tern: (" << kExitUrlMalformed << ") " << e.what() << "\n";
      }
      return kExitUrlMalformed;
    }
    for (uint64_t j = 0; j < glob->size(); ++j) {
      Transfer t{spec, glob->at(j), TransferInfo(), FailureContext(), "", 0, Clock::now(),
                 {},   {},          nullptr};
      t.info.url = t.expansion.url;
      t.info.urlNumber = urlNumber++;
      if (options_.parallel) {
        parallel.push_back(std::move(t));
        continue;
      }
      transfer(t);
      report(t.info, out_);
      exitCode = t.info.exitCode;
    }
  }
  if (options_.parallel) exitCode = runParallel(parallel);
  if (options_.waterfall) {
    try {
      writeWaterfallFile(events_->traces(), *options_.waterfall);
    } catch (const std::exception& e) {
      if (options_.showErrors()) err_ << "tern: (" << kExitWriteError << ") " << e.what() << "\n";
      return kExitWriteError;
    }
  }
  return exitCode;
}

std::optional<Request> TransferRunner::prepare(Transfer& t) {
  t.start = Clock::now();
  t.info.urlEffective = t.expansion.url;  // Until the request, and then the response, say better.
  try {
    t.fileName = outputFileName(t.spec, t.expansion, options_.outputDir);
    if (options_.createDirs && !t.fileName.empty()) createDirectories(t.fileName);
    t.info.filenameEffective = t.fileName;
    Request request = buildRequest(options_, t.expansion.url);
    if (options_.continueAt) {
      t.resumeFrom = resumeOffset(*options_.continueAt, t.fileName);
      if (t.resumeFrom > 0 && !options_.range) {
        request = request.newBuilder()
                      .header("Range", "bytes=" + std::to_string(t.resumeFrom) + "-")
                      .build();
      }
    }
    if (resolve_) {
      resolve_->check();
      if (debug_) {
        for (const ResolveTable::Entry& entry : resolve_->entries()) {
          debug_->info("Added " + entry.text + " to DNS cache\n");
        }
      }
    }
    // Where the connection goes: the URL's host and port, or --connect-to's (curl prints its
    // choice before looking anything up). Not with --unix-socket, nor through a proxy (the
    // library applies the rules to direct routes only).
    const Proxy proxy =
        options_.unixSocket.empty() ? proxies_.select(request.url()) : Proxy::direct();
    std::string host = request.url().host();
    int port = request.url().port();
    if (std::optional<ConnectTo> rule = connectTo_.match(host, port);
        rule && options_.unixSocket.empty() && proxy.isDirect()) {
      if (!rule->toHost.empty()) host = rule->toHost;
      if (rule->toPort != 0) port = rule->toPort;
      if (debug_ && !rule->toHost.empty()) debug_->info("Connecting to hostname: " + host + "\n");
      if (debug_ && rule->toPort != 0) {
        debug_->info("Connecting to port: " + std::to_string(port) + "\n");
      }
    }
    if (std::optional<InetAddress> literal = InetAddress::parse(host);
        literal && options_.unixSocket.empty() && options_.ipResolve != Options::IpResolve::kAny &&
        literal->isIpv6() != (options_.ipResolve == Options::IpResolve::kIpv6)) {
      // -6 with an IPv4 address (or -4 with IPv6): curl does not try it.
      throw ToolException(kExitCouldntConnect, "Couldn't connect to server");
    }
    if (resolve_) resolve_->use(host, port);
    t.info.method = request.method();
    t.info.urlEffective = request.url().toString();
    t.context.host = host;
    t.context.port = port;
    t.context.proxy = proxy;  // A Unix socket takes none (curl's CURLOPT_UNIX_SOCKET_PATH).
    if (request.body()) {
      t.info.sizeUpload = std::max<int64_t>(0, request.body()->contentLength());
    }
    return request;
  } catch (...) {
    fail(t, std::current_exception());
    return std::nullopt;
  }
}

std::shared_ptr<Call> TransferRunner::newCall(Transfer& t, const Request& request) {
  std::shared_ptr<Call> call = client_.newCall(request);
  // The client made the call's listener in newCall(), on this thread: its trace is the latest.
  t.trace = events_->lastTrace();
  t.trace->start = t.start;  // -w's times count from the transfer's start, as time_total does.
  observer_->begin(*call);
  return call;
}

void TransferRunner::transfer(Transfer& t) {
  if (options_.retry == 0) {
    attempt(t);
    return;
  }
  // --retry: curl's loop. Each attempt is the whole transfer again, into a fresh output.
  TransferRetry retry(options_);
  const Transfer first = t;
  while (true) {
    // Where a -C attempt's output begins (any other attempt's file is created anew).
    int64_t fileSizeBefore = 0;
    if (options_.continueAt) {
      try {
        std::error_code error;
        std::string name = outputFileName(t.spec, t.expansion, options_.outputDir);
        if (!name.empty()) {
          uintmax_t size = std::filesystem::file_size(name, error);
          if (!error) fileSizeBefore = static_cast<int64_t>(size);
        }
      } catch (const std::exception&) {
        // The attempt fails with the reason.
      }
    }
    attempt(t);
    TransferRetry::Decision decision = retry.next(t.info, t.info.connectionRefused);
    if (!decision.wait) {
      t.info.warning = std::move(decision.warning);  // After the error message, before -w.
      return;
    }
    if (t.info.exitCode != kExitOk) reportError(t.info);
    curlWarning(options_, err_, decision.warning);
    if (!t.fileName.empty() && t.info.sizeDownload > 0) {
      // What this attempt wrote to its file goes, as curl truncates it (-C: to where it began).
      if (!options_.silent) err_ << "Throwing away " << t.info.sizeDownload << " bytes\n";
      if (::truncate(t.fileName.c_str(), fileSizeBefore) != 0) {
        t.info.exitCode = kExitWriteError;
        t.info.errorMessage = "Failed to truncate file";
        return;
      }
    }
    std::this_thread::sleep_for(*decision.wait);
    t = first;
  }
}

void TransferRunner::attempt(Transfer& t) {
  std::optional<Request> request = prepare(t);
  if (!request) {
    end(t);
    return;
  }
  if (std::optional<ProgressMeter::Style> style =
          progressMeterStyle(options_, t.fileName.empty(), terminal_)) {
    // The bar keeps one column free, as curl's does, so that it never wraps.
    if (!meter_) meter_.emplace(err_, *style, std::max(terminal_.columns - 1, 20));
    t.meter = &*meter_;
    t.meter->start(request->body() ? request->body()->contentLength() : -1);
  }
  std::shared_ptr<Call> call = newCall(t, *request);
  try {
    Response response = call->execute();
    t.log = observer_->take(*call);
    receive(t, response, out_);
  } catch (...) {
    t.log = observer_->take(*call);
    fail(t, std::current_exception());
  }
  events_->finish(*call);
  if (t.meter != nullptr) t.meter->finish();
  end(t);
}

int TransferRunner::runParallel(std::vector<Transfer>& transfers) {
  std::mutex mutex;  // Guards `remaining` and writes to out_ and err_.
  std::condition_variable finished;
  size_t remaining = transfers.size();
  // curl -Z (7.88) exits with the code of the failure that completed last; a success after it
  // does not reset it (its parallel_transfers(): "if(tres) result = tres").
  int lastFailure = kExitOk;
  // Writes a finished transfer's output whole, as curl -Z does.
  auto complete = [&](Transfer& t, const std::string& body) {
    end(t);
    std::lock_guard lock(mutex);
    out_ << body;
    report(t.info, out_);
    if (t.info.exitCode != kExitOk) lastFailure = t.info.exitCode;
    if (t.parallelMeter != nullptr) t.parallelMeter->ended(t.meterSlot);
    if (--remaining == 0) finished.notify_all();
  };
  std::vector<std::optional<Request>> requests;
  requests.reserve(transfers.size());
  for (Transfer& t : transfers) requests.push_back(prepare(t));
  // The meter's header and first line come before any transfer's message, as curl's.
  std::optional<ParallelMeter> meter;
  bool anyBodyToStdout = std::ranges::any_of(transfers, [](const Transfer& t) {
    return t.fileName.empty() && t.info.exitCode == kExitOk;
  });
  if (!transfers.empty() && parallelMeterShown(options_, anyBodyToStdout, terminal_)) {
    meter.emplace(transfers.size(), options_.parallelMax);
    err_ << meter->start();
    err_.flush();
  }
  for (size_t i = 0; i < transfers.size(); ++i) {
    Transfer& t = transfers[i];
    t.parallelMeter = meter ? &*meter : nullptr;
    t.meterSlot = i;
    if (!requests[i]) {
      complete(t, "");
      continue;
    }
    std::shared_ptr<Call> call = newCall(t, *requests[i]);
    call->enqueue(Callback::of(
        [this, &t, &complete](Call& call, Response response) {
          t.log = observer_->take(call);
          std::ostringstream body;
          try {
            receive(t, response, body);
          } catch (...) {
            fail(t, std::current_exception());
          }
          if (response.body() != nullptr) response.body()->close();  // Releases the connection.
          events_->finish(call);
          complete(t, body.str());
        },
        [this, &t, &complete](Call& call, const IOException& e) {
          t.log = observer_->take(call);
          // The dispatcher calls this from its catch block, so the exception keeps its type.
          std::exception_ptr failure = std::current_exception();
          fail(t, failure ? failure : std::make_exception_ptr(e));
          events_->finish(call);
          complete(t, "");
        }));
  }
  if (meter) {
    while (std::optional<std::string> line = meter->nextLine()) {
      std::lock_guard lock(mutex);
      err_ << *line;
      err_.flush();
    }
  }
  std::unique_lock lock(mutex);
  finished.wait(lock, [&] { return remaining == 0; });
  if (meter) {
    err_ << meter->finalLine();
    err_.flush();
  }
  return lastFailure;
}

bool TransferRunner::tooManyRedirectsPending(const Response& response) const {
  return follower_ != nullptr && follower_->limitReached(response);
}

void TransferRunner::receive(Transfer& t, Response& response, std::ostream& out) {
  TransferInfo& info = t.info;
  const Request& last = response.request();
  info.method = last.method();
  info.urlEffective = last.url().toString();
  t.context.host = last.url().host();
  t.context.port = last.url().port();
  info.httpCode = response.code();
  info.protocol = response.protocol();
  info.responseHeaders = response.headers();
  if (response.isRedirect()) {
    if (std::optional<std::string> location = response.header("Location")) {
      if (std::optional<HttpUrl> target = last.url().resolve(*location)) {
        info.redirectUrl = target->toString();
      }
    }
  }
  if (t.parallelMeter != nullptr) {
    // curl's meter counts a body's size from its head on, also one that -f or -I will not read.
    t.parallelMeter->sizes(t.meterSlot, headerContentLength(response), info.sizeUpload,
                           info.sizeUpload);
  }
  for (const Response* prior = response.priorResponse(); prior != nullptr;
       prior = prior->priorResponse()) {
    if (prior->isRedirect()) {
      ++info.numRedirects;
    }
  }

  bool tooManyRedirects = tooManyRedirectsPending(response);
  bool httpError = (options_.fail || options_.failWithBody) && response.code() >= 400;
  bool failed = tooManyRedirects || (httpError && !options_.failWithBody);
  bool showHeads = options_.include || options_.head;
  if (t.resumeFrom > 0 && response.code() == 416) {
    return;  // curl: the file is already whole; nothing to write, exit 0.
  }
  if (t.resumeFrom > 0 && response.code() >= 200 && response.code() < 300 &&
      response.code() != 206) {
    throw ToolException(kExitRangeError,
                        "HTTP server doesn't seem to support byte ranges. Cannot resume.");
  }
  if (options_.dumpHeader) {
    // -D: every head as received, to its file or ("-") stdout before the body.
    std::unique_ptr<Output> heads = *options_.dumpHeader == "-"
                                        ? std::make_unique<Output>(out)
                                        : std::make_unique<Output>(*options_.dumpHeader, &files_);
    for (const std::string& head : t.log.responseHeads) heads->write(head);
    heads->finish();
  }
  if (!failed || showHeads) {
    std::unique_ptr<Output> output =
        t.fileName.empty() ? std::make_unique<Output>(out)
                           : std::make_unique<Output>(t.fileName, &files_, t.resumeFrom > 0);
    if (showHeads) {
      for (const std::string& head : t.log.responseHeads) {
        output->write(head);
      }
    }
    if (!failed && !options_.head && response.body() != nullptr) {
      // The request body went out before the response came (tern does not report upload
      // progress as it goes; the meter shows it sent once the response arrives).
      if (t.meter != nullptr) {
        t.meter->setDownloadTotal(response.body()->contentLength());
        t.meter->update(0, info.sizeUpload);
      }
      std::unique_ptr<BufferedSource> decoded;
      if (options_.compressed) decoded = decodedBody(response, response.body()->source());
      BufferedSource& source = decoded ? *decoded : response.body()->source();
      // One chunk per thread for the whole run: a fresh 64 KiB vector per transfer was zeroed
      // every time (a tenth of the tool's time fetching many small URLs).
      thread_local std::vector<std::byte> chunk(kChunkSize);
      bool binaryOk = !t.fileName.empty() || !terminal_.stdoutIsTerminal ||
                      (t.spec.kind == OutputSpec::Kind::kFile && t.spec.fileName == "-");
      const int64_t rate = options_.limitRate ? bytesPerSecond(*options_.limitRate) : 0;
      std::span<std::byte> buffer(chunk);
      if (rate > 0)
        buffer = buffer.first(std::min<size_t>(chunk.size(), std::max<int64_t>(rate / 8, 1)));
      const Clock::time_point bodyStart = Clock::now();
      try {
        for (int64_t n; (n = source.read(buffer)) != -1;) {
          std::string_view bytes(reinterpret_cast<const char*>(chunk.data()),
                                 static_cast<size_t>(n));
          if (!binaryOk && bytes.find('\0') != std::string_view::npos) refuseBinaryOutput();
          if (debug_) debug_->dataIn(bytes);
          output->write(bytes);
          info.sizeDownload += n;
          t.context.bytesReceived = info.sizeDownload;
          if (t.meter != nullptr) t.meter->update(info.sizeDownload, info.sizeUpload);
          if (t.parallelMeter != nullptr) t.parallelMeter->progress(t.meterSlot, info.sizeDownload);
          if (rate > 0) {
            // --limit-rate: no faster on average than `rate`, as curl paces its reads.
            auto due = bodyStart +
                       std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(
                           static_cast<double>(info.sizeDownload) / rate));
            if (due > Clock::now()) std::this_thread::sleep_until(due);
          }
        }
      } catch (const IOException& e) {
        throwIfCutShort(e, response, info.sizeDownload);
        throw;
      }
      response.body()->close();
    }
    output->finish();
    if (options_.remoteTime && !t.fileName.empty()) {
      if (auto modified = response.headers().getDate("Last-Modified")) {
        // -R: the file's times are the document's, as curl sets them.
        timeval times[2];
        times[0].tv_sec = times[1].tv_sec =
            std::chrono::duration_cast<std::chrono::seconds>(modified->time_since_epoch()).count();
        times[0].tv_usec = times[1].tv_usec = 0;
        ::utimes(t.fileName.c_str(), times);  // A file whose time cannot be set keeps its own.
      }
    }
  }
  if (tooManyRedirects) throw TooManyRedirectsException(follower_->maxRedirects());
  if (failed || httpError) {
    throw ToolException(kExitHttpReturnedError,
                        "The requested URL returned error: " + std::to_string(response.code()));
  }
}

void TransferRunner::fail(Transfer& t, std::exception_ptr failure) {
  t.context.elapsed = millisecondsSince(t.start);
  if (t.trace) t.context.protocol = t.trace->protocol;
  failure = withEmptyReply(std::move(failure), t.log);

  TransferError error = classifyFailure(failure, t.context);
  t.info.exitCode = error.exitCode;
  t.info.errorMessage = error.message;
  try {
    std::rethrow_exception(failure);
  } catch (const ConnectException& e) {
    t.info.connectionRefused = std::string_view(e.what()).ends_with("Connection refused");
  } catch (...) {
  }
}

void TransferRunner::end(Transfer& t) {
  TransferInfo& info = t.info;
  if (t.trace) {
    info.numConnects = t.trace->newConnections;
    info.remoteIp = t.trace->remoteIp;
    info.remotePort = t.trace->remotePort;
    info.localIp = t.trace->localIp;
    info.localPort = t.trace->localPort;
    info.sizeRequest = t.trace->requestBytes;
    TransferTimes times = transferTimes(*t.trace);
    info.timeNamelookup = times.namelookup;
    info.timeConnect = times.connect;
    info.timeAppconnect = times.appconnect;
    info.timePretransfer = times.pretransfer;
    info.timeStartTransfer = times.starttransfer;
  }
  for (const std::string& head : t.log.responseHeads) {
    info.sizeHeader += static_cast<int64_t>(head.size());
  }
  info.timeTotal = Clock::now() - t.start;
}

void TransferRunner::report(const TransferInfo& info, std::ostream& out) {
  if (info.exitCode != kExitOk) {
    reportError(info);
  }
  if (!info.warning.empty()) curlWarning(options_, err_, info.warning);
  if (options_.writeOut) {
    writeOut(*options_.writeOut, info, out, err_);
    out.flush();
  }
}

void TransferRunner::reportError(const TransferInfo& info) {
  if (info.errorMessage.empty()) {
    // A binary body refused for the terminal: curl's warning instead of a message.
    if (!options_.silent) {
      err_ << "Warning: Binary output can mess up your terminal. Use \"--output -\" to tell \n"
              "Warning: tern to output it to your terminal anyway, or consider \"--output \n"
              "Warning: <FILE>\" to save to a file.\n";
    }
    return;
  }
  if (options_.showErrors()) {
    out_.flush();  // The body so far comes before the message, as on curl's terminal.
    err_ << "tern: (" << info.exitCode << ") " << info.errorMessage << "\n";
  }
}

}  // namespace tern::tool
