// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#include "cache/cache_entry.h"

#include <openssl/evp.h>

#include <array>
#include <charconv>
#include <cstddef>
#include <limits>
#include <stdexcept>
#include <utility>
#include <vector>

#include "http/http_method.h"
#include "http/http_syntax.h"
#include "http1/status_line.h"
#include "io/ascii.h"
#include "io/base64.h"
#include "io/hex.h"
#include "tern/buffer.h"
#include "tern/buffered_source.h"
#include "tern/exceptions.h"
#include "tern/media_type.h"
#include "tern/request_body.h"
#include "tern/response_body.h"

namespace tern::internal {
namespace {

// The synthetic response headers OkHttp appends to the stored ones (its Platform prefix is
// "OkHttp" on every platform that writes caches).
constexpr std::string_view kSentMillis = "OkHttp-Sent-Millis";
constexpr std::string_view kReceivedMillis = "OkHttp-Received-Millis";

// How much of a bad line an exception message quotes.
constexpr size_t kMaxQuoted = 80;

[[noreturn]] void corrupt(const std::string& what) { throw IOException("cache entry: " + what); }

// `s` quoted for a message: escaped (one line, no NUL) and cut to kMaxQuoted bytes.
std::string quoteForMessage(std::string_view s) {
  if (s.size() <= kMaxQuoted) return "\"" + escapeForMessage(s) + "\"";
  return "\"" + escapeForMessage(s.substr(0, kMaxQuoted)) + "\"…";
}

// The reading half of the format: one line at a time, each at most kMaxLineLength bytes, so a
// corrupt file can make it buffer no more than that.
class EntryReader {
 public:
  explicit EntryReader(BufferedSource& source) : source_(source) {}

  // The next line without its "\n" (or "\r\n"); `what` names it for the message.
  std::string line(std::string_view what) {
    try {
      return source_.readUtf8LineStrict(CacheEntry::kMaxLineLength);
    } catch (const EOFException&) {
      // readUtf8LineStrict() says the same for a line too long and a stream that ended; the
      // buffered bytes tell them apart (it buffers up to limit + 2 before giving up).
      if (source_.buffer().size() > CacheEntry::kMaxLineLength) {
        corrupt("a line longer than " + std::to_string(CacheEntry::kMaxLineLength) + " bytes in " +
                std::string(what));
      }
      throw EOFException("cache entry: truncated in " + std::string(what));
    }
  }

  // A line holding the number of `what` ("response headers"), as OkHttp's Cache.readInt: a
  // decimal in [0, Int.MAX_VALUE] and nothing else; tern also refuses one above kMaxCount. The
  // caller reads that many lines without reserving room for them.
  int count(std::string_view what) {
    std::string text = line("the number of " + std::string(what));
    std::string_view digits = text;
    bool negative = digits.starts_with('-');  // okio's readDecimalLong() reads "-0" as 0.
    if (negative) digits.remove_prefix(1);
    int64_t value = 0;
    bool ok = !digits.empty();
    for (char c : digits) {
      if (c < '0' || c > '9' || value > std::numeric_limits<int32_t>::max()) {
        ok = false;
        break;
      }
      value = value * 10 + (c - '0');
    }
    if (!ok || value > std::numeric_limits<int32_t>::max() || (negative && value != 0)) {
      corrupt("expected the number of " + std::string(what) + " but was " + quoteForMessage(text));
    }
    if (value > CacheEntry::kMaxCount) {
      corrupt("too many " + std::string(what) + ": " + text + " (the limit is " +
              std::to_string(CacheEntry::kMaxCount) + ")");
    }
    return static_cast<int>(value);
  }

  bool exhausted() { return source_.exhausted(); }

 private:
  BufferedSource& source_;
};

// Kotlin's String.toLong(), which OkHttp applies to the millis headers: an optional sign, then
// decimal digits, within 64 bits.
int64_t parseMillis(std::string_view name, const std::string& value) {
  std::string_view digits = value;
  if (digits.starts_with('+') && !digits.starts_with("+-")) digits.remove_prefix(1);
  int64_t result = 0;
  const char* end = digits.data() + digits.size();
  auto [stop, error] = std::from_chars(digits.data(), end, result);
  if (error != std::errc() || stop != end) {
    corrupt("bad " + std::string(name) + " " + quoteForMessage(value));
  }
  return result;
}

int64_t removeMillis(Headers::Builder& headers, std::string_view name) {
  std::optional<std::string> value = headers.get(name);  // The last one, as OkHttp.
  headers.removeAll(name);
  return value ? parseMillis(name, *value) : 0;
}

// Java's cipher suite names are [A-Z0-9_]; tern accepts either case. CipherSuite::forJavaName()
// interns every new name for good, so a corrupt file must not make it intern arbitrary bytes.
bool isCipherSuiteName(std::string_view name) {
  if (name.empty() || name.size() > 128) return false;
  for (char c : name) {
    bool ok =
        (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_';
    if (!ok) return false;
  }
  return true;
}

std::vector<Certificate> readCertificates(EntryReader& in, const std::string& which) {
  // OkHttp 1.2 wrote -1 for "no certificates"; OkHttp's readInt() has refused it ever since (its
  // readCertificateList's -1 branch cannot be reached), so tern refuses it too.
  int count = in.count(which + " certificates");
  std::vector<Certificate> result;  // Not reserved: `count` comes from the file.
  for (int i = 0; i < count; i++) {
    std::string name = which + " certificate " + std::to_string(i + 1);
    std::string line = in.line(name);
    std::optional<std::vector<uint8_t>> der = decodeBase64(line);
    if (!der) corrupt(name + " is not base64");
    try {
      result.push_back(Certificate::fromDer(*der));
    } catch (const std::invalid_argument& e) {
      corrupt(name + ": " + e.what());
    }
  }
  return result;
}

Handshake readHandshake(EntryReader& in) {
  std::string blank = in.line("the blank line before the handshake");
  if (!blank.empty()) {
    corrupt("expected \"\" before the handshake but was " + quoteForMessage(blank));
  }
  std::string suiteName = in.line("the cipher suite");
  if (!isCipherSuiteName(suiteName)) corrupt("bad cipher suite " + quoteForMessage(suiteName));
  CipherSuite cipherSuite = CipherSuite::forJavaName(suiteName);
  std::vector<Certificate> peer = readCertificates(in, "peer");
  std::vector<Certificate> local = readCertificates(in, "local");
  // OkHttp before 3.0 wrote no TLS version; OkHttp reads its entries as SSL 3.0.
  TlsVersion tlsVersion = TlsVersion::SSL_3_0;
  if (!in.exhausted()) {
    std::string versionName = in.line("the TLS version");
    try {
      tlsVersion = tlsVersionForJavaName(versionName);
    } catch (const std::invalid_argument&) {
      corrupt("bad TLS version " + quoteForMessage(versionName));
    }
  }
  return Handshake(tlsVersion, cipherSuite, std::move(peer), std::move(local));
}

// The writing half: every line must read back as written, so a line break inside one (only a
// Response built in code can hold one) or a CR at its end (the reader takes "\r\n" as the end)
// is refused before anything is written.
class EntryWriter {
 public:
  void line(std::string_view text, std::string_view what) {
    if (text.find('\n') != std::string_view::npos || text.ends_with('\r')) {
      corrupt("cannot store " + std::string(what) + " " + quoteForMessage(text) +
              ": it breaks the line");
    }
    out_.writeUtf8(text).writeByte(std::byte{'\n'});
  }
  void field(const std::string& name, std::string_view value, std::string_view what) {
    line(name + ": " + std::string(value), what);
  }
  void count(size_t n) {
    out_.writeDecimalLong(static_cast<int64_t>(n)).writeByte(std::byte{'\n'});
  }
  void certificates(const std::vector<Certificate>& certificates) {
    count(certificates.size());
    for (const Certificate& certificate : certificates) {
      out_.writeUtf8(encodeBase64(certificate.der())).writeByte(std::byte{'\n'});
    }
  }
  Buffer& buffer() { return out_; }

 private:
  Buffer out_;
};

// The builder of the stored response, without its body.
Response::Builder responseBuilder(const CacheEntry& entry) {
  // The stored request is what the entry knows of it. A method that needs a body (a POST cached
  // under a cacheUrlOverride) gets an empty one: Request refuses such a method without one.
  std::shared_ptr<RequestBody> body =
      requiresRequestBody(entry.requestMethod()) ? RequestBody::create(std::string()) : nullptr;
  Request request = Request::Builder()
                        .url(entry.url())
                        .method(entry.requestMethod(), std::move(body))
                        .headers(entry.varyHeaders())
                        .build();
  Response::Builder builder;
  builder.request(std::move(request))
      .protocol(entry.protocol())
      .code(entry.code())
      .message(entry.message())
      .headers(entry.responseHeaders())
      .handshake(entry.handshake())
      .sentRequestAtMillis(entry.sentRequestMillis())
      .receivedResponseAtMillis(entry.receivedResponseMillis());
  return builder;
}

// Value 1 of a snapshot, owning the snapshot: closing it (or destroying it) closes the snapshot,
// which closes its files and lets the cache delete an entry removed meanwhile.
class CacheBodySource final : public Source {
 public:
  explicit CacheBodySource(std::unique_ptr<DiskLruCache::Snapshot> snapshot)
      : snapshot_(std::move(snapshot)), source_(snapshot_->getSource(kEntryBody)) {}
  int64_t read(Buffer& sink, int64_t byteCount) override { return source_.read(sink, byteCount); }
  Timeout& timeout() override { return source_.timeout(); }
  void close() override { snapshot_->close(); }

 private:
  std::unique_ptr<DiskLruCache::Snapshot> snapshot_;
  Source& source_;  // Owned by snapshot_.
};

// OkHttp's toLongOrDefault(-1), but a length is never negative: digits only, else -1.
int64_t contentLength(const Headers& headers) {
  std::optional<std::string> value = headers.get("Content-Length");
  if (!value || value->empty()) return -1;
  int64_t result = -1;
  auto [end, error] = std::from_chars(value->data(), value->data() + value->size(), result);
  if (error != std::errc() || end != value->data() + value->size() || result < 0) return -1;
  return result;
}

}  // namespace

std::string cacheKey(const HttpUrl& url) {
  std::string text = url.toString();
  std::array<unsigned char, EVP_MAX_MD_SIZE> digest{};
  unsigned int length = 0;
  if (EVP_Digest(text.data(), text.size(), digest.data(), &length, EVP_md5(), nullptr) != 1) {
    // Only an OpenSSL without MD5 (a FIPS-only provider) gets here.
    throw std::runtime_error("cacheKey: OpenSSL could not compute MD5");
  }
  std::string key;
  key.reserve(2 * length);
  for (unsigned int i = 0; i < length; i++) {
    key += hexByte(static_cast<std::byte>(digest[i]));
  }
  return key;
}

std::set<std::string> varyFields(const Headers& responseHeaders) {
  std::set<std::string> result;
  for (const auto& [name, value] : responseHeaders) {
    if (!equalsIgnoreCase(name, "Vary")) continue;
    std::string_view rest = value;
    while (true) {
      size_t comma = rest.find(',');
      std::string_view field = trimAsciiWhitespace(rest.substr(0, comma));
      if (!field.empty()) result.insert(toLowerAscii(field));
      if (comma == std::string_view::npos) break;
      rest.remove_prefix(comma + 1);
    }
  }
  return result;
}

bool hasVaryAll(const Headers& responseHeaders) {
  return varyFields(responseHeaders).contains("*");
}

Headers varyHeaders(const Headers& requestHeaders, const Headers& responseHeaders) {
  std::set<std::string> fields = varyFields(responseHeaders);
  if (fields.empty()) return Headers();
  Headers::Builder result;
  for (const auto& [name, value] : requestHeaders) {
    // Lenient: the request's headers were checked when it was built (or sent as they are).
    if (fields.contains(toLowerAscii(name))) result.addLenient(name, value);
  }
  return std::move(result).build();
}

bool varyMatches(const Headers& cachedResponseHeaders, const Headers& cachedRequestHeaders,
                 const Request& newRequest) {
  for (const std::string& field : varyFields(cachedResponseHeaders)) {
    if (cachedRequestHeaders.values(field) != newRequest.headers(field)) return false;
  }
  return true;
}

CacheEntry::CacheEntry(const HttpUrl& cacheUrl, const Response& response)
    : url_(cacheUrl),
      requestMethod_(response.request().method()),
      varyHeaders_(internal::varyHeaders(response.request().headers(), response.headers())),
      protocol_(response.protocol()),
      code_(response.code()),
      message_(response.message()),
      responseHeaders_(response.headers()),
      handshake_(response.handshake()),
      sentRequestMillis_(response.sentRequestAtMillis()),
      receivedResponseMillis_(response.receivedResponseAtMillis()) {}

CacheEntry CacheEntry::readFrom(Source& rawSource) {
  std::unique_ptr<BufferedSource> source = buffer(rawSource);  // Destroying it leaves rawSource.
  EntryReader in(*source);

  std::string urlLine = in.line("the URL");
  std::optional<HttpUrl> url = HttpUrl::parse(urlLine);
  // OkHttp's HttpUrl knows only http and https; tern's parser also takes ws and wss.
  if (!url || (url->scheme() != "http" && url->scheme() != "https")) {
    corrupt("bad URL " + quoteForMessage(urlLine));
  }
  CacheEntry entry(std::move(*url));

  entry.requestMethod_ = in.line("the request method");
  if (!isToken(entry.requestMethod_))
    corrupt("bad request method " + quoteForMessage(entry.requestMethod_));

  Headers::Builder vary;
  int varyCount = in.count("Vary request headers");
  for (int i = 0; i < varyCount; i++) {
    vary.addLenient(in.line("the Vary request headers"));
  }
  entry.varyHeaders_ = std::move(vary).build();

  std::string statusLine = in.line("the status line");
  try {
    StatusLine status = StatusLine::parse(statusLine);
    entry.protocol_ = status.protocol;
    entry.code_ = status.code;
    entry.message_ = std::move(status.message);
  } catch (const ProtocolException&) {
    corrupt("bad status line " + quoteForMessage(statusLine));
  }
  // OkHttp writes the code without padding, so a code below 100 could not be read back.
  if (entry.code_ < 100) corrupt("bad status line " + quoteForMessage(statusLine));

  Headers::Builder headers;
  int headerCount = in.count("response headers");
  for (int i = 0; i < headerCount; i++) {
    headers.addLenient(in.line("the response headers"));
  }
  entry.sentRequestMillis_ = removeMillis(headers, kSentMillis);
  entry.receivedResponseMillis_ = removeMillis(headers, kReceivedMillis);
  entry.responseHeaders_ = std::move(headers).build();

  if (entry.url_.isHttps()) entry.handshake_ = readHandshake(in);
  return entry;
}

void CacheEntry::writeTo(Sink& sink) const {
  if (url_.isHttps() && !handshake_) {
    corrupt("cannot store an https response without its handshake: " + url_.toString());
  }
  if (code_ < 100 || code_ > 999) corrupt("cannot store status code " + std::to_string(code_));

  EntryWriter out;
  out.line(url_.toString(), "the URL");
  out.line(requestMethod_, "the request method");
  out.count(varyHeaders_.size());
  for (const auto& [name, value] : varyHeaders_) {
    out.field(name, value, "a Vary request header");
  }
  out.line(StatusLine{protocol_, code_, message_}.toString(), "the status line");
  out.count(responseHeaders_.size() + 2);
  for (const auto& [name, value] : responseHeaders_) {
    out.field(name, value, "a response header");
  }
  out.field(std::string(kSentMillis), std::to_string(sentRequestMillis_), "the sent time");
  out.field(std::string(kReceivedMillis), std::to_string(receivedResponseMillis_),
            "the received time");
  if (url_.isHttps()) {
    out.line("", "the blank line");
    out.line(handshake_->cipherSuite().javaName(), "the cipher suite");
    out.certificates(handshake_->peerCertificates());
    out.certificates(handshake_->localCertificates());
    out.line(javaName(handshake_->tlsVersion()), "the TLS version");
  }

  Buffer& bytes = out.buffer();
  sink.write(bytes, bytes.size());
  sink.flush();
}

bool CacheEntry::matches(const Request& request, const HttpUrl& cacheUrl) const {
  return url_ == cacheUrl && requestMethod_ == request.method() &&
         varyMatches(responseHeaders_, varyHeaders_, request);
}

Response CacheEntry::response(std::unique_ptr<DiskLruCache::Snapshot> snapshot) const {
  if (!snapshot) throw std::invalid_argument("CacheEntry::response: snapshot is null");
  std::optional<MediaType> contentType;
  if (std::optional<std::string> value = responseHeaders_.get("Content-Type")) {
    contentType = MediaType::parse(*value);
  }
  int64_t length = contentLength(responseHeaders_);
  ResponseBody body(buffer(std::make_unique<CacheBodySource>(std::move(snapshot))),
                    std::move(contentType), length);
  return responseBuilder(*this).body(std::move(body)).build();
}

Response CacheEntry::response(const std::vector<std::byte>& body) const {
  std::optional<MediaType> contentType;
  if (std::optional<std::string> value = responseHeaders_.get("Content-Type")) {
    contentType = MediaType::parse(*value);
  }
  return responseBuilder(*this).body(ResponseBody::create(body, std::move(contentType))).build();
}

Response CacheEntry::responseWithoutBody() const { return responseBuilder(*this).build(); }

}  // namespace tern::internal
