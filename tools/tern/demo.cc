// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#include "demo.h"

#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "call_trace.h"
#include "options.h"
#include "tern/handshake.h"
#include "tern/mockwebserver/mock_response.h"
#include "tern/mockwebserver/mock_web_server.h"
#include "tern/mockwebserver/recorded_request.h"
#include "tern/tls/handshake_certificates.h"
#include "tern/tls/held_certificate.h"
#include "tern/tls_version.h"
#include "transfer.h"
#include "transfer_timing.h"

namespace tern::tool {
namespace {

using mockwebserver::MockResponse;
using mockwebserver::MockWebServer;
using mockwebserver::RecordedRequest;

// What the demo server answers: a page, a JSON document, and a moved page.
MockResponse respond(const RecordedRequest& request) {
  const std::string& path = request.path();
  if (path == "/") {
    return MockResponse::Builder()
        .setHeader("Content-Type", "text/plain")
        .body("Hello from MockWebServer, over TLS in this very process.\n")
        .build();
  }
  if (path == "/api/greeting.json") {
    return MockResponse::Builder()
        .setHeader("Content-Type", "application/json")
        .body("{\"greeting\": \"hello\", \"from\": \"tern --demo\"}\n")
        .build();
  }
  if (path == "/old-page") {
    return MockResponse::Builder().code(301).setHeader("Location", "/new-page").build();
  }
  if (path == "/new-page") {
    return MockResponse::Builder().body("You were redirected here from /old-page.\n").build();
  }
  return MockResponse::Builder().code(404).body("not found\n").build();
}

// A temporary file, removed when this goes out of scope.
class TempFile {
 public:
  explicit TempFile(const std::string& content) {
    std::string pattern =
        (std::filesystem::temp_directory_path() / "tern-demo-root.XXXXXX").string();
    int fd = ::mkstemp(pattern.data());
    if (fd < 0) throw std::runtime_error("tern --demo: cannot create a temporary file");
    ::close(fd);
    path_ = pattern;
    std::ofstream(path_) << content;
  }
  ~TempFile() {
    std::error_code ignored;  // A file left in /tmp is no reason to fail the demo.
    std::filesystem::remove(path_, ignored);
  }
  TempFile(const TempFile&) = delete;
  TempFile& operator=(const TempFile&) = delete;
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

std::string milliseconds(std::chrono::nanoseconds duration) {
  char text[32];
  std::snprintf(text, sizeof(text), "%.1f ms",
                std::chrono::duration<double, std::milli>(duration).count());
  return text;
}

// The detail of the first event named `name` in `trace`, or "".
std::string detailOf(const CallTrace& trace, std::string_view name) {
  for (const TraceEvent& event : trace.events) {
    if (event.name == name) return event.detail;
  }
  return "";
}

void explainCall(std::ostream& out, const CallTrace& trace) {
  TransferTimes times = transferTimes(trace);
  out << "  call " << trace.index << "  " << trace.url << "\n";
  if (trace.connected()) {
    // connectEnd's detail is "ADDRESS PROTOCOL"; secureConnectEnd's "VERSION CIPHER".
    std::string connectEnd = detailOf(trace, "connectEnd");
    std::string protocol = connectEnd.substr(connectEnd.rfind(' ') + 1);
    out << "          opened a connection: TCP connected at " << milliseconds(times.connect)
        << ", TLS handshake done at " << milliseconds(times.appconnect) << ",\n"
        << "          " << detailOf(trace, "secureConnectEnd") << ", ALPN chose " << protocol
        << "\n";
  } else if (trace.reusedConnection()) {
    out << "          reused the pooled connection: no TCP connect, no TLS handshake\n";
  }
  for (const TraceEvent& event : trace.events) {
    if (event.name == "followRedirect") {
      out << "          followed a redirect (" << event.detail << ")\n";
    }
  }
  out << "          request sent at " << milliseconds(times.pretransfer) << ", first byte at "
      << milliseconds(times.starttransfer);
  if (auto end = trace.last("callEnd")) out << ", done at " << milliseconds(trace.since(*end));
  out << "\n";
}

}  // namespace

int runDemo(std::ostream& out) {
  // Certificates made in code: a root, and a certificate for this host signed by it.
  tls::HeldCertificate root =
      tls::HeldCertificate::Builder().certificateAuthority(0).commonName("tern demo root").build();
  tls::HeldCertificate localhost = tls::HeldCertificate::Builder()
                                       .addSubjectAlternativeName("localhost")
                                       .addSubjectAlternativeName("127.0.0.1")
                                       .commonName("localhost")
                                       .signedBy(root)
                                       .build();
  MockWebServer server;
  server.useHttps(tls::HandshakeCertificates::Builder().heldCertificate(localhost).build());
  server.setDispatcher(respond);
  server.start();
  TempFile rootFile(root.certificatePem());

  Options options;
  options.urls = {server.url("/").toString(), server.url("/api/greeting.json").toString(),
                  server.url("/old-page").toString()};
  options.traceEvents = true;
  options.caCert = rootFile.path();
  options.writeOut = "-> %{http_code} %{http_version} %{url_effective} (%{size_download} bytes)\n";
  options.demo = true;
  options.location = true;  // The third URL redirects.

  out << "tern --demo: an HTTPS server (MockWebServer) runs in this process on "
      << server.hostName() << ":" << server.port()
      << ",\nwith a certificate made just now, signed by a root made just now; it offers h2 and\n"
         "http/1.1 by ALPN. tern fetches three URLs from it, as this command line would:\n\n"
         "  tern -L --trace-events --cacert ROOT.pem \\\n"
         "    -w '-> %{http_code} %{http_version} %{url_effective} (%{size_download} bytes)\\n' "
         "\\\n";
  for (size_t i = 0; i < options.urls.size(); ++i) {
    out << "    " << options.urls[i] << (i + 1 < options.urls.size() ? " \\\n" : "\n");
  }
  out << "\nEach --trace-events line is <ms since the call started> <call#> <event> [details];\n"
         "the bodies and the -w lines come in between.\n\n";
  out.flush();

  // The normal transfer path, with stderr's output (the trace) in line with the bodies.
  TransferRunner runner(options, out, out);
  int exitCode = runner.run();

  out << "\nWhat happened:\n";
  std::vector<std::shared_ptr<const CallTrace>> traces = runner.traces();
  int connections = 0;
  for (const auto& trace : traces) {
    explainCall(out, *trace);
    if (trace->connected()) ++connections;
  }
  // The server's side: every request it took, on which connection, in which stream.
  std::set<int> serverConnections;
  std::vector<std::string> streams;
  std::optional<Handshake> handshake;
  std::string version;
  for (int i = 0; i < server.requestCount(); ++i) {
    RecordedRequest request = server.takeRequest();
    serverConnections.insert(request.connectionIndex());
    streams.push_back(std::to_string(request.streamId()));
    if (request.handshake()) handshake = request.handshake();
    version = request.version();
  }
  out << "  In all: " << traces.size() << " calls, " << server.requestCount()
      << " requests (the redirect is a second request in its call), " << connections
      << " connection(s)\n  opened by the client, " << serverConnections.size()
      << " seen by the server.\n";
  if (handshake) {
    out << "  TLS: " << javaName(handshake->tlsVersion()) << " "
        << handshake->cipherSuite().javaName() << ", one handshake for every call.\n";
  }
  out << "  Protocol: " << version;
  if (version == "HTTP/2") {
    out << ", streams";
    for (const std::string& stream : streams) out << " " << stream;
    out << " on one connection";
  }
  out << ".\n  The pool kept the connection between calls, so only the first paid for TCP and "
         "TLS.\n"
         "  Try it on a real server: scripts/tern --trace-events URL\n";
  out.flush();
  server.close();
  return exitCode;
}

}  // namespace tern::tool
