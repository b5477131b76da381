// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#include "transfer_events.h"

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <string>
#include <utility>

#include "http/message_framing.h"
#include "message_text.h"
#include "tern/certificate.h"
#include "tern/credentials.h"
#include "tern/exceptions.h"
#include "tern/handshake.h"
#include "tern/proxy.h"
#include "tern/route.h"
#include "tern/tls_version.h"

namespace tern::tool {
namespace {

std::string protocolName(std::optional<Protocol> protocol) {
  return protocol ? std::string(toString(*protocol)) : std::string("null");
}

std::string addressList(const std::vector<InetAddress>& addresses, bool ipv6) {
  std::string list;
  for (const InetAddress& address : addresses) {
    if (address.isIpv6() != ipv6) continue;
    list += (list.empty() ? "" : ", ") + address.hostAddress();
  }
  return list.empty() ? "(none)" : list;
}

// A certificate's date as curl prints it (OpenSSL's ASN1_TIME_print): "Dec  1 20:28:00 2026 GMT".
std::string certificateDate(std::chrono::system_clock::time_point time) {
  std::time_t seconds = std::chrono::system_clock::to_time_t(time);
  std::tm utc{};
  gmtime_r(&seconds, &utc);
  char text[64];
  std::strftime(text, sizeof(text), "%b %e %H:%M:%S %Y GMT", &utc);
  return text;
}

// "host:port", an IPv6 address in brackets.
std::string hostPort(const std::string& host, int port) {
  return (host.find(':') != std::string::npos ? "[" + host + "]" : host) + ":" +
         std::to_string(port);
}

// What curl -v says after "Connected to" about a new connection through `route`'s proxy (none
// for a direct route): the SOCKS5 handshake, or the CONNECT tunnel. tern's proxy handshakes send
// no events, so these are said once the connection is made, in curl's order. (For socks5:// with
// a host name this looks the name up again, as the library did: only with -v.)
std::string proxyLines(const Route& route) {
  const Proxy& proxy = route.proxy();
  const HttpUrl& url = route.address().url();
  const std::string auth = proxy.hasCredentials()
                               ? "* Proxy auth using Basic with user '" + proxy.username() + "'\n"
                               : "";
  switch (proxy.type()) {
    case Proxy::Type::DIRECT:
      return "";
    case Proxy::Type::SOCKS: {
      std::string target = hostPort(url.host(), url.port()) + " (remotely resolved)";
      if (!proxy.remoteDns()) {
        // The library sent the first address the client's Dns gives (RealConnection).
        std::optional<InetAddress> address = InetAddress::parse(url.host());
        try {
          if (!address) address = route.address().dns()->lookup(url.host()).at(0);
        } catch (const std::exception&) {  // The connection is made: say nothing wrong.
          return "";
        }
        target = (address->isIpv6() ? "" : "IPv4 ") + hostPort(address->hostAddress(), url.port()) +
                 " (locally resolved)";
      }
      return "* SOCKS5 connect to " + target + "\n* SOCKS5 request granted.\n";
    }
    case Proxy::Type::HTTP:
    case Proxy::Type::HTTPS:
      if (!route.requiresTunnel()) return auth;
      return "* Establish HTTP proxy tunnel to " + hostPort(url.host(), url.port()) + "\n" + auth +
             "* CONNECT phase completed\n";
  }
  return "";
}

// What curl -v says it tries for `address`: "127.0.0.1:8080", or a Unix socket's path with
// port 0 ("/run/app.sock:0"; an abstract name, which starts with a NUL for curl, as "").
std::string tryingTarget(const InetSocketAddress& address) {
  if (!address.isUnixDomain()) return address.toString();
  return (address.isAbstract() ? "" : address.unixPath()) + ":0";
}

// True if `route` goes to another host by the address's connect-to rules.
bool connectsElsewhere(const Route& route) {
  const Address& address = route.address();
  if (!route.proxy().isDirect() || address.unixSocket()) return false;
  const ConnectTo* rule =
      ConnectTo::match(address.connectTo(), address.url().host(), address.url().port());
  return rule != nullptr && !rule->toHost.empty();
}

}  // namespace

// One call's listener: records into its CallTrace and prints -v and --trace-events lines.
class TransferEventListener final : public EventListener {
 public:
  TransferEventListener(TransferEvents& session, std::shared_ptr<CallTrace> trace)
      : session_(session), trace_(std::move(trace)) {}

  void callStart(Call&) override { record("callStart"); }
  void dispatcherQueueStart(Call&, Dispatcher&) override { record("dispatcherQueueStart"); }
  void dispatcherQueueEnd(Call&, Dispatcher&) override { record("dispatcherQueueEnd"); }
  void proxySelectStart(Call&, const HttpUrl& url) override {
    port_ = url.port();
    if (const ConnectTo* rule = ConnectTo::match(session_.connectTo_, url.host(), url.port());
        rule != nullptr && rule->toPort != 0) {
      port_ = rule->toPort;  // The name looked up next is --connect-to's, at its port.
    }
    record("proxySelectStart", url.toString());
  }
  void proxySelectEnd(Call&, const HttpUrl&, const std::vector<std::string>& proxies) override {
    std::string list;
    for (const std::string& proxy : proxies) list += (list.empty() ? "" : ", ") + proxy;
    record("proxySelectEnd", "[" + list + "]");
    // "HTTP @ proxy:3128": the name looked up next is the proxy's, at its port.
    if (!proxies.empty() && proxies.front() != "DIRECT") {
      const std::string& first = proxies.front();
      port_ = std::atoi(first.c_str() + first.rfind(':') + 1);
    }
  }
  void dnsStart(Call&, const std::string& domainName) override { record("dnsStart", domainName); }
  void dnsEnd(Call&, const std::string& domainName,
              const std::vector<InetAddress>& addresses) override {
    std::string list;
    for (const InetAddress& address : addresses) {
      list += (list.empty() ? "" : ", ") + address.hostAddress();
    }
    record("dnsEnd", domainName + " [" + list + "]");
    verbose("* Host " + domainName + ":" + std::to_string(port_) + " was resolved.\n" +
            "* IPv6: " + addressList(addresses, true) + "\n" +
            "* IPv4: " + addressList(addresses, false) + "\n");
  }
  void connectStart(Call&, const InetSocketAddress& address) override {
    record("connectStart", address.toString());
    verbose("*   Trying " + tryingTarget(address) + "...\n");
  }
  void secureConnectStart(Call&) override { record("secureConnectStart"); }
  void secureConnectEnd(Call&, const Handshake* handshake) override {
    if (handshake == nullptr) {
      record("secureConnectEnd", "null");
      return;
    }
    std::string version(javaName(handshake->tlsVersion()));
    std::string cipher(handshake->cipherSuite().javaName());
    record("secureConnectEnd", version + " " + cipher);
    // curl's lines, printed after "Connected to" once the connection has its number (and
    // the protocol ALPN chose, at connectEnd).
    tlsLines_ = "* ALPN: offers " + session_.alpnOffers_ + "\n" + "* SSL connection using " +
                version + " / " + cipher + "\n";
    tlsCertificateLines_.clear();
    if (!handshake->peerCertificates().empty()) {
      const Certificate& leaf = handshake->peerCertificates().front();
      tlsCertificateLines_ = "* Server certificate:\n*  subject: " + leaf.subject() + "\n" +
                             "*  start date: " + certificateDate(leaf.notBefore()) + "\n" +
                             "*  expire date: " + certificateDate(leaf.notAfter()) + "\n" +
                             "*  issuer: " + leaf.issuer() + "\n" +
                             "*  SSL certificate verify ok.\n";
    }
  }
  void connectEnd(Call&, const InetSocketAddress& address,
                  std::optional<Protocol> protocol) override {
    record("connectEnd", address.toString() + " " + protocolName(protocol));
    if (!tlsLines_.empty()) {
      const bool h2 = protocol == Protocol::HTTP_2;
      const bool h3 = protocol == Protocol::HTTP_3;
      if (h3) {
        // QUIC's handshake offered "h3" alone, not the TCP offers made at secureConnectEnd.
        const std::string tcpOffers = "* ALPN: offers " + session_.alpnOffers_ + "\n";
        if (tlsLines_.starts_with(tcpOffers)) {
          tlsLines_.replace(0, tcpOffers.size(), "* ALPN: offers h3\n");
        }
      }
      tlsLines_ += std::string("* ALPN: server accepted ") +
                   (h3   ? "h3"
                    : h2 ? "h2"
                         : "http/1.1") +
                   "\n" + tlsCertificateLines_;
      tlsCertificateLines_.clear();
    }
    std::lock_guard lock(session_.mutex_);
    ++trace_->newConnections;
    connectedJustNow_ = true;
  }
  void connectFailed(Call&, const InetSocketAddress& address, std::optional<Protocol>,
                     const IOException& ioe) override {
    record("connectFailed", address.toString() + " " + ioe.what());
    // The proxy took the connection and then refused (tern's message ends the transfer).
    if (dynamic_cast<const ProxyException*>(&ioe) != nullptr) return;
    if (address.isUnixDomain()) {
      // curl's words for a socket that is not there or refuses: "No such file or directory".
      std::string_view why = ioe.what();
      const std::string prefix = "Failed to connect to " + address.describe() + ": ";
      if (why.starts_with(prefix)) why.remove_prefix(prefix.size());
      verbose("* Immediate connect fail for " + (address.isAbstract() ? "" : address.unixPath()) +
              ": " + std::string(why) + "\n");
      return;
    }
    verbose("* connect to " + address.address().hostAddress() + " port " +
            std::to_string(address.port()) + " failed: " + ioe.what() + "\n");
  }
  void connectionAcquired(Call&, Connection& connection) override {
    const InetSocketAddress& remote = connection.remoteAddress();
    record("connectionAcquired", remote.toString());
    protocol_ = connection.protocol();
    // Through a proxy, curl names the proxy's host: the host it connected to.
    const Route& route = connection.route();
    const Proxy& proxy = route.proxy();
    const std::string& host = proxy.isDirect() ? route.address().url().host() : proxy.host();
    // curl 7.88 names a --connect-to host "(nil)" (it never fills its display name) in
    // "Connected to" and "left intact"; "Re-using" names the URL's.
    const std::string connectedHost = connectsElsewhere(route) ? "(nil)" : host;
    usesHttpProxy_ = (proxy.type() == Proxy::Type::HTTP || proxy.type() == Proxy::Type::HTTPS) &&
                     !route.requiresTunnel();
    proxyAuthorization_ = usesHttpProxy_ && proxy.hasCredentials()
                              ? Credentials::basic(proxy.username(), proxy.password())
                              : "";
    // Before the lock: it may look a name up. (A call's own events never overlap, so
    // connectedJustNow_ is this thread's to read.)
    const std::string proxySteps =
        session_.debug_ && connectedJustNow_ ? proxyLines(route) : std::string();
    std::string line;
    {
      std::lock_guard lock(session_.mutex_);
      if (remote.isUnixDomain()) {
        // curl: the socket's path, the URL's port, no local address.
        trace_->remoteIp = remote.isAbstract() ? "" : remote.unixPath();
        trace_->remotePort = route.address().url().port();
        trace_->localIp.clear();
        trace_->localPort = 0;
      } else {
        trace_->remoteIp = remote.address().hostAddress();
        trace_->remotePort = remote.port();
        InetSocketAddress local = connection.localAddress();
        trace_->localIp = local.address().hostAddress();
        trace_->localPort = local.port();
      }
      trace_->protocol = connection.protocol();
      connection_ = session_.connectionNumberLocked(connection, connectedJustNow_);
      if (connectedJustNow_) {
        const std::string connected = "* Connected to " + connectedHost + " (" + trace_->remoteIp +
                                      ") port " + std::to_string(trace_->remotePort) + " (#" +
                                      std::to_string(connection_) + ")\n";
        // curl says "Connected to" again once a SOCKS5 proxy has connected onwards.
        const bool socks = proxy.type() == Proxy::Type::SOCKS && !proxySteps.empty();
        line = connected + proxySteps + (socks ? connected : "") + tlsLines_;
      } else {
        line = "* Re-using existing connection #" + std::to_string(connection_) + " with host " +
               host + "\n";
      }
      connectedJustNow_ = false;
      tlsLines_.clear();
      announced_ = true;
    }
    host_ = connectedHost;
    urlHost_ = host;
    verbose(line);
  }
  void connectionReleased(Call&, Connection&) override {
    record("connectionReleased");
    if (connection_ < 0) return;
    // A redirect to another host lets go of the connection followRedirect() already said was
    // left intact: curl says it once.
    if (std::exchange(keptAnnounced_, false)) return;
    // curl's last line for a connection it keeps, or the one it closes (Connection: close),
    // which curl writes once the transfer is done: after the body's data lines, which the tool
    // writes after the client has read the body and released the connection.
    std::lock_guard lock(session_.mutex_);
    pendingRelease_ = closing_ ? "* Closing connection " + std::to_string(connection_) + "\n"
                               : "* Connection #" + std::to_string(connection_) + " to host " +
                                     host_ + " left intact\n";
  }
  // Writes the line connectionReleased() held back, if any.
  void finish() { verbose(""); }
  void requestHeadersStart(Call&) override {
    record("requestHeadersStart");
    keptAnnounced_ = false;  // The redirect stayed on the connection.
    // A follow-up on the connection the call already holds.
    if (!announced_ && connection_ >= 0) {
      verbose("* Re-using existing connection #" + std::to_string(connection_) + " with host " +
              urlHost_ + "\n");
    }
    announced_ = false;
  }
  void requestHeadersEnd(Call&, const Request& request) override {
    record("requestHeadersEnd", request.method() + " " + request.url().toString());
    std::string head = requestHead(request, protocol_, usesHttpProxy_);
    if (!proxyAuthorization_.empty() && !request.header("Proxy-Authorization")) {
      // The codec adds the proxy's credentials after the request's headers.
      head.insert(head.size() - 2, "Proxy-Authorization: " + proxyAuthorization_ + "\r\n");
    }
    {
      std::lock_guard lock(session_.mutex_);
      trace_->requestBytes += static_cast<int64_t>(head.size());
    }
    if (session_.debug_) session_.debug_->headerOut(head);
  }
  void requestBodyStart(Call&) override { record("requestBodyStart"); }
  void requestBodyEnd(Call&, int64_t byteCount) override {
    record("requestBodyEnd", std::to_string(byteCount));
    std::lock_guard lock(session_.mutex_);
    trace_->requestBytes += byteCount;
  }
  void requestFailed(Call&, const IOException& ioe) override {
    record("requestFailed", ioe.what());
  }
  void responseHeadersStart(Call&) override { record("responseHeadersStart"); }
  void responseHeadersEnd(Call&, const Response& response) override {
    record("responseHeadersEnd", std::to_string(response.code()));
    closing_ = internal::hasToken(response.headers(), "Connection", "close");
    if (session_.debug_ == nullptr) return;
    std::string head =
        responseHead(response.protocol(), response.code(), response.message(), response.headers());
    // curl reports each line as it reads it.
    for (size_t start = 0; start < head.size();) {
      size_t end = head.find('\n', start) + 1;
      session_.debug_->headerIn(std::string_view(head).substr(start, end - start));
      start = end;
    }
  }
  void responseBodyStart(Call&) override { record("responseBodyStart"); }
  void responseBodyEnd(Call&, int64_t byteCount) override {
    record("responseBodyEnd", std::to_string(byteCount));
  }
  void responseFailed(Call&, const IOException& ioe) override {
    record("responseFailed", ioe.what());
  }
  void callEnd(Call&) override { record("callEnd"); }
  void followRedirect(const Response& redirect, const Request& next, bool switchedToGet) {
    record("followRedirect", std::to_string(redirect.code()) + " -> " + next.url().toString());
    // The call keeps its connection for the next hop; curl says it left it intact first.
    std::string kept = connection_ >= 0 && !closing_
                           ? "* Connection #" + std::to_string(connection_) + " to host " + host_ +
                                 " left intact\n"
                           : "";
    keptAnnounced_ = !kept.empty();
    verbose(kept + "* Issue another request to this URL: '" + next.url().toString() + "'\n" +
            (switchedToGet ? "* Switch from POST to GET\n" : ""));
  }
  void callFailed(Call&, const IOException& ioe) override {
    record("callFailed", ioe.what());
    if (connection_ >= 0) verbose("* Closing connection " + std::to_string(connection_) + "\n");
  }
  void canceled(Call&) override { record("canceled"); }
  // --cache's outcome for each hop, in -v's words (tern's own lines; curl has no cache).
  void satisfactionFailure(Call&, const Response& r) override {
    record("satisfactionFailure", std::to_string(r.code()));
    verbose("* tern cache: unsatisfiable (only-if-cached)\n");
  }
  void cacheHit(Call&, const Response& r) override {
    record("cacheHit", std::to_string(r.code()));
    const char* how = "hit\n";
    if (std::exchange(validating_, false)) {
      // After cacheConditionalHit: the server's 304, or (stale-if-error) a stored response
      // standing in for a server that failed.
      const Response* network = r.networkResponse();
      how = network != nullptr && network->code() == 304
                ? "conditional hit (validated with the server)\n"
                : "hit (stale, the server failed)\n";
    }
    verbose(std::string("* tern cache: ") + how);
  }
  void cacheMiss(Call&) override {
    record("cacheMiss");
    verbose(std::exchange(validating_, false)
                ? "* tern cache: miss (the server sent a new response)\n"
                : "* tern cache: miss\n");
  }
  void cacheConditionalHit(Call&, const Response& r) override {
    record("cacheConditionalHit", std::to_string(r.code()));
    validating_ = true;
    verbose("* tern cache: stale, validating with the server\n");
  }
  void retryDecision(Call&, const IOException& exception, bool retry) override {
    record("retryDecision", std::string(retry ? "retry: " : "no retry: ") + exception.what());
  }
  void followUpDecision(Call&, const Response& response, const Request* next) override {
    record("followUpDecision",
           std::to_string(response.code()) + " -> " + (next ? next->url().toString() : "none"));
  }

 private:
  void record(const char* name, std::string detail = {}) {
    Clock::time_point now = Clock::now();
    std::lock_guard lock(session_.mutex_);
    if (trace_->events.empty()) callStart_ = now;
    trace_->events.push_back({name, std::move(detail), now});
    if (session_.trace_ == nullptr) return;
    const std::string& text = trace_->events.back().detail;
    char ms[32];
    std::snprintf(ms, sizeof(ms), "%.3f",
                  std::chrono::duration<double, std::milli>(now - callStart_).count());
    *session_.trace_ << ms << ' ' << trace_->index << ' ' << name << (text.empty() ? "" : " ")
                     << text << '\n'
                     << std::flush;
  }

  // curl's informational lines, given as "* " lines (-v's spelling); `text` ends with '\n'. The
  // line connectionReleased() held back comes first.
  void verbose(std::string_view text) {
    if (session_.debug_ == nullptr) return;
    std::string held;
    {
      std::lock_guard lock(session_.mutex_);
      held = std::exchange(pendingRelease_, {});
    }
    std::string lines;
    for (std::string_view part : {std::string_view(held), text}) {
      for (size_t start = 0; start < part.size();) {
        size_t end = part.find('\n', start) + 1;
        lines += part.substr(start + 2, end - start - 2);
        start = end;
      }
    }
    if (!lines.empty()) session_.debug_->info(lines);
  }

  TransferEvents& session_;
  const std::shared_ptr<CallTrace> trace_;
  Clock::time_point callStart_{};
  int port_ = 0;                   // The port of the address being planned (for -v's DNS line).
  bool connectedJustNow_ = false;  // A connectEnd came and its connectionAcquired has not.
  bool announced_ = false;         // -v said which connection carries the next exchange.
  int connection_ = -1;            // The number of the connection the call holds.
  std::string host_;               // Its host, as "left intact" names it.
  bool keptAnnounced_ = false;     // followRedirect() said the connection was left intact.
  std::string urlHost_;            // Its host, as "Re-using" names it.
  Protocol protocol_ = Protocol::HTTP_1_1;  // The acquired connection's, for -v's request line.
  bool usesHttpProxy_ = false;       // It goes to an HTTP proxy without a tunnel: absolute form.
  std::string proxyAuthorization_;   // The Proxy-Authorization the codec adds to each request.
  std::string tlsLines_;             // -v's lines about the handshake of the connection just made.
  std::string tlsCertificateLines_;  // Its certificate's, after the protocol ALPN accepted.
  bool closing_ = false;             // The last response said "Connection: close".
  std::string pendingRelease_;       // -v's line for the released connection, until finish().
  bool validating_ = false;          // The cache is validating its response with the server.
};

TransferEvents::TransferEvents(std::shared_ptr<DebugOutput> debug, std::ostream* trace,
                               bool keepTraces)
    : debug_(std::move(debug)), trace_(trace), keepTraces_(keepTraces) {}

std::shared_ptr<EventListener> TransferEvents::create(Call& call) {
  auto trace = std::make_shared<CallTrace>();
  trace->url = call.request().url().toString();
  trace->start = Clock::now();
  trace->events.reserve(24);  // A call without redirects or retries reports about 16 events.
  {
    std::lock_guard lock(mutex_);
    trace->index = callCount_++;
    if (!keepTraces_) traces_.clear();
    traces_.push_back(trace);
  }
  auto listener = std::make_shared<TransferEventListener>(*this, std::move(trace));
  std::lock_guard lock(mutex_);
  // Without keepTraces the listeners of calls that ended go, a sweep each time the map doubled:
  // sweeping at every call cost a walk of every call still queued (-Z makes them all at once).
  if (!keepTraces_ && listeners_.size() >= 2 * listenersAfterSweep_) {
    std::erase_if(listeners_, [](const auto& entry) { return entry.second.expired(); });
    listenersAfterSweep_ = std::max<size_t>(listeners_.size(), 32);
  }
  listeners_[&call] = listener;
  return listener;
}

void TransferEvents::followRedirect(const Call& call, const Response& redirect, const Request& next,
                                    bool switchedToGet) {
  std::shared_ptr<TransferEventListener> listener;
  {
    std::lock_guard lock(mutex_);
    auto it = listeners_.find(&call);
    if (it != listeners_.end()) listener = it->second.lock();
  }
  if (listener) listener->followRedirect(redirect, next, switchedToGet);
}

void TransferEvents::finish(const Call& call) {
  std::shared_ptr<TransferEventListener> listener;
  {
    std::lock_guard lock(mutex_);
    auto it = listeners_.find(&call);
    if (it != listeners_.end()) listener = it->second.lock();
  }
  if (listener) listener->finish();
}

std::vector<std::shared_ptr<const CallTrace>> TransferEvents::traces() const {
  std::lock_guard lock(mutex_);
  return {traces_.begin(), traces_.end()};
}

std::shared_ptr<CallTrace> TransferEvents::lastTrace() const {
  std::lock_guard lock(mutex_);
  return traces_.empty() ? nullptr : traces_.back();
}

int TransferEvents::connectionNumberLocked(const Connection& connection, bool isNew) {
  auto it = connectionNumbers_.find(&connection);
  if (isNew || it == connectionNumbers_.end()) {
    int number = nextConnectionNumber_++;
    connectionNumbers_[&connection] = number;
    return number;
  }
  return it->second;
}

}  // namespace tern::tool
