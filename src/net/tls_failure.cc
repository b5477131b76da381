// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#include "net/tls_failure.h"

#include <openssl/err.h>
#include <openssl/x509.h>
#include <openssl/x509_vfy.h>

#include <ctime>
#include <exception>
#include <memory>
#include <optional>
#include <vector>

#include "net/error_message.h"
#include "tls/openssl_util.h"

namespace tern::internal {
namespace {

// The first verification error of a handshake, with the certificate it concerns.
struct VerifyRecord {
  SSL_verify_cb previous = nullptr;  // The callback this one chains to.
  bool failed = false;
  int error = X509_V_OK;
  std::string subject;
  std::string issuer;
  std::string notBefore;
  std::string notAfter;
};

void freeRecord(void*, void* pointer, CRYPTO_EX_DATA*, int, long, void*) {
  delete static_cast<VerifyRecord*>(pointer);  // NOLINT: ex_data's owner frees it here.
}

int recordIndex() {
  static const int index = SSL_get_ex_new_index(0, nullptr, nullptr, nullptr, freeRecord);
  return index;
}

VerifyRecord* recordOf(const SSL* ssl) {
  return static_cast<VerifyRecord*>(SSL_get_ex_data(ssl, recordIndex()));
}

// "CN=localhost,OU=tern" (RFC 2253, as Java's X500Principal.getName()).
std::string distinguishedName(const X509_NAME* name) {
  if (name == nullptr) return "(none)";
  UniqueBio bio(BIO_new(BIO_s_mem()));
  if (!bio || X509_NAME_print_ex(bio.get(), name, 0, XN_FLAG_RFC2253) < 0) return "(unreadable)";
  char* data = nullptr;
  const long length = BIO_get_mem_data(bio.get(), &data);
  return std::string(data, static_cast<size_t>(length));
}

std::string isoTime(const std::tm& tm) {
  char text[32];
  std::strftime(text, sizeof(text), "%Y-%m-%dT%H:%M:%SZ", &tm);
  return text;
}

// "2026-11-28T18:00:00Z".
std::string isoTime(const ASN1_TIME* time) {
  std::tm tm{};
  if (time == nullptr || ASN1_TIME_to_tm(time, &tm) != 1) return "(unknown)";
  return isoTime(tm);
}

std::string now() {
  const std::time_t t = std::time(nullptr);
  std::tm tm{};
  gmtime_r(&t, &tm);
  return isoTime(tm);
}

// Fills `record` with `context`'s error and the certificate it concerns.
void recordFailure(X509_STORE_CTX* context, VerifyRecord& record) {
  record.failed = true;
  record.error = X509_STORE_CTX_get_error(context);
  if (X509* certificate = X509_STORE_CTX_get_current_cert(context)) {
    record.subject = distinguishedName(X509_get_subject_name(certificate));
    record.issuer = distinguishedName(X509_get_issuer_name(certificate));
    record.notBefore = isoTime(X509_get0_notBefore(certificate));
    record.notAfter = isoTime(X509_get0_notAfter(certificate));
  }
}

int recordingVerifyCallback(int ok, X509_STORE_CTX* context) {
  const auto* ssl = static_cast<const SSL*>(
      X509_STORE_CTX_get_ex_data(context, SSL_get_ex_data_X509_STORE_CTX_idx()));
  VerifyRecord* record = ssl != nullptr ? recordOf(ssl) : nullptr;
  if (record == nullptr) return ok;
  if (record->previous != nullptr) ok = record->previous(ok, context);
  if (ok == 0 && !record->failed) recordFailure(context, *record);
  return ok;
}

const char* peerRole(const SSL* ssl) { return SSL_is_server(ssl) ? "client" : "server"; }

std::string versionName(int version) {
  switch (version) {
    case TLS1_3_VERSION:
      return "TLSv1.3";
    case TLS1_2_VERSION:
      return "TLSv1.2";
    case TLS1_1_VERSION:
      return "TLSv1.1";
    case TLS1_VERSION:
      return "TLSv1";
    default:
      return "SSLv3";
  }
}

// The versions `ssl` offers, newest first: "TLSv1.3, TLSv1.2".
std::string offeredVersions(SSL* ssl) {
  int low = SSL_get_min_proto_version(ssl);
  int high = SSL_get_max_proto_version(ssl);
  if (low == 0) low = TLS1_VERSION;
  if (high == 0) high = TLS1_3_VERSION;
  const uint64_t options = SSL_get_options(ssl);
  const std::pair<int, uint64_t> versions[] = {{TLS1_3_VERSION, SSL_OP_NO_TLSv1_3},
                                               {TLS1_2_VERSION, SSL_OP_NO_TLSv1_2},
                                               {TLS1_1_VERSION, SSL_OP_NO_TLSv1_1},
                                               {TLS1_VERSION, SSL_OP_NO_TLSv1}};
  std::string result;
  for (const auto& [version, disabled] : versions) {
    if (version < low || version > high || (options & disabled) != 0) continue;
    if (!result.empty()) result += ", ";
    result += versionName(version);
  }
  return result.empty() ? "none" : result;
}

// Why verification failed, as the messages in tls_failure.h say it.
std::string describe(const VerifyRecord* record) {
  const std::string reason = X509_verify_cert_error_string(record->error);
  const std::string subject = record->subject.empty() ? "(unknown)" : record->subject;
  switch (record->error) {
    case X509_V_ERR_CERT_HAS_EXPIRED:
      return "certificate " + subject + " expired at " + record->notAfter + " (valid from " +
             record->notBefore + "; now " + now() + ")";
    case X509_V_ERR_CERT_NOT_YET_VALID:
      return "certificate " + subject + " is not yet valid: valid from " + record->notBefore +
             " to " + record->notAfter + " (now " + now() + ")";
    case X509_V_ERR_UNABLE_TO_GET_ISSUER_CERT:
    case X509_V_ERR_UNABLE_TO_GET_ISSUER_CERT_LOCALLY:
    case X509_V_ERR_UNABLE_TO_VERIFY_LEAF_SIGNATURE:
    case X509_V_ERR_DEPTH_ZERO_SELF_SIGNED_CERT:
    case X509_V_ERR_SELF_SIGNED_CERT_IN_CHAIN:
    case X509_V_ERR_CERT_UNTRUSTED:
      return "untrusted certificate chain: no trusted root for " + subject + ", issued by " +
             record->issuer + " (" + reason + ")";
    default:
      return "certificate " + subject + " failed verification: " + reason;
  }
}

std::string verifyFailure(SSL* ssl) {
  VerifyRecord fallback;
  const VerifyRecord* record = recordOf(ssl);
  if (record == nullptr || !record->failed) {
    fallback.error = static_cast<int>(SSL_get_verify_result(ssl));
    if (X509* peer = SSL_get1_peer_certificate(ssl)) {
      UniqueX509 owned(peer);
      fallback.subject = distinguishedName(X509_get_subject_name(peer));
      fallback.issuer = distinguishedName(X509_get_issuer_name(peer));
      fallback.notBefore = isoTime(X509_get0_notBefore(peer));
      fallback.notAfter = isoTime(X509_get0_notAfter(peer));
    }
    record = &fallback;
  }
  return describe(record);
}

// An SSLHandshakeException with `reason` in a CertificateException nested inside.
[[noreturn]] void throwCertificateFailure(const std::string& prefix, const std::string& reason) {
  try {
    throw CertificateException(reason);
  } catch (const CertificateException&) {
    std::throw_with_nested(SSLHandshakeException(prefix + reason));
  }
}

// The alert the peer sent, if the error is "received alert X": OpenSSL reports those as reasons
// SSL_AD_REASON_OFFSET + the alert number.
std::optional<int> receivedAlert(unsigned long code) {
  if (code == 0 || ERR_GET_LIB(code) != ERR_LIB_SSL) return std::nullopt;
  const int reason = ERR_GET_REASON(code);
  if (reason < SSL_AD_REASON_OFFSET) return std::nullopt;
  return reason - SSL_AD_REASON_OFFSET;
}

// A fatal alert in which the peer refuses our certificate, or the handshake as a whole.
std::optional<std::string> refusalAlert(const SSL* ssl, int alert) {
  const std::string role = peerRole(ssl);
  const std::string us = SSL_is_server(ssl) ? "server" : "client";
  switch (alert) {
    case SSL_AD_CERTIFICATE_REQUIRED:
      return "the " + role + " requires a client certificate (certificate required alert)";
    case SSL_AD_BAD_CERTIFICATE:
    case SSL_AD_UNSUPPORTED_CERTIFICATE:
    case SSL_AD_CERTIFICATE_REVOKED:
    case SSL_AD_CERTIFICATE_EXPIRED:
    case SSL_AD_CERTIFICATE_UNKNOWN:
    case SSL_AD_UNKNOWN_CA:
    case SSL_AD_ACCESS_DENIED:
      return "the " + role + " rejected the " + us + "'s certificate (" +
             SSL_alert_desc_string_long(alert) + " alert)";
    case SSL_AD_HANDSHAKE_FAILURE:
      return "the " + role +
             " refused the handshake (handshake failure alert): no cipher suite in common, or "
             "it requires a client certificate";
    case SSL_AD_INSUFFICIENT_SECURITY:
      return "the " + role +
             " refused the handshake (insufficient security alert): no cipher "
             "suite strong enough for it";
    default:
      return std::nullopt;
  }
}

std::string truncated(const std::string& peer) {
  return "Connection to " + peer + " closed without a TLS close_notify: the stream was truncated";
}

}  // namespace

bool isCertificateFailure(const IOException& e) {
  if (dynamic_cast<const SSLHandshakeException*>(&e) == nullptr) return false;
  const auto* nested = dynamic_cast<const std::nested_exception*>(&e);
  if (nested == nullptr || !nested->nested_ptr()) return false;
  try {
    std::rethrow_exception(nested->nested_ptr());
  } catch (const CertificateException&) {
    return true;
  } catch (...) {
    return false;
  }
}

void recordVerifyFailures(SSL* ssl) {
  auto record = std::make_unique<VerifyRecord>();
  record->previous = SSL_get_verify_callback(ssl);
  if (SSL_set_ex_data(ssl, recordIndex(), record.get()) != 1) return;  // Out of memory: no detail.
  record.release();  // NOLINT: owned by the SSL's ex_data now, freed by freeRecord.
  SSL_set_verify(ssl, SSL_get_verify_mode(ssl), recordingVerifyCallback);
}

void throwHandshakeFailure(SSL* ssl, const TlsCallResult& result, const std::string& peer) {
  const std::string prefix = "TLS handshake with " + peer + " failed: ";
  const int reason =
      result.code != 0 && ERR_GET_LIB(result.code) == ERR_LIB_SSL ? ERR_GET_REASON(result.code) : 0;
  const bool verifying = (SSL_get_verify_mode(ssl) & SSL_VERIFY_PEER) != 0;
  if (reason == SSL_R_CERTIFICATE_VERIFY_FAILED ||
      (verifying && !SSL_is_server(ssl) && SSL_get_verify_result(ssl) != X509_V_OK)) {
    throwCertificateFailure(prefix, verifyFailure(ssl));
  }
  if (result.error == SSL_ERROR_SYSCALL) {
    if (result.socketError != 0) {
      throw IOException(prefix + errorMessage(result.socketError));
    }
    throw SSLHandshakeException(prefix + "the " + peerRole(ssl) +
                                " closed the connection during the handshake");
  }
  if (std::optional<int> alert = receivedAlert(result.code)) {
    if (std::optional<std::string> refusal = refusalAlert(ssl, *alert)) {
      throw SSLHandshakeException(prefix + *refusal);
    }
    if (*alert == SSL_AD_PROTOCOL_VERSION) {
      throw SSLHandshakeException(prefix + "no TLS version in common: the " +
                                  (SSL_is_server(ssl) ? "server" : "client") + " offers " +
                                  offeredVersions(ssl) + " and the " + peerRole(ssl) +
                                  " refused (protocol version alert)");
    }
    throw SSLHandshakeException(prefix + "the " + peerRole(ssl) + " sent a " +
                                SSL_alert_desc_string_long(*alert) + " alert");
  }
  switch (reason) {
    case SSL_R_UNEXPECTED_EOF_WHILE_READING:
      throw SSLHandshakeException(prefix + "the " + peerRole(ssl) +
                                  " closed the connection during the handshake");
    case SSL_R_WRONG_VERSION_NUMBER:
    case SSL_R_HTTP_REQUEST:
    case SSL_R_HTTPS_PROXY_REQUEST:
    case SSL_R_RECORD_LENGTH_MISMATCH:
    case SSL_R_PACKET_LENGTH_TOO_LONG:
      throw SSLHandshakeException(prefix + "the " + peerRole(ssl) + " does not speak TLS (" +
                                  ERR_reason_error_string(result.code) +
                                  "): is it a plain HTTP port?");
    case SSL_R_UNSUPPORTED_PROTOCOL:
    case SSL_R_NO_PROTOCOLS_AVAILABLE:
    case SSL_R_VERSION_TOO_LOW:
    case SSL_R_VERSION_TOO_HIGH:
    case SSL_R_UNKNOWN_PROTOCOL:
      throw SSLHandshakeException(prefix + "no TLS version in common: this side offers " +
                                  offeredVersions(ssl) + " (" +
                                  ERR_reason_error_string(result.code) + ")");
    case SSL_R_NO_SHARED_CIPHER:
      throw SSLHandshakeException(prefix + "no cipher suite in common with the " + peerRole(ssl));
    case SSL_R_NO_CIPHERS_AVAILABLE:
    case SSL_R_NO_CIPHER_MATCH:
      throw SSLHandshakeException(prefix +
                                  "no cipher suite enabled for the TLS versions offered (" +
                                  offeredVersions(ssl) + ")");
    case SSL_R_PEER_DID_NOT_RETURN_A_CERTIFICATE:
      throw SSLHandshakeException(prefix + "the client sent no certificate, and one is required");
    default:
      break;
  }
  throw SSLHandshakeException(prefix +
                              (result.details.empty() ? "unknown TLS error" : result.details));
}

void throwStreamFailure(SSL* ssl, const TlsCallResult& result, const std::string& peer,
                        bool reading) {
  if (result.error == SSL_ERROR_SYSCALL) {
    if (result.socketError != 0) {
      const std::string message = errorMessage(result.socketError) + ": " + peer;
      if (!reading) throw SocketWriteException(message, result.socketError);
      throw IOException(message);
    }
    // A write fails so, with no error of its own, once a read has met the end of the stream
    // (OpenSSL then refuses to go on): the end is the connection's failure, not the write's.
    if (reading || result.sawEof) throw SSLException(truncated(peer));
    throw SSLException("Connection closed: " + peer);
  }
  if (result.error == SSL_ERROR_ZERO_RETURN) {
    throw SSLException("The peer closed the TLS connection (close_notify): " + peer);
  }
  const int reason =
      result.code != 0 && ERR_GET_LIB(result.code) == ERR_LIB_SSL ? ERR_GET_REASON(result.code) : 0;
  if (reason == SSL_R_UNEXPECTED_EOF_WHILE_READING) throw SSLException(truncated(peer));
  if (std::optional<int> alert = receivedAlert(result.code)) {
    if (std::optional<std::string> refusal = refusalAlert(ssl, *alert)) {
      throw SSLHandshakeException("TLS handshake with " + peer + " failed: " + *refusal);
    }
    throw SSLException("TLS alert from " + peer + ": " + SSL_alert_desc_string_long(*alert));
  }
  throw SSLException(std::string("TLS ") + (reading ? "read from " : "write to ") + peer +
                     " failed: " + (result.details.empty() ? "unknown TLS error" : result.details));
}

void throwChainFailure(X509_STORE_CTX* context, const std::string& peer) {
  VerifyRecord record;
  recordFailure(context, record);
  throwCertificateFailure("TLS handshake with " + peer + " failed: ", describe(&record));
}

}  // namespace tern::internal
