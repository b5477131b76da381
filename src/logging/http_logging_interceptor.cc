// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#include "tern/http_logging_interceptor.h"

#include <chrono>
#include <cstdint>
#include <iostream>
#include <limits>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "http/charset.h"
#include "http/http_syntax.h"
#include "http/message_framing.h"
#include "io/ascii.h"
#include "io/content_decoding.h"
#include "logging/probably_utf8.h"
#include "tern/buffer.h"
#include "tern/buffered_source.h"
#include "tern/exceptions.h"

namespace tern {
namespace {

using internal::equalsIgnoreCase;

// True if the body is encoded in a way we cannot show (anything but identity and gzip).
bool bodyHasUnknownEncoding(const Headers& headers) {
  std::optional<std::string> encoding = headers.get("Content-Encoding");
  return encoding && !equalsIgnoreCase(*encoding, "identity") &&
         !equalsIgnoreCase(*encoding, "gzip");
}

// A response body's content codings in the order they were applied (identity left out), or
// nullopt if one is not a coding we can decode for the log (gzip, deflate, br and zstd are).
std::optional<std::vector<std::string>> decodableCodings(const Headers& headers) {
  std::vector<std::string> codings;
  for (const std::string& value : headers.values("Content-Encoding")) {
    for (std::string& coding : internal::listTokens(value)) {
      if (equalsIgnoreCase(coding, "identity")) continue;
      if (!internal::isDecodableContentCoding(coding)) return std::nullopt;
      codings.push_back(std::move(coding));
    }
  }
  return codings;
}

// Bodies are decoded for the log under the client's default decompression ratio limit.
constexpr double kMaxDecompressionRatio = 1000;

std::string text(const Buffer& buffer, const std::optional<MediaType>& contentType) {
  std::vector<std::byte> bytes = buffer.snapshot();
  std::string_view view(reinterpret_cast<const char*>(bytes.data()), bytes.size());
  return internal::decodeToUtf8(view, contentType ? contentType->charset() : std::nullopt);
}

}  // namespace

HttpLoggingInterceptor::Logger HttpLoggingInterceptor::defaultLogger() {
  return [](std::string_view message) {
    static std::mutex mutex;
    std::lock_guard lock(mutex);
    std::cerr << message << '\n';
  };
}

HttpLoggingInterceptor::HttpLoggingInterceptor(Logger logger)
    : logger_(logger ? std::move(logger) : defaultLogger()) {}

HttpLoggingInterceptor& HttpLoggingInterceptor::setLevel(Level level) {
  std::lock_guard lock(mutex_);
  level_ = level;
  return *this;
}

HttpLoggingInterceptor::Level HttpLoggingInterceptor::level() const {
  std::lock_guard lock(mutex_);
  return level_;
}

HttpLoggingInterceptor& HttpLoggingInterceptor::redactHeader(std::string name) {
  std::lock_guard lock(mutex_);
  headersToRedact_.insert(internal::toLowerAscii(name));
  return *this;
}

bool HttpLoggingInterceptor::isRedacted(const std::string& name) const {
  std::lock_guard lock(mutex_);
  return headersToRedact_.count(internal::toLowerAscii(name)) > 0;
}

void HttpLoggingInterceptor::logHeader(const std::string& name, const std::string& value) const {
  logger_(name + ": " + (isRedacted(name) ? "██" : value));
}

Response HttpLoggingInterceptor::intercept(Chain& chain) {
  Level level = this->level();
  const Request& request = chain.request();
  if (level == Level::NONE) return chain.proceed(request);

  bool logBody = level == Level::BODY;
  bool logHeaders = logBody || level == Level::HEADERS;
  const std::shared_ptr<RequestBody>& requestBody = request.body();

  std::string requestStart = "--> " + request.method() + " " + request.url().toString();
  if (Connection* connection = chain.connection()) {
    requestStart += " " + std::string(toString(connection->protocol()));
  }
  if (!logHeaders && requestBody) {
    requestStart += " (" + std::to_string(requestBody->contentLength()) + "-byte body)";
  }
  logger_(requestStart);

  if (logHeaders) {
    const Headers& headers = request.headers();
    if (requestBody) {
      // An application interceptor sees the body's headers only on the body: show them too.
      if (requestBody->contentType() && !headers.get("Content-Type")) {
        logger_("Content-Type: " + requestBody->contentType()->toString());
      }
      if (requestBody->contentLength() != -1 && !headers.get("Content-Length")) {
        logger_("Content-Length: " + std::to_string(requestBody->contentLength()));
      }
    }
    for (size_t i = 0; i < headers.size(); ++i) logHeader(headers.name(i), headers.value(i));

    const std::string& method = request.method();
    if (!logBody || !requestBody) {
      logger_("--> END " + method);
    } else if (bodyHasUnknownEncoding(headers)) {
      logger_("--> END " + method + " (encoded body omitted)");
    } else if (requestBody->isDuplex()) {
      logger_("--> END " + method + " (duplex request body omitted)");
    } else if (requestBody->isOneShot()) {
      logger_("--> END " + method + " (one-shot body omitted)");
    } else {
      Buffer buffer;
      requestBody->writeTo(buffer);
      logger_("");
      if (internal::isProbablyUtf8(buffer)) {
        logger_(text(buffer, requestBody->contentType()));
        logger_("--> END " + method + " (" + std::to_string(buffer.size()) + "-byte body)");
      } else {
        logger_("--> END " + method + " (binary " + std::to_string(buffer.size()) +
                "-byte body omitted)");
      }
    }
  }

  auto start = std::chrono::steady_clock::now();
  std::optional<Response> proceeded;
  try {
    proceeded.emplace(chain.proceed(request));
  } catch (const std::exception& e) {
    logger_(std::string("<-- HTTP FAILED: ") + e.what());
    throw;
  }
  Response response = std::move(*proceeded);
  auto tookMs = std::chrono::duration_cast<std::chrono::milliseconds>(
                    std::chrono::steady_clock::now() - start)
                    .count();

  ResponseBody* responseBody = response.body();
  int64_t contentLength = responseBody ? responseBody->contentLength() : 0;
  std::string bodySize =
      contentLength != -1 ? std::to_string(contentLength) + "-byte" : "unknown-length";
  std::string message = response.message().empty() ? "" : " " + response.message();
  logger_("<-- " + std::to_string(response.code()) + message + " " +
          response.request().url().toString() + " (" + std::to_string(tookMs) + "ms" +
          (logHeaders ? "" : ", " + bodySize + " body") + ")");
  if (!logHeaders) return response;

  const Headers& headers = response.headers();
  for (size_t i = 0; i < headers.size(); ++i) logHeader(headers.name(i), headers.value(i));

  if (!logBody || !responseBody || !internal::promisesBody(response)) {
    logger_("<-- END HTTP");
  } else if (std::optional<std::vector<std::string>> codings = decodableCodings(headers);
             !codings) {
    logger_("<-- END HTTP (encoded body omitted)");
  } else {
    BufferedSource& source = responseBody->source();
    source.request(std::numeric_limits<int64_t>::max());  // Buffers the whole body.
    Buffer buffer = source.buffer().copy();
    std::optional<int64_t> encodedLength;
    std::string codingNames;
    if (!codings->empty()) {
      encodedLength = buffer.size();
      for (const std::string& coding : *codings) {
        codingNames += (codingNames.empty() ? "" : ", ") + coding;
      }
      Buffer decoded;
      try {
        std::unique_ptr<Source> decoder = internal::decodingSource(
            std::make_unique<Buffer>(std::move(buffer)), *codings, kMaxDecompressionRatio);
        while (decoder->read(decoded, 8192) != -1) {
        }
      } catch (const IOException& e) {
        // The application will hit the same error reading the body; the log just says so.
        logger_("<-- END HTTP (" + codingNames + " body not decodable: " + std::string(e.what()) +
                ")");
        return response;
      }
      buffer = std::move(decoded);
    }
    if (!internal::isProbablyUtf8(buffer)) {
      logger_("");
      logger_("<-- END HTTP (binary " + std::to_string(buffer.size()) + "-byte body omitted)");
      return response;
    }
    if (buffer.size() != 0) {
      logger_("");
      logger_(text(buffer, responseBody->contentType()));
    }
    if (encodedLength && codingNames == "gzip") {
      logger_("<-- END HTTP (" + std::to_string(buffer.size()) + "-byte, " +
              std::to_string(*encodedLength) + "-gzipped-byte body)");  // OkHttp's words.
    } else if (encodedLength) {
      logger_("<-- END HTTP (" + std::to_string(buffer.size()) + "-byte, " +
              std::to_string(*encodedLength) + "-byte " + codingNames + "-encoded body)");
    } else {
      logger_("<-- END HTTP (" + std::to_string(buffer.size()) + "-byte body)");
    }
  }
  return response;
}

}  // namespace tern
