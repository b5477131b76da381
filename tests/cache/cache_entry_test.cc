// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
// CacheEntry in OkHttp's metadata format: what tern writes is what OkHttp writes, byte for byte,
// and what OkHttp writes (every version's golden entries from OkHttp's CacheTest) tern reads.
#include "cache/cache_entry.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <atomic>
#include <filesystem>
#include <string>
#include <vector>

#include "io/base64.h"
#include "support/faulty_file_system.h"
#include "support/task_faker.h"
#include "support/tls_certificates.h"
#include "tern/buffer.h"
#include "tern/buffered_sink.h"
#include "tern/exceptions.h"

namespace tern::internal {
namespace {

using testing::FaultyFileSystem;
using testing::TaskFaker;
using testing::TestCertificates;

// The certificate in OkHttp's CacheTest golden https entries (an RSA 1024 "localhost"
// certificate from 2015, long expired: the cache never checks validity).
constexpr std::string_view kGoldenCertificate =
    "MIIBnDCCAQWgAwIBAgIBATANBgkqhkiG9w0BAQsFADAUMRIwEAYDVQQDEwlsb2NhbGhvc3QwHhcNMTUxMjIyMDExMTQw"
    "WhcNMTUxMjIzMDExMTQwWjAUMRIwEAYDVQQDEwlsb2NhbGhvc3QwgZ8wDQYJKoZIhvcNAQEBBQADgY0AMIGJAoGBAJTn"
    "2Dh8xYmegvpOSmsKb2Os6Cxf1L4fYbnHr/turInUD5r1P7ZAuxurY880q3GT5bUDoirS3IfucddrT1AcAmUzEmk/FDjg"
    "giP8DlxFkY/XwXBlhRDVIp/mRuASPMGInckc0ZaixOkRFyrxADj+r1eaSmXCIvV5yTY6IaIokLj1AgMBAAEwDQYJKoZI"
    "hvcNAQELBQADgYEAFblnedqtfRqI9j2WDyPPoG0NTZf9xwjeUu+ju+Ktty8u9k7Lgrrd/DH2mQEtBD1Ctvp91MJfAClN"
    "g3faZzwClUyu5pd0QXRZEUwSwZQNen2QWDHRlVsItclBJ4t+AJLqTbwofWi4m4K8REOl593hD55E4+lY22JZiVQyjsQh"
    "e6I=";

// The one in testGoldenCacheResponse (OkHttp 1.x, "jwilson.local", 2013).
constexpr std::string_view kGolden1xCertificate =
    "MIIBpDCCAQ2gAwIBAgIBATANBgkqhkiG9w0BAQsFADAYMRYwFAYDVQQDEw1qd2lsc29uLmxvY2FsMB4XDTEzMDgyOTA1"
    "MDE1OVoXDTEzMDgzMDA1MDE1OVowGDEWMBQGA1UEAxMNandpbHNvbi5sb2NhbDCBnzANBgkqhkiG9w0BAQEFAAOBjQAw"
    "gYkCgYEAlFW+rGo/YikCcRghOyKkJanmVmJSce/p2/jH1QvNIFKizZdh8AKNwojt3ywRWaDULA/RlCUcltF3HGNsCyjQ"
    "I/+Lf40x7JpxXF8oim1E6EtDoYtGWAseelawus3IQ13nmo6nWzfyCA55KhAWf4VipelEy8DjcuFKv6L0xwXnI0ECAwEA"
    "ATANBgkqhkiG9w0BAQsFAAOBgQAuluNyPo1HksU3+Mr/PyRQIQS4BI7pRXN8mcejXmqyscdP7S6J21FBFeRR8/XNjVOp"
    "4HT9uSc2hrRtTEHEZCmpyoxixbnM706ikTmC7SN/GgM+SmcoJ1ipJcNcl8N0X6zym4dmyFfXKHu2PkTo7QFdpOJFvP3l"
    "IigcSZXozfmEDg==";

std::string write(const CacheEntry& entry) {
  Buffer buffer;
  entry.writeTo(buffer);
  return buffer.readUtf8();
}

CacheEntry read(std::string_view text) {
  Buffer buffer;
  buffer.writeUtf8(text);
  return CacheEntry::readFrom(buffer);
}

// The message of the IOException reading `text` throws; a test failure if it reads.
std::string readError(std::string_view text) {
  try {
    read(text);
  } catch (const IOException& e) {
    return e.what();
  }
  ADD_FAILURE() << "read without an error:\n" << text;
  return "";
}

Certificate certificateFromBase64(std::string_view base64) {
  return Certificate::fromDer(*decodeBase64(base64));
}

Request varyingRequest(std::string_view url = "http://example.com/foo") {
  return Request::Builder()
      .url(url)
      .header("Accept-Language", "fr-CA")
      .header("User-Agent", "tern")
      .addHeader("Accept-Charset", "UTF-8")
      .build();
}

Response::Builder okResponse(Request request) {
  Response::Builder builder;
  builder.request(std::move(request))
      .protocol(Protocol::HTTP_1_1)
      .code(200)
      .message("OK")
      .addHeader("Content-Type", "image/png")
      .addHeader("Vary", "Accept-Language, Accept-Charset")
      .addHeader("Cache-Control", "max-age=600")
      .sentRequestAtMillis(1000)
      .receivedResponseAtMillis(2000);
  return builder;
}

// Builders chain by reference: both a builder and a chained call on a temporary one.
CacheEntry entryFor(Response::Builder& builder) {
  Response response = builder.build();
  return CacheEntry(response.request().url(), response);
}
CacheEntry entryFor(Response::Builder&& builder) { return entryFor(builder); }

Handshake testHandshake(const TestCertificates& certs) {
  return Handshake(TlsVersion::TLS_1_3, CipherSuite::TLS_AES_128_GCM_SHA256,
                   {certs.localhost.certificate(), certs.root.certificate()},
                   {certs.client.certificate()});
}

// --- key -----------------------------------------------------------------------------------

TEST(CacheEntryTest, KeyIsTheHexMd5OfTheUrl) {
  // md5sum of the URL's string form (computed with coreutils).
  EXPECT_EQ(cacheKey(HttpUrl::get("http://example.com/")), "a6bf1757fff057f266b697df9cf176fd");
  EXPECT_EQ(cacheKey(HttpUrl::get("https://example.com/foo?a=b")),
            "92ddf5dbfe4a061bf9252e1c5dde8e10");
}

TEST(CacheEntryTest, KeyIsOfTheCanonicalUrl) {
  EXPECT_EQ(cacheKey(HttpUrl::get("HTTP://Example.COM")), "a6bf1757fff057f266b697df9cf176fd");
  EXPECT_EQ(cacheKey(HttpUrl::get("http://example.com:80/")), "a6bf1757fff057f266b697df9cf176fd");
}

// --- writing: OkHttp's bytes ---------------------------------------------------------------

TEST(CacheEntryTest, WritesHttpEntryAsOkHttp) {
  CacheEntry entry = entryFor(okResponse(varyingRequest()));
  EXPECT_EQ(write(entry),
            "http://example.com/foo\n"
            "GET\n"
            "2\n"
            "Accept-Language: fr-CA\n"
            "Accept-Charset: UTF-8\n"
            "HTTP/1.1 200 OK\n"
            "5\n"
            "Content-Type: image/png\n"
            "Vary: Accept-Language, Accept-Charset\n"
            "Cache-Control: max-age=600\n"
            "OkHttp-Sent-Millis: 1000\n"
            "OkHttp-Received-Millis: 2000\n");
}

TEST(CacheEntryTest, WritesHttpsEntryAsOkHttp) {
  TestCertificates certs;
  CacheEntry entry = entryFor(
      okResponse(varyingRequest("https://example.com/foo")).handshake(testHandshake(certs)));
  EXPECT_EQ(write(entry),
            "https://example.com/foo\n"
            "GET\n"
            "2\n"
            "Accept-Language: fr-CA\n"
            "Accept-Charset: UTF-8\n"
            "HTTP/1.1 200 OK\n"
            "5\n"
            "Content-Type: image/png\n"
            "Vary: Accept-Language, Accept-Charset\n"
            "Cache-Control: max-age=600\n"
            "OkHttp-Sent-Millis: 1000\n"
            "OkHttp-Received-Millis: 2000\n"
            "\n"
            "TLS_AES_128_GCM_SHA256\n"
            "2\n" +
                encodeBase64(certs.localhost.certificate().der()) + "\n" +
                encodeBase64(certs.root.certificate().der()) +
                "\n"
                "1\n" +
                encodeBase64(certs.client.certificate().der()) +
                "\n"
                "TLSv1.3\n");
}

TEST(CacheEntryTest, StatusLineIsHttp11ExceptForHttp10) {
  // OkHttp's StatusLine.toString(): "HTTP/1.0" for HTTP/1.0, "HTTP/1.1" for everything else, and
  // a space before the message even when it is empty (HTTP/2 has none).
  auto statusLine = [](Protocol protocol, std::string message) {
    std::string text =
        write(entryFor(okResponse(varyingRequest()).protocol(protocol).message(message)));
    size_t start = text.find("HTTP/");
    return text.substr(start, text.find('\n', start) - start);
  };
  EXPECT_EQ(statusLine(Protocol::HTTP_1_0, "OK"), "HTTP/1.0 200 OK");
  EXPECT_EQ(statusLine(Protocol::HTTP_1_1, "OK"), "HTTP/1.1 200 OK");
  EXPECT_EQ(statusLine(Protocol::HTTP_2, ""), "HTTP/1.1 200 ");
  EXPECT_EQ(statusLine(Protocol::H2_PRIOR_KNOWLEDGE, ""), "HTTP/1.1 200 ");
}

TEST(CacheEntryTest, NoVaryMeansNoVaryHeaders) {
  Response::Builder builder;
  builder.request(varyingRequest()).protocol(Protocol::HTTP_2).code(304).message("");
  EXPECT_EQ(write(entryFor(std::move(builder))),
            "http://example.com/foo\n"
            "GET\n"
            "0\n"
            "HTTP/1.1 304 \n"
            "2\n"
            "OkHttp-Sent-Millis: 0\n"
            "OkHttp-Received-Millis: 0\n");
}

TEST(CacheEntryTest, EntryUsesTheCacheUrl) {
  Response response = okResponse(varyingRequest("http://example.com/foo?token=1")).build();
  CacheEntry entry(HttpUrl::get("http://example.com/foo"), response);
  EXPECT_EQ(entry.url().toString(), "http://example.com/foo");
  EXPECT_TRUE(write(entry).starts_with("http://example.com/foo\nGET\n"));
}

TEST(CacheEntryTest, WriteRefusesHttpsWithoutHandshake) {
  CacheEntry entry = entryFor(okResponse(varyingRequest("https://example.com/")));
  Buffer sink;
  try {
    entry.writeTo(sink);
    FAIL() << "wrote an https entry without a handshake";
  } catch (const IOException& e) {
    EXPECT_STREQ(e.what(),
                 "cache entry: cannot store an https response without its handshake: "
                 "https://example.com/");
  }
  EXPECT_EQ(sink.size(), 0);  // Nothing half written.
}

TEST(CacheEntryTest, WriteRefusesALineBreakInTheMessage) {
  // Only a response built in code can hold one; written, it would forge the lines after it.
  CacheEntry entry = entryFor(okResponse(varyingRequest()).message("OK\n0"));
  Buffer sink;
  EXPECT_THROW(entry.writeTo(sink), IOException);
  EXPECT_EQ(sink.size(), 0);
}

// --- round trips ---------------------------------------------------------------------------

TEST(CacheEntryTest, HttpRoundTrip) {
  CacheEntry entry = entryFor(okResponse(varyingRequest()));
  CacheEntry back = read(write(entry));
  EXPECT_EQ(back, entry);
  EXPECT_EQ(back.url().toString(), "http://example.com/foo");
  EXPECT_EQ(back.requestMethod(), "GET");
  EXPECT_EQ(back.varyHeaders(), Headers::of("Accept-Language", "fr-CA", "Accept-Charset", "UTF-8"));
  EXPECT_EQ(back.code(), 200);
  EXPECT_EQ(back.message(), "OK");
  EXPECT_EQ(back.protocol(), Protocol::HTTP_1_1);
  EXPECT_EQ(back.responseHeaders(),
            Headers::of("Content-Type", "image/png", "Vary", "Accept-Language, Accept-Charset",
                        "Cache-Control", "max-age=600"));
  EXPECT_EQ(back.sentRequestMillis(), 1000);
  EXPECT_EQ(back.receivedResponseMillis(), 2000);
  EXPECT_FALSE(back.handshake().has_value());
}

TEST(CacheEntryTest, HttpsRoundTrip) {
  TestCertificates certs;
  Handshake handshake = testHandshake(certs);
  CacheEntry entry =
      entryFor(okResponse(varyingRequest("https://example.com/foo")).handshake(handshake));
  CacheEntry back = read(write(entry));
  EXPECT_EQ(back, entry);
  ASSERT_TRUE(back.handshake().has_value());
  EXPECT_EQ(*back.handshake(), handshake);
  EXPECT_EQ(back.handshake()->peerCertificates().at(0).commonName(), "localhost");
  EXPECT_EQ(back.handshake()->localCertificates().at(0).commonName(), "client");
}

TEST(CacheEntryTest, HttpsRoundTripWithoutCertificates) {
  Handshake handshake(TlsVersion::TLS_1_2, CipherSuite::TLS_RSA_WITH_3DES_EDE_CBC_SHA, {}, {});
  CacheEntry entry =
      entryFor(okResponse(varyingRequest("https://example.com/")).handshake(handshake));
  std::string text = write(entry);
  EXPECT_TRUE(text.ends_with("\n\nSSL_RSA_WITH_3DES_EDE_CBC_SHA\n0\n0\nTLSv1.2\n")) << text;
  EXPECT_EQ(read(text), entry);
}

TEST(CacheEntryTest, Http2ReadsBackAsHttp11) {
  CacheEntry entry = entryFor(okResponse(varyingRequest()).protocol(Protocol::HTTP_2).message(""));
  CacheEntry back = read(write(entry));
  EXPECT_EQ(back.protocol(), Protocol::HTTP_1_1);  // As in OkHttp.
  EXPECT_EQ(back.message(), "");
  EXPECT_EQ(write(back), write(entry));
}

TEST(CacheEntryTest, NegativeAndLargeMillisRoundTrip) {
  CacheEntry entry = entryFor(
      okResponse(varyingRequest()).sentRequestAtMillis(-5).receivedResponseAtMillis(INT64_MAX));
  CacheEntry back = read(write(entry));
  EXPECT_EQ(back.sentRequestMillis(), -5);
  EXPECT_EQ(back.receivedResponseMillis(), INT64_MAX);
}

TEST(CacheEntryTest, NonAsciiHeadersRoundTrip) {
  // OkHttp's combinedCacheHeadersCanBeNonAscii: servers send UTF-8 in names and values.
  Headers::Builder headers;
  headers.addLenient("Alpha", "α").addLenient("β", "Beta").addLenient(":status", "200 OK");
  Response::Builder builder = okResponse(varyingRequest());
  builder.headers(headers.build());
  CacheEntry entry = entryFor(std::move(builder));
  std::string text = write(entry);
  EXPECT_NE(text.find("\nAlpha: α\nβ: Beta\n:status: 200 OK\n"), std::string::npos) << text;
  EXPECT_EQ(read(text), entry);
}

// --- reading what OkHttp writes ------------------------------------------------------------

// Read, then written again: the same bytes.
TEST(CacheEntryTest, ReadsOkHttpHttpsEntryAndWritesTheSameBytes) {
  std::string text = std::string(
                         "https://example.com/\n"
                         "GET\n"
                         "1\n"
                         "Accept-Encoding: gzip\n"
                         "HTTP/1.1 200 OK\n"
                         "5\n"
                         "Content-Length: 3\n"
                         "Vary: Accept-Encoding\n"
                         "Cache-Control: max-age=60\n"
                         "OkHttp-Sent-Millis: 1450746700000\n"
                         "OkHttp-Received-Millis: 1450746700123\n"
                         "\n"
                         "TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256\n"
                         "1\n") +
                     std::string(kGoldenCertificate) +
                     "\n"
                     "0\n"
                     "TLSv1.2\n";
  CacheEntry entry = read(text);
  EXPECT_EQ(entry.sentRequestMillis(), 1450746700000);
  EXPECT_EQ(entry.receivedResponseMillis(), 1450746700123);
  EXPECT_EQ(entry.handshake()->cipherSuite(), CipherSuite::TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256);
  EXPECT_EQ(entry.handshake()->tlsVersion(), TlsVersion::TLS_1_2);
  EXPECT_EQ(entry.handshake()->peerCertificates().at(0).commonName(), "localhost");
  EXPECT_EQ(write(entry), text);
}

// OkHttp's CacheTest.testGoldenCacheResponse: OkHttp 1.x wrote SPDY pseudo headers
// (":status: 200 OK", https://github.com/square/okhttp/issues/227) and the millis headers amid
// the others. The URL is http, so the handshake lines after the headers are never read.
TEST(CacheEntryTest, GoldenCacheResponse) {
  std::string text = std::string(
                         "http://127.0.0.1:54321/\n"
                         "GET\n"
                         "0\n"
                         "HTTP/1.1 200 OK\n"
                         "7\n"
                         ":status: 200 OK\n"
                         ":version: HTTP/1.1\n"
                         "etag: foo\n"
                         "content-length: 3\n"
                         "OkHttp-Received-Millis: 1377752519000\n"
                         "X-Android-Response-Source: NETWORK 200\n"
                         "OkHttp-Sent-Millis: 1377752518000\n"
                         "\n"
                         "TLS_ECDHE_RSA_WITH_AES_256_CBC_SHA\n"
                         "1\n") +
                     std::string(kGolden1xCertificate) +
                     "\n"
                     "-1\n";
  CacheEntry entry = read(text);
  Headers::Builder expected;  // Lenient: ":status" is no token.
  expected.addLenient(":status", "200 OK")
      .addLenient(":version", "HTTP/1.1")
      .addLenient("etag", "foo")
      .addLenient("content-length", "3")
      .addLenient("X-Android-Response-Source", "NETWORK 200");
  EXPECT_EQ(entry.responseHeaders(), expected.build());
  EXPECT_EQ(entry.responseHeaders().get("Content-Length"), "3");
  EXPECT_EQ(entry.responseHeaders().get("etag"), "foo");
  EXPECT_EQ(entry.sentRequestMillis(), 1377752518000);
  EXPECT_EQ(entry.receivedResponseMillis(), 1377752519000);
  EXPECT_FALSE(entry.handshake().has_value());
}

// testGoldenCacheResponse's certificate, in an https entry: it decodes; the -1 local count
// (OkHttp 1.2's "null") is refused, as OkHttp's readInt() refuses it.
TEST(CacheEntryTest, Golden1xHttpsEntryWithMinusOneLocalCertificates) {
  std::string text = std::string(
                         "https://127.0.0.1:54321/\n"
                         "GET\n"
                         "0\n"
                         "HTTP/1.1 200 OK\n"
                         "0\n"
                         "\n"
                         "TLS_ECDHE_RSA_WITH_AES_256_CBC_SHA\n"
                         "1\n") +
                     std::string(kGolden1xCertificate) + "\n";
  EXPECT_EQ(readError(text + "-1\n"),
            "cache entry: expected the number of local certificates but was \"-1\"");
  CacheEntry entry = read(text + "0\n");
  EXPECT_EQ(entry.handshake()->peerCertificates().at(0).commonName(), "jwilson.local");
}

// testGoldenCacheHttpsResponseOkHttp27: before 3.0 there was no TLS version line; OkHttp reads
// such entries as SSL 3.0.
TEST(CacheEntryTest, GoldenCacheHttpsResponseOkHttp27) {
  std::string text = std::string(
                         "https://127.0.0.1:54321/\n"
                         "GET\n"
                         "0\n"
                         "HTTP/1.1 200 OK\n"
                         "4\n"
                         "Content-Length: 3\n"
                         "OkHttp-Received-Millis: 1450746700123\n"
                         "OkHttp-Sent-Millis: 1450746700000\n"
                         "Cache-Control: max-age=60\n"
                         "\n"
                         "TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256\n"
                         "1\n") +
                     std::string(kGoldenCertificate) +
                     "\n"
                     "0\n";
  CacheEntry entry = read(text);
  EXPECT_EQ(entry.responseHeaders(),
            Headers::of("Content-Length", "3", "Cache-Control", "max-age=60"));
  ASSERT_TRUE(entry.handshake().has_value());
  EXPECT_EQ(entry.handshake()->tlsVersion(), TlsVersion::SSL_3_0);
  EXPECT_EQ(entry.handshake()->cipherSuite(), CipherSuite::TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256);
  EXPECT_EQ(entry.handshake()->peerCertificates().at(0), certificateFromBase64(kGoldenCertificate));
  EXPECT_TRUE(entry.handshake()->localCertificates().empty());
  // Written again, it gains the version line, as OkHttp would write it.
  EXPECT_TRUE(write(entry).ends_with("\n0\nSSLv3\n"));
}

// testGoldenCacheHttpsResponseOkHttp30, with its trailing blank lines (ignored, as OkHttp does).
TEST(CacheEntryTest, GoldenCacheHttpsResponseOkHttp30) {
  std::string text = std::string(
                         "https://127.0.0.1:54321/\n"
                         "GET\n"
                         "0\n"
                         "HTTP/1.1 200 OK\n"
                         "4\n"
                         "Content-Length: 3\n"
                         "OkHttp-Received-Millis: 1450746700123\n"
                         "OkHttp-Sent-Millis: 1450746700000\n"
                         "Cache-Control: max-age=60\n"
                         "\n"
                         "TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256\n"
                         "1\n") +
                     std::string(kGoldenCertificate) +
                     "\n"
                     "0\n"
                     "TLSv1.2\n"
                     "\n";
  CacheEntry entry = read(text);
  EXPECT_EQ(entry.handshake()->tlsVersion(), TlsVersion::TLS_1_2);
  EXPECT_EQ(entry.code(), 200);
  EXPECT_EQ(entry.responseHeaders().get("Content-Length"), "3");
}

// testGoldenCacheHttpResponseOkHttp30.
TEST(CacheEntryTest, GoldenCacheHttpResponseOkHttp30) {
  CacheEntry entry = read(
      "http://127.0.0.1:54321/\n"
      "GET\n"
      "0\n"
      "HTTP/1.1 200 OK\n"
      "4\n"
      "Cache-Control: max-age=60\n"
      "Content-Length: 3\n"
      "OkHttp-Received-Millis: 1450746700123\n"
      "OkHttp-Sent-Millis: 1450746700000\n");
  EXPECT_EQ(entry.url().toString(), "http://127.0.0.1:54321/");
  EXPECT_EQ(entry.responseHeaders(),
            Headers::of("Cache-Control", "max-age=60", "Content-Length", "3"));
  EXPECT_EQ(entry.sentRequestMillis(), 1450746700000);
  EXPECT_EQ(entry.receivedResponseMillis(), 1450746700123);
}

TEST(CacheEntryTest, ReadsCrLfLinesAndHeaderEdgeCases) {
  CacheEntry entry = read(
      "http://example.com/\r\n"
      "GET\r\n"
      "1\r\n"
      "Accept:   text/html  \r\n"
      "HTTP/1.0 203 Non-Authoritative\r\n"
      "4\r\n"
      ": A\r\n"                        // Empty name (OkHttp's CacheTest.emptyHeaderName).
      "no-colon\r\n"                   // All value, under an empty name.
      "X-Empty:\r\n"                   // Empty value.
      "okhttp-sent-millis: +42\r\n");  // Any case; Kotlin's toLong() takes a '+'.
  EXPECT_EQ(entry.varyHeaders(), Headers::of("Accept", "text/html"));
  EXPECT_EQ(entry.protocol(), Protocol::HTTP_1_0);
  EXPECT_EQ(entry.code(), 203);
  EXPECT_EQ(entry.message(), "Non-Authoritative");
  ASSERT_EQ(entry.responseHeaders().size(), 3u);
  EXPECT_EQ(entry.responseHeaders().name(0), "");
  EXPECT_EQ(entry.responseHeaders().value(0), "A");
  EXPECT_EQ(entry.responseHeaders().name(1), "");
  EXPECT_EQ(entry.responseHeaders().value(1), "no-colon");
  EXPECT_EQ(entry.responseHeaders().value(2), "");
  EXPECT_EQ(entry.sentRequestMillis(), 42);
  EXPECT_EQ(entry.receivedResponseMillis(), 0);  // Absent: 0, as OkHttp.
  EXPECT_EQ(read(write(entry)), entry);
}

TEST(CacheEntryTest, LastMillisHeaderWins) {
  CacheEntry entry = read(
      "http://example.com/\nGET\n0\nHTTP/1.1 200 OK\n3\n"
      "OkHttp-Sent-Millis: 1\nA: b\nOkHttp-Sent-Millis: 2\n");
  EXPECT_EQ(entry.sentRequestMillis(), 2);
  EXPECT_EQ(entry.responseHeaders(), Headers::of("A", "b"));
}

TEST(CacheEntryTest, ReadDoesNotCloseTheSourceNorReadPastWhatItHolds) {
  std::string text = write(entryFor(okResponse(varyingRequest())));
  Buffer buffer;
  buffer.writeUtf8(text);
  CacheEntry::readFrom(buffer);
  EXPECT_EQ(buffer.size(), 0);
  buffer.writeUtf8("still open");  // A closed Buffer would throw.
  EXPECT_EQ(buffer.readUtf8(), "still open");
}

TEST(CacheEntryTest, ALineOfTheLimitIsRead) {
  std::string value(CacheEntry::kMaxLineLength - 3, 'a');
  CacheEntry entry = read("http://example.com/\nGET\n0\nHTTP/1.1 200 OK\n1\nA: " + value + "\n");
  EXPECT_EQ(entry.responseHeaders().get("A"), value);
}

// --- malformed entries ---------------------------------------------------------------------

// A valid https entry (OkHttp 3 and later) and its length without the TLS version line, which
// is the valid OkHttp 2.7 form.
struct HttpsText {
  std::string text;
  size_t withoutTlsVersion;
};

HttpsText httpsText(const TestCertificates& certs) {
  CacheEntry entry = entryFor(
      okResponse(varyingRequest("https://example.com/foo")).handshake(testHandshake(certs)));
  std::string text = write(entry);
  return {text, text.size() - std::string("TLSv1.3\n").size()};
}

TEST(CacheEntryTest, EveryTruncationOfAnHttpsEntryFails) {
  TestCertificates certs;
  HttpsText https = httpsText(certs);
  for (size_t length = 0; length < https.text.size(); length++) {
    if (length == https.withoutTlsVersion) continue;  // OkHttp 2.7's form.
    std::string prefix = https.text.substr(0, length);
    EXPECT_THROW(read(prefix), IOException) << "length " << length;
  }
  EXPECT_NO_THROW(read(https.text.substr(0, https.withoutTlsVersion)));
}

TEST(CacheEntryTest, EveryTruncationOfAnHttpEntryFails) {
  std::string text = write(entryFor(okResponse(varyingRequest())));
  for (size_t length = 0; length < text.size(); length++) {
    EXPECT_THROW(read(text.substr(0, length)), IOException) << "length " << length;
  }
}

TEST(CacheEntryTest, TruncationMessagesNameTheLine) {
  EXPECT_EQ(readError(""), "cache entry: truncated in the URL");
  EXPECT_EQ(readError("http://example.com/\nGET"), "cache entry: truncated in the request method");
  EXPECT_EQ(readError("http://example.com/\nGET\n"),
            "cache entry: truncated in the number of Vary request headers");
  EXPECT_EQ(readError("http://example.com/\nGET\n2\nA: b\n"),
            "cache entry: truncated in the Vary request headers");
  EXPECT_EQ(readError("http://example.com/\nGET\n0\nHTTP/1.1 200 OK\n3\nA: b\n"),
            "cache entry: truncated in the response headers");
  EXPECT_EQ(readError("https://example.com/\nGET\n0\nHTTP/1.1 200 OK\n0\n"),
            "cache entry: truncated in the blank line before the handshake");
  EXPECT_EQ(readError("https://example.com/\nGET\n0\nHTTP/1.1 200 OK\n0\n\nTLS_AES_128_GCM_SHA256\n"
                      "2\n"),
            "cache entry: truncated in peer certificate 1");
  EXPECT_EQ(readError("https://example.com/\nGET\n0\nHTTP/1.1 200 OK\n0\n\nTLS_AES_128_GCM_SHA256\n"
                      "0\n0\nTLSv1.3"),
            "cache entry: truncated in the TLS version");
}

TEST(CacheEntryTest, TruncationIsAnEofException) {
  EXPECT_THROW(read("http://example.com/\nGET\n"), EOFException);
}

TEST(CacheEntryTest, HugeCountsAllocateNothing) {
  // OkHttp reads counts up to Int.MAX_VALUE; tern stops at kMaxCount, before reading a line.
  EXPECT_EQ(readError("http://example.com/\nGET\n2147483647\nA: b\n"),
            "cache entry: too many Vary request headers: 2147483647 (the limit is 131072)");
  EXPECT_EQ(readError("http://example.com/\nGET\n0\nHTTP/1.1 200 OK\n131073\n"),
            "cache entry: too many response headers: 131073 (the limit is 131072)");
  EXPECT_EQ(readError("https://example.com/\nGET\n0\nHTTP/1.1 200 OK\n0\n\nTLS_AES_128_GCM_SHA256\n"
                      "2147483647\n"),
            "cache entry: too many peer certificates: 2147483647 (the limit is 131072)");
  // A count within the limit is a promise of lines, never a size to reserve: it fails at the end
  // of the input.
  EXPECT_EQ(readError("http://example.com/\nGET\n0\nHTTP/1.1 200 OK\n131072\nA: b\n"),
            "cache entry: truncated in the response headers");
}

TEST(CacheEntryTest, AsManyLinesAsTheLimitAreRead) {
  std::string text = "http://example.com/\nGET\n0\nHTTP/1.1 200 OK\n131072\n";
  for (int i = 0; i < CacheEntry::kMaxCount; i++) text += "A: b\n";
  EXPECT_EQ(read(text).responseHeaders().size(), 131072u);
}

TEST(CacheEntryTest, BadCounts) {
  auto varyCount = [](std::string_view count) {
    return readError("http://example.com/\nGET\n" + std::string(count) + "\nHTTP/1.1 200 OK\n0\n");
  };
  EXPECT_EQ(varyCount("-1"),
            "cache entry: expected the number of Vary request headers but was \"-1\"");
  EXPECT_EQ(varyCount("2147483648"),
            "cache entry: expected the number of Vary request headers but was "
            "\"2147483648\"");
  EXPECT_EQ(varyCount("99999999999999999999999"),
            "cache entry: expected the number of Vary request headers but was "
            "\"99999999999999999999999\"");
  EXPECT_EQ(varyCount("abc"),
            "cache entry: expected the number of Vary request headers but was \"abc\"");
  EXPECT_EQ(varyCount(""), "cache entry: expected the number of Vary request headers but was \"\"");
  EXPECT_THROW(read("http://example.com/\nGET\n 0\nHTTP/1.1 200 OK\n0\n"), IOException);
  EXPECT_THROW(read("http://example.com/\nGET\n0 \nHTTP/1.1 200 OK\n0\n"), IOException);
  EXPECT_THROW(read("http://example.com/\nGET\n+0\nHTTP/1.1 200 OK\n0\n"), IOException);
  EXPECT_THROW(read("http://example.com/\nGET\n0x1\nHTTP/1.1 200 OK\n0\n"), IOException);
  // okio reads "-0" and leading zeros as numbers; so does tern.
  EXPECT_NO_THROW(read("http://example.com/\nGET\n-0\nHTTP/1.1 200 OK\n000\n"));
  EXPECT_EQ(readError("http://example.com/\nGET\n0\nHTTP/1.1 200 OK\nx\n"),
            "cache entry: expected the number of response headers but was \"x\"");
}

TEST(CacheEntryTest, BadUrl) {
  EXPECT_EQ(readError("not a url\nGET\n0\nHTTP/1.1 200 OK\n0\n"),
            "cache entry: bad URL \"not a url\"");
  EXPECT_EQ(readError("ftp://example.com/\nGET\n0\nHTTP/1.1 200 OK\n0\n"),
            "cache entry: bad URL \"ftp://example.com/\"");
  EXPECT_EQ(readError("wss://example.com/\nGET\n0\nHTTP/1.1 200 OK\n0\n"),
            "cache entry: bad URL \"wss://example.com/\"");
  EXPECT_EQ(readError("\x01\nGET\n0\nHTTP/1.1 200 OK\n0\n"), "cache entry: bad URL \"\\x01\"");
}

TEST(CacheEntryTest, BadMethod) {
  EXPECT_EQ(readError("http://example.com/\n\n0\nHTTP/1.1 200 OK\n0\n"),
            "cache entry: bad request method \"\"");
  EXPECT_EQ(readError("http://example.com/\nG T\n0\nHTTP/1.1 200 OK\n0\n"),
            "cache entry: bad request method \"G T\"");
}

TEST(CacheEntryTest, BadStatusLines) {
  auto status = [](std::string_view line) {
    return readError("http://example.com/\nGET\n0\n" + std::string(line) + "\n0\n");
  };
  EXPECT_EQ(status("HTTP/1.1"), "cache entry: bad status line \"HTTP/1.1\"");
  EXPECT_EQ(status("HTTP/1.1 OK"), "cache entry: bad status line \"HTTP/1.1 OK\"");
  EXPECT_EQ(status("HTTP/1.1 2000 OK"), "cache entry: bad status line \"HTTP/1.1 2000 OK\"");
  EXPECT_EQ(status("HTTP/2 200 OK"), "cache entry: bad status line \"HTTP/2 200 OK\"");
  EXPECT_EQ(status("HTTP/1.1 099 Low"), "cache entry: bad status line \"HTTP/1.1 099 Low\"");
  EXPECT_EQ(status(""), "cache entry: bad status line \"\"");
  EXPECT_EQ(status("HTTP/1.1 200 O\x01K"), "cache entry: bad status line \"HTTP/1.1 200 O\\x01K\"");
}

TEST(CacheEntryTest, BadMillis) {
  auto sent = [](std::string_view value) {
    return readError("http://example.com/\nGET\n0\nHTTP/1.1 200 OK\n1\nOkHttp-Sent-Millis: " +
                     std::string(value) + "\n");
  };
  EXPECT_EQ(sent("abc"), "cache entry: bad OkHttp-Sent-Millis \"abc\"");
  EXPECT_EQ(sent(""), "cache entry: bad OkHttp-Sent-Millis \"\"");
  EXPECT_EQ(sent("12x"), "cache entry: bad OkHttp-Sent-Millis \"12x\"");
  EXPECT_EQ(sent("+-1"), "cache entry: bad OkHttp-Sent-Millis \"+-1\"");
  EXPECT_EQ(sent("9223372036854775808"),
            "cache entry: bad OkHttp-Sent-Millis \"9223372036854775808\"");
  EXPECT_EQ(readError("http://example.com/\nGET\n0\nHTTP/1.1 200 OK\n1\n"
                      "OkHttp-Received-Millis: 1.5\n"),
            "cache entry: bad OkHttp-Received-Millis \"1.5\"");
}

std::string handshakeEntry(std::string_view handshakeLines) {
  return "https://example.com/\nGET\n0\nHTTP/1.1 200 OK\n0\n" + std::string(handshakeLines);
}

TEST(CacheEntryTest, BadHandshakes) {
  EXPECT_EQ(readError(handshakeEntry("x\nTLS_AES_128_GCM_SHA256\n0\n0\nTLSv1.3\n")),
            "cache entry: expected \"\" before the handshake but was \"x\"");
  EXPECT_EQ(readError(handshakeEntry("\n\n0\n0\nTLSv1.3\n")), "cache entry: bad cipher suite \"\"");
  EXPECT_EQ(readError(handshakeEntry("\nTLS AES\n0\n0\nTLSv1.3\n")),
            "cache entry: bad cipher suite \"TLS AES\"");
  EXPECT_EQ(readError(handshakeEntry("\nTLS_AES_128_GCM_SHA256\n0\n0\nTLSv9\n")),
            "cache entry: bad TLS version \"TLSv9\"");
  EXPECT_EQ(readError(handshakeEntry("\nTLS_AES_128_GCM_SHA256\n0\n0\n\n")),
            "cache entry: bad TLS version \"\"");
  EXPECT_EQ(readError(handshakeEntry("\nTLS_AES_128_GCM_SHA256\n1\n!!!!\n0\nTLSv1.3\n")),
            "cache entry: peer certificate 1 is not base64");
  EXPECT_EQ(readError(handshakeEntry("\nTLS_AES_128_GCM_SHA256\n0\n1\nAAAA\nTLSv1.3\n"))
                .rfind("cache entry: local certificate 1: failed to decode certificate", 0),
            0u);
  EXPECT_EQ(readError(handshakeEntry("\nTLS_AES_128_GCM_SHA256\n1\n\n0\nTLSv1.3\n"))
                .rfind("cache entry: peer certificate 1: failed to decode certificate", 0),
            0u);
  // A certificate with a byte more than its DER: trailing bytes are refused.
  std::vector<uint8_t> der = *decodeBase64(kGoldenCertificate);
  der.push_back(0);
  EXPECT_THROW(
      read(handshakeEntry("\nTLS_AES_128_GCM_SHA256\n1\n" + encodeBase64(der) + "\n0\nTLSv1.3\n")),
      IOException);
}

TEST(CacheEntryTest, NewCipherSuiteNamesAreKept) {
  CacheEntry entry = read(handshakeEntry("\nTLS_FUTURE_SUITE_2099\n0\n0\nTLSv1.3\n"));
  EXPECT_EQ(entry.handshake()->cipherSuite().javaName(), "TLS_FUTURE_SUITE_2099");
}

TEST(CacheEntryTest, LinesLongerThanTheLimitFail) {
  std::string longLine(CacheEntry::kMaxLineLength + 1, 'a');
  EXPECT_EQ(readError(longLine + "\n"), "cache entry: a line longer than 1048576 bytes in the URL");
  EXPECT_EQ(readError(longLine), "cache entry: a line longer than 1048576 bytes in the URL");
  EXPECT_EQ(readError("http://example.com/\nGET\n0\nHTTP/1.1 200 OK\n1\n" + longLine + "\n"),
            "cache entry: a line longer than 1048576 bytes in the response headers");
}

TEST(CacheEntryTest, ExceptionMessagesQuoteAtMost80Bytes) {
  std::string bad(200, 'x');
  EXPECT_EQ(readError(bad + "\nGET\n0\nHTTP/1.1 200 OK\n0\n"),
            "cache entry: bad URL \"" + std::string(80, 'x') + "\"…");
}

// --- Vary ----------------------------------------------------------------------------------

TEST(CacheEntryVaryTest, FieldsAreLowercasedTrimmedAndFromEveryVaryHeader) {
  Headers headers = Headers::of("vary", " Accept-Encoding ,USER-agent", "Content-Type", "a", "VARY",
                                "accept-encoding,\tCookie\t", "Vary", "a,,b,");
  EXPECT_EQ(varyFields(headers),
            (std::set<std::string>{"a", "accept-encoding", "b", "cookie", "user-agent"}));
  EXPECT_TRUE(varyFields(Headers::of("Content-Type", "a")).empty());
  EXPECT_TRUE(varyFields(Headers::of("Vary", "")).empty());
}

TEST(CacheEntryVaryTest, VaryAll) {
  EXPECT_TRUE(hasVaryAll(Headers::of("Vary", "*")));
  EXPECT_TRUE(hasVaryAll(Headers::of("Vary", "Accept", "Vary", " * ")));
  EXPECT_TRUE(hasVaryAll(Headers::of("Vary", "Accept, *")));
  EXPECT_FALSE(hasVaryAll(Headers::of("Vary", "Accept")));
  EXPECT_FALSE(hasVaryAll(Headers::of("Vary", "**")));
  EXPECT_FALSE(hasVaryAll(Headers()));
  EXPECT_TRUE(varyFields(Headers::of("Vary", "*")).contains("*"));
}

TEST(CacheEntryVaryTest, VaryHeadersKeepRequestOrderAndSpelling) {
  Headers request = Headers::of("Accept-Language", "fr", "User-Agent", "tern", "accept-language",
                                "en", "Cookie", "a=b");
  EXPECT_EQ(varyHeaders(request, Headers::of("Vary", "ACCEPT-LANGUAGE, cookie")),
            Headers::of("Accept-Language", "fr", "accept-language", "en", "Cookie", "a=b"));
  EXPECT_EQ(varyHeaders(request, Headers::of("Vary", "Accept-Encoding")), Headers());
  EXPECT_EQ(varyHeaders(request, Headers()), Headers());
}

TEST(CacheEntryVaryTest, VaryMatches) {
  Headers response = Headers::of("Vary", "Accept-Language", "Vary", "accept-encoding");
  Headers cached = Headers::of("Accept-Language", "fr-CA", "Accept-Encoding", "gzip");
  auto request = [](std::initializer_list<std::pair<std::string_view, std::string_view>> headers) {
    return Request::Builder().url("http://example.com/").headers(Headers::of(headers)).build();
  };
  EXPECT_TRUE(varyMatches(response, cached,
                          request({{"accept-language", "fr-CA"}, {"ACCEPT-ENCODING", "gzip"}})));
  EXPECT_TRUE(varyMatches(
      response, cached,
      request(
          {{"Accept-Encoding", "gzip"}, {"User-Agent", "other"}, {"Accept-Language", "fr-CA"}})));
  EXPECT_FALSE(varyMatches(response, cached,
                           request({{"Accept-Language", "fr-FR"}, {"Accept-Encoding", "gzip"}})));
  EXPECT_FALSE(varyMatches(response, cached, request({{"Accept-Language", "fr-CA"}})));
  // Values compare exactly, and in order.
  EXPECT_FALSE(varyMatches(response, cached,
                           request({{"Accept-Language", "FR-CA"}, {"Accept-Encoding", "gzip"}})));
  Headers twoValues = Headers::of("Accept-Language", "a", "Accept-Language", "b");
  Headers varyLanguage = Headers::of("Vary", "Accept-Language");
  EXPECT_TRUE(varyMatches(varyLanguage, twoValues,
                          request({{"Accept-Language", "a"}, {"Accept-Language", "b"}})));
  EXPECT_FALSE(varyMatches(varyLanguage, twoValues,
                           request({{"Accept-Language", "b"}, {"Accept-Language", "a"}})));
  // Absent on both sides matches; no Vary matches anything.
  EXPECT_TRUE(varyMatches(varyLanguage, Headers(), request({})));
  EXPECT_TRUE(varyMatches(Headers(), cached, request({{"Accept-Language", "x"}})));
}

TEST(CacheEntryTest, Matches) {
  CacheEntry entry = entryFor(okResponse(varyingRequest()));
  HttpUrl url = HttpUrl::get("http://example.com/foo");
  EXPECT_TRUE(entry.matches(varyingRequest(), url));
  EXPECT_FALSE(entry.matches(varyingRequest(), HttpUrl::get("http://example.com/bar")));
  EXPECT_FALSE(entry.matches(varyingRequest().newBuilder().head().build(), url));
  EXPECT_FALSE(
      entry.matches(varyingRequest().newBuilder().header("Accept-Language", "en").build(), url));
  // A header the response does not vary on does not matter.
  EXPECT_TRUE(entry.matches(varyingRequest().newBuilder().header("User-Agent", "x").build(), url));
  // Read back from its bytes, it matches the same way.
  EXPECT_TRUE(read(write(entry)).matches(varyingRequest(), url));
}

// --- the stored response -------------------------------------------------------------------

class CacheEntryResponseTest : public ::testing::Test {
 protected:
  void SetUp() override {
    static std::atomic<int> counter{0};
    dir_ = std::filesystem::temp_directory_path() /
           ("tern-cache-entry-" + std::to_string(::getpid()) + "-" + std::to_string(counter++));
    std::filesystem::remove_all(dir_);
    fs_ = std::make_shared<FaultyFileSystem>(FileSystem::system());
    cache_ = DiskLruCache::open(fs_, dir_, 201105, kEntryCount, 1 << 20, faker_.taskRunner());
    cache_->initialize();
    journalOnly_ = fs_->openFileCount();
  }

  void TearDown() override {
    cache_->close();
    cache_.reset();
    EXPECT_EQ(fs_->openFileCount(), 0);
    std::filesystem::remove_all(dir_);
  }

  // Stores `entry` with `body` as Cache.put does, under the key of its URL.
  std::string store(const CacheEntry& entry, std::string_view body) {
    std::string key = cacheKey(entry.url());
    auto editor = cache_->edit(key);
    EXPECT_NE(editor, nullptr);
    auto metadata = editor->newSink(kEntryMetadata);
    entry.writeTo(*metadata);
    metadata->close();
    auto bodySink = buffer(editor->newSink(kEntryBody));
    bodySink->writeUtf8(body);
    bodySink->close();
    editor->commit();
    return key;
  }

  // Reads it back as Cache.get does.
  Response load(const std::string& key) {
    auto snapshot = cache_->get(key);
    EXPECT_NE(snapshot, nullptr);
    CacheEntry entry = CacheEntry::readFrom(snapshot->getSource(kEntryMetadata));
    return entry.response(std::move(snapshot));
  }

  TaskFaker faker_;
  std::filesystem::path dir_;
  std::shared_ptr<FaultyFileSystem> fs_;
  std::shared_ptr<DiskLruCache> cache_;
  int journalOnly_ = 0;  // The files the cache itself holds open.
};

TEST_F(CacheEntryResponseTest, ServesTheStoredResponseAndClosesTheSnapshot) {
  TestCertificates certs;
  Handshake handshake = testHandshake(certs);
  Response::Builder builder = okResponse(varyingRequest("https://example.com/foo"));
  builder.header("Content-Type", "text/plain; charset=utf-8")
      .header("Content-Length", "5")
      .handshake(handshake);
  std::string key = store(entryFor(std::move(builder)), "hello");
  EXPECT_EQ(key, cacheKey(HttpUrl::get("https://example.com/foo")));

  Response response = load(key);
  EXPECT_EQ(response.code(), 200);
  EXPECT_EQ(response.message(), "OK");
  EXPECT_EQ(response.protocol(), Protocol::HTTP_1_1);
  EXPECT_EQ(response.header("Cache-Control"), "max-age=600");
  EXPECT_EQ(response.handshake(), handshake);
  EXPECT_EQ(response.sentRequestAtMillis(), 1000);
  EXPECT_EQ(response.receivedResponseAtMillis(), 2000);
  EXPECT_EQ(response.request().url().toString(), "https://example.com/foo");
  EXPECT_EQ(response.request().method(), "GET");
  EXPECT_EQ(response.request().headers(),
            Headers::of("Accept-Language", "fr-CA", "Accept-Charset", "UTF-8"));
  ASSERT_NE(response.body(), nullptr);
  EXPECT_EQ(response.body()->contentLength(), 5);
  ASSERT_TRUE(response.body()->contentType().has_value());
  EXPECT_EQ(response.body()->contentType()->toString(), "text/plain; charset=utf-8");

  // The snapshot holds the metadata and the body open (beside the journal).
  EXPECT_EQ(fs_->openFileCount(), journalOnly_ + 2);
  EXPECT_EQ(response.body()->string(), "hello");
  EXPECT_EQ(fs_->openFileCount(), journalOnly_);  // string() closed the body and the snapshot.
}

TEST_F(CacheEntryResponseTest, DroppingTheResponseClosesTheSnapshot) {
  std::string key = store(entryFor(okResponse(varyingRequest())), "body");
  {
    Response response = load(key);
    EXPECT_EQ(fs_->openFileCount(), journalOnly_ + 2);
  }
  EXPECT_EQ(fs_->openFileCount(), journalOnly_);
  // Closed, the entry can be removed at once (on Windows' semantics too).
  EXPECT_TRUE(cache_->remove(key));
}

TEST_F(CacheEntryResponseTest, BodyStreamsInPieces) {
  std::string body(100000, 'x');
  std::string key = store(entryFor(okResponse(varyingRequest())), body);
  Response response = load(key);
  EXPECT_EQ(response.body()->contentLength(), -1);  // No Content-Length.
  Buffer sink;
  BufferedSource& source = response.body()->source();
  while (source.read(sink, 4096) != -1) {
  }
  EXPECT_EQ(sink.size(), 100000);
  response.body()->close();
  EXPECT_EQ(fs_->openFileCount(), journalOnly_);
}

TEST_F(CacheEntryResponseTest, BadContentLengthIsUnknown) {
  for (std::string_view length : {"abc", "-5", "", "99999999999999999999", "1 2"}) {
    Headers::Builder headers;
    headers.addLenient("Content-Length", length);
    Response::Builder builder = okResponse(varyingRequest());
    builder.headers(headers.build());
    Response response = load(store(entryFor(std::move(builder)), "abc"));
    EXPECT_EQ(response.body()->contentLength(), -1) << length;
    EXPECT_FALSE(response.body()->contentType().has_value());
    EXPECT_EQ(response.body()->string(), "abc");
  }
}

TEST_F(CacheEntryResponseTest, AMethodThatNeedsABodyGetsAnEmptyOne) {
  // A POST stored under a cacheUrlOverride: the stored request carries an empty body.
  Request post = Request::Builder()
                     .url("http://example.com/search?token=1")
                     .post(RequestBody::create(std::string("q")))
                     .build();
  Response::Builder builder;
  builder.request(post).protocol(Protocol::HTTP_1_1).code(200).message("OK");
  Response network = builder.build();
  CacheEntry entry(HttpUrl::get("http://example.com/search"), network);
  Response response = load(store(entry, "result"));
  EXPECT_EQ(response.request().method(), "POST");
  EXPECT_EQ(response.request().url().toString(), "http://example.com/search");
  EXPECT_EQ(response.body()->string(), "result");
}

TEST(CacheEntryTest, ResponseWithoutBody) {
  CacheEntry entry = read(write(entryFor(okResponse(varyingRequest()))));
  Response response = entry.responseWithoutBody();
  EXPECT_EQ(response.body(), nullptr);
  EXPECT_EQ(response.code(), 200);
  EXPECT_EQ(response.header("Content-Type"), "image/png");
  EXPECT_EQ(response.request().header("Accept-Language"), "fr-CA");
  EXPECT_FALSE(response.request().header("User-Agent").has_value());  // Not Vary'd: not stored.
  EXPECT_EQ(response.sentRequestAtMillis(), 1000);
}

}  // namespace
}  // namespace tern::internal
